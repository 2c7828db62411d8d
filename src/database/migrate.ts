import type { Knex } from 'knex';
import { migrationSource } from '../../db/migrations';
import type { Database } from './connection';

function migratorConfig(db: Database): Knex.MigratorConfig {
  return { migrationSource, ...(db.schema ? { schemaName: db.schema } : {}) };
}

/** Runs pending migrations; returns the names it ran. */
export async function migrateLatest(db: Database): Promise<string[]> {
  if (db.schema) await db.knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [db.schema]);
  const [, ran] = (await db.knex.migrate.latest(migratorConfig(db))) as [number, string[]];
  return ran;
}

export async function rollbackAll(db: Database): Promise<void> {
  await db.knex.migrate.rollback(migratorConfig(db), true);
}
