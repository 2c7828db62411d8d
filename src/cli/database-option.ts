import type { Config } from '../config';
import { openDatabase, type Database } from '../database/connection';
import { migrateLatest } from '../database/migrate';

/** Opens the configured database with migrations applied, runs `work`, and closes it. */
export async function withMigratedDatabase<T>(config: Config, work: (db: Database) => Promise<T>): Promise<T> {
  const db = openDatabase(config.databaseUrl, { poolMax: config.databasePoolMax, sqliteFastPaths: config.sqliteFastPaths });
  try {
    await migrateLatest(db);
    return await work(db);
  } finally {
    await db.close();
  }
}
