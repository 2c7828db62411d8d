// The settings every SQLite connection runs with, read back after they are set: a setting
// SQLite silently refuses (WAL on an in-memory database or a filesystem without shared
// memory) would otherwise weaken durability or concurrency without anyone noticing.
//
// Durability: WAL with synchronous=NORMAL. A transaction's pages are written to the WAL
// file (handed to the operating system) before COMMIT returns, so every acknowledged write
// survives a crash or SIGKILL of the process. The WAL is fsynced only at checkpoints, so an
// operating-system crash or power loss may roll back the last commits, never half of one
// (the database stays consistent). FULL would fsync at every commit to survive that too.

interface SqlitePragma {
  name: string;
  /** What we set. */
  value: string;
  /** What reading the pragma back must answer. */
  expected: string | number;
}

export const SQLITE_PRAGMAS: readonly SqlitePragma[] = [
  { name: 'journal_mode', value: 'WAL', expected: 'wal' },
  { name: 'synchronous', value: 'NORMAL', expected: 1 },
  { name: 'foreign_keys', value: 'ON', expected: 1 },
  // Several processes over one file wait for each other's write lock rather than fail.
  { name: 'busy_timeout', value: '5000', expected: 5000 },
];

/** The part of a better-sqlite3 connection this module uses. */
export interface PragmaConnection {
  pragma(source: string, options?: { simple?: boolean }): unknown;
}

/** Sets every pragma, reads each back, and throws naming those that did not take. */
export function applySqlitePragmas(conn: PragmaConnection, filename: string): void {
  for (const { name, value } of SQLITE_PRAGMAS) conn.pragma(`${name} = ${value}`);
  const wrong = SQLITE_PRAGMAS.flatMap(({ name, expected }) => {
    const actual = conn.pragma(name, { simple: true });
    return actual === expected ? [] : [`${name} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`];
  });
  if (wrong.length > 0) {
    throw new Error(`SQLite database "${filename}" refused its settings (${wrong.join('; ')}); `
      + 'orgsec will not run without them. WAL needs a database file on a local filesystem.');
  }
}
