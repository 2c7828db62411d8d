import { BadRequestError, UnavailableError } from '../errors/domain';

// Driver errors by code, never by message, translated once for both doors.

/**
 * A value the database refuses as data (PostgreSQL SQLSTATE class 22: a NUL byte in
 * text, a number out of range). SQLite stores such values, so only PostgreSQL raises it.
 * Inputs are validated before they reach SQL; this is the safety net that keeps a
 * validation gap a 400 rather than a 500.
 */
function isInvalidValueError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

/** What a client is told to wait before retrying a request the database could not serve. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The 503 for a database fault, saying what is wrong in words a client can act on (no driver detail). */
function unavailable(error: unknown): UnavailableError {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const wait = `try again in ${DATABASE_RETRY_AFTER_SECONDS} seconds`;
  if (code.startsWith('SQLITE_FULL') || code === '53100') return new UnavailableError(`The database has no space left for this change: ${wait}.`, DATABASE_RETRY_AFTER_SECONDS);
  if (code.startsWith('SQLITE_READONLY')) return new UnavailableError(`The database is read-only at the moment: ${wait}.`, DATABASE_RETRY_AFTER_SECONDS);
  return new UnavailableError(`The database is unavailable: ${wait}.`, DATABASE_RETRY_AFTER_SECONDS);
}

/**
 * A driver error as the domain error both doors render (the REST error middleware and
 * GraphQL's formatError): a value the database refuses is the caller's (400); a fault of the
 * database is a 503 with Retry-After (its transaction is rolled back whole, or, when the
 * connection was lost at its COMMIT, was committed whole). Anything else is answered as it came.
 */
export function translateDriverError(error: unknown): unknown {
  if (isInvalidValueError(error)) return new BadRequestError('The request contains a value that cannot be stored or compared.');
  if (isDatabaseFault(error)) return unavailable(error);
  return error;
}

/**
 * A failure of the database rather than of the work run over it (connection lost, server
 * shutting down, disk full, busy): the snapshot worker counts none against a snapshot, which
 * waits for the database to come back. Those that carry no code (pg's lost connection, and
 * its client refusing statements after one, as a transaction's ROLLBACK does; knex's pool
 * timeout) are told by message.
 */
export function isDatabaseFault(error: unknown): boolean {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  return /^(08|53|57P)/.test(code) || /^(ECONN|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_)/.test(code) || /^SQLITE_(BUSY|FULL|IOERR|LOCKED|CANTOPEN|READONLY)/.test(code)
    || (error instanceof Error && /Connection terminated|is not queryable|timeout acquiring a connection/i.test(error.message));
}
