import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';

declare const TEST_DIALECT: 'sqlite' | 'postgres';

export const dialect: 'sqlite' | 'postgres' = TEST_DIALECT;

/**
 * SQLITE_FAST_PATHS=on (in the environment, or as the jest project `sqlite-fast-paths` sets it)
 * runs the tests through the SQLite shortcuts (src/database/sqlite-fast-paths.ts).
 */
const sqliteFastPaths = process.env.SQLITE_FAST_PATHS === 'on' || (globalThis as { SQLITE_FAST_PATHS?: string }).SQLITE_FAST_PATHS === 'on';

export interface TestDatabase extends Database {
  /** The URL another process would use to reach the same database. */
  url: string;
  destroy(): Promise<void>;
}

/** A fresh, empty database for one test file: its own SQLite file or PostgreSQL schema. */
export async function createTestDatabase(options: { migrate?: boolean; sqliteDirectory?: string } = {}): Promise<TestDatabase> {
  const id = crypto.randomBytes(6).toString('hex');
  let db: Database;
  let url: string;
  let cleanup: () => Promise<void>;
  if (dialect === 'postgres') {
    const base = process.env.TEST_DATABASE_URL!;
    const schema = `test_${id}`;
    // The schema named in the URL, so a CLI run or another process reaches this database too.
    url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    const connection = base;
    db = openDatabase(connection, { schema, poolMax: 4 });
    await db.knex.raw('CREATE SCHEMA ??', [schema]);
    cleanup = async () => {
      await db.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
      await db.close();
    };
  } else {
    // A directory of the test's own (a small file system, say), else a new one under the system's.
    const dir = fs.mkdtempSync(path.join(options.sqliteDirectory ?? os.tmpdir(), 'orgsec-test-'));
    url = path.join(dir, 'orgsec.sqlite');
    db = openDatabase(url, { sqliteFastPaths });
    cleanup = async () => {
      await db.close();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  if (options.migrate !== false) await migrateLatest(db);
  return { ...db, url, destroy: cleanup };
}
