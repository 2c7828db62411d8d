import fs from 'node:fs';
import type { Knex } from 'knex';

// SQLite's own verdict on a database file after a crash.

/** `PRAGMA integrity_check` (every page, index and constraint) and `foreign_key_check`; empty when sound. */
export async function sqliteIntegrityProblems(knex: Knex): Promise<string[]> {
  const integrity: Array<{ integrity_check: string }> = await knex.raw('PRAGMA integrity_check');
  const orphans: unknown[] = await knex.raw('PRAGMA foreign_key_check');
  const problems = integrity.map((row) => row.integrity_check).filter((verdict) => verdict !== 'ok').map((verdict) => `integrity_check: ${verdict}`);
  if (orphans.length > 0) problems.push(`foreign_key_check: ${JSON.stringify(orphans)}`);
  return problems;
}

/** Size of the write-ahead log beside the database file (0 when there is none). */
export function walBytes(databaseFile: string): number {
  try {
    return fs.statSync(`${databaseFile}-wal`).size;
  } catch {
    return 0;
  }
}
