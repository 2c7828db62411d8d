import type { Knex } from 'knex';
import { migrationSource, type Migration } from '../../db/migrations';
import type { Database } from './connection';
import { isConcurrentCreate } from './dialect';

function migratorConfig(db: Database): Knex.MigratorConfig {
  return { migrationSource, ...(db.schema ? { schemaName: db.schema } : {}) };
}

const WAIT_FOR_OTHER_INSTANCE_MS = 120_000;

/** Another instance is migrating (it holds knex's lock, or created its tables a moment ago). */
function isMigrationRace(error: unknown): boolean {
  const { name, code, message } = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown };
  return name === 'MigrationLocked' || isConcurrentCreate(error) || code === 'SQLITE_BUSY'
    || (typeof message === 'string' && message.includes('already locked'));
}

const KNEX_LOCK_TABLE = 'knex_migrations_lock';

/**
 * knex creates its lock row with a read-then-insert, so instances starting at once can
 * insert two; its lock (an UPDATE that must change exactly one row) then never succeeds.
 * Keeping the first row repairs that, and is harmless while a holder has it locked.
 */
async function removeDuplicateLockRows(db: Database): Promise<void> {
  if (!(await db.knex.schema.hasTable(KNEX_LOCK_TABLE))) return;
  const rows = await db.knex(KNEX_LOCK_TABLE).orderBy('index').select('index');
  if (rows.length > 1) await db.knex(KNEX_LOCK_TABLE).where('index', '>', rows[0].index).delete();
}

/**
 * Runs pending migrations; returns the names it ran. When several instances start at once,
 * one migrates and the others wait for it, then find nothing left to run.
 */
export async function migrateLatest(db: Database): Promise<string[]> {
  if (db.schema) await db.knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [db.schema]);
  const started = Date.now();
  for (;;) {
    try {
      const [, ran] = (await db.knex.migrate.latest(migratorConfig(db))) as [number, string[]];
      return ran;
    } catch (error) {
      if (!isMigrationRace(error) || Date.now() - started > WAIT_FOR_OTHER_INSTANCE_MS) throw error;
      await removeDuplicateLockRows(db).catch(() => undefined); // another instance may be creating it
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

export async function rollbackAll(db: Database): Promise<void> {
  await db.knex.migrate.rollback(migratorConfig(db), true);
}

/** The migrations of this build that the database has not run yet, in order. */
export async function pendingMigrations(db: Database): Promise<string[]> {
  const [, pending] = (await db.knex.migrate.list(migratorConfig(db))) as [unknown[], Array<readonly [string, Migration]>];
  return pending.map((migration) => migrationSource.getMigrationName(migration));
}
