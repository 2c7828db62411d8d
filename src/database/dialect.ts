// Every difference between SQLite and PostgreSQL that the code relies on is named here.
import { types as pgTypes } from 'pg';

export type Dialect = 'sqlite' | 'postgres';

export function dialectOf(databaseUrl: string): Dialect {
  return /^postgres(ql)?:\/\//.test(databaseUrl) ? 'postgres' : 'sqlite';
}

// PostgreSQL returns int8 (COUNT(*), bigint sums) as strings; our counts fit in a double.
pgTypes.setTypeParser(20, (value) => Number.parseInt(value, 10));

/** SQLite stores booleans as 0/1; PostgreSQL returns real booleans. */
export function toBoolean(value: unknown): boolean {
  return value === true || value === 1 || value === '1';
}

/** Unique-key violations, by driver code (never by message). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/** SQLite pragmas applied to every connection: durability and concurrency settings. */
export const SQLITE_PRAGMAS = ['journal_mode = WAL', 'synchronous = NORMAL', 'foreign_keys = ON', 'busy_timeout = 5000'];
