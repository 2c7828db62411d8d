import type { Config } from '../config';
import { loadConfig } from '../config';
import { openDatabase, type Database } from '../database/connection';
import { migrateLatest } from '../database/migrate';

export const DATABASE_FLAG = '--database <url>';
export const DATABASE_HELP = 'SQLite file path or postgres:// URL (default: $DATABASE_URL or data/orgsec.sqlite)';

export function configWith(options: { database?: string | undefined }, extra: Partial<Config> = {}): Config {
  return loadConfig(process.env, { ...(options.database ? { databaseUrl: options.database } : {}), ...extra });
}

/** Opens the configured database with migrations applied, runs `work`, and closes it. */
export async function withMigratedDatabase<T>(config: Config, work: (db: Database) => Promise<T>): Promise<T> {
  const db = openDatabase(config.databaseUrl);
  try {
    await migrateLatest(db);
    return await work(db);
  } finally {
    await db.knex.destroy();
  }
}
