import { migrationSource } from '../../db/migrations';
import type { TestDatabase } from './test-database';

// What the tests of one migration share: the schema up to the migration under test, and the
// id of a row inserted before it (the dialects answer `returning('id')` differently).

/** The migrator's settings for this test database (its schema on PostgreSQL). */
export function migrationConfig(db: TestDatabase) {
  return { migrationSource, ...(db.schema ? { schemaName: db.schema } : {}) };
}

/** Runs every migration before `name`, one by one. */
export async function migrateBefore(db: TestDatabase, name: string): Promise<void> {
  const names = (await migrationSource.getMigrations([])).map(([n]) => n);
  for (const n of names.slice(0, names.indexOf(name))) await db.knex.migrate.up({ ...migrationConfig(db), name: n });
}

/** The id an insert's `returning('id')` answered. */
export function insertedId(rows: unknown[]): number {
  const [row] = rows as Array<{ id: number } | number>;
  return Number(typeof row === 'object' ? row!.id : row);
}
