import type { Knex } from 'knex';

// Statements a bulk load runs thousands of times with the same text. knex prepares every
// query anew; SQLite takes ~8 ms to prepare a 1,000-row insert, more than running it, so on
// SQLite the statement is prepared once per connection and reused. PostgreSQL goes through knex.

type Row = Record<string, any>;

interface SqliteStatement {
  reader: boolean;
  all(bindings: unknown[]): Row[];
  run(bindings: unknown[]): unknown;
}

interface SqliteConnection {
  prepare(sql: string): SqliteStatement;
}

const MAX_CACHED = 64;
const prepared = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();

function statementFor(connection: SqliteConnection, sql: string): SqliteStatement {
  let statements = prepared.get(connection);
  if (!statements) prepared.set(connection, (statements = new Map()));
  let statement = statements.get(sql);
  if (!statement) {
    if (statements.size >= MAX_CACHED) statements.clear();
    statements.set(sql, (statement = connection.prepare(sql)));
  }
  return statement;
}

/** Runs `sql` (with `?` placeholders) in the transaction; answers the rows it returns. */
export async function runRepeated(trx: Knex.Transaction, sql: string, bindings: readonly unknown[]): Promise<Row[]> {
  if (trx.client.config.client === 'pg') {
    const result = await trx.raw(sql, bindings as Knex.RawBinding[]);
    return (result as { rows: Row[] }).rows;
  }
  // The transaction's own connection: knex hands it out without acquiring another.
  const connection: SqliteConnection = await trx.client.acquireConnection();
  const statement = statementFor(connection, sql);
  // better-sqlite3 binds no booleans; knex would have turned them into 0/1 too.
  const values = bindings.map((b) => (typeof b === 'boolean' ? Number(b) : b));
  if (statement.reader) return statement.all(values);
  statement.run(values);
  return [];
}
