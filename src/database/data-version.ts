import crypto from 'node:crypto';
import type { Database } from './connection';

/**
 * The database's two write counters (see the data_versions migration): `data` moves with
 * every committed write to a table answers are built from, `reference` with every write to the
 * tables of the records alerts refer to (accounts, repositories, advisories), which cached
 * fragments are built from. Equal counters mean equal data, in every
 * instance over the same database: that is what makes in-process caches safe.
 */
export interface DataVersions {
  data: number;
  reference: number;
}

const SQL = 'select data, reference from data_versions where id = 1';

interface PreparedConnection {
  prepare(sql: string): { get(): unknown };
}

/**
 * Reads the counters once per request. On SQLite it runs one prepared statement on the
 * pool's connection, skipping the query builder and, when the connection is idle, the pool
 * (a request answered from cache costs little else); it still announces itself through
 * knex's query events, so statement counts and metrics see every statement.
 */
export class DataVersionReader {
  private readonly statements = new WeakMap<object, { get(): unknown }>();
  /** Names this reader's query events apart from any other's (knex's own ids are UUIDs). */
  private readonly id = crypto.randomUUID();
  private reads = 0;

  constructor(private readonly database: Database) {}

  async read(): Promise<DataVersions> {
    const { knex, dialect } = this.database;
    if (dialect === 'postgres') return toVersions(await knex('data_versions').where('id', 1).first('data', 'reference'));
    const client = knex.client as SqliteClient;
    // The one connection, when nobody holds it (so no transaction is open on it): read at
    // once, synchronously, so nobody can take it in between. Otherwise wait for it.
    const idle = client.pool && client.pool.numUsed() === 0 ? client.pool.free[0]?.resource : undefined;
    if (idle) return this.readOn(idle);
    const connection = await client.acquireConnection();
    try {
      return this.readOn(connection);
    } finally {
      await client.releaseConnection(connection);
    }
  }

  private readOn(connection: PreparedConnection): DataVersions {
    const { knex } = this.database;
    const event = { __knexQueryUid: `${this.id}-${++this.reads}`, method: 'first', sql: SQL, bindings: [] };
    knex.emit('query', event);
    try {
      let statement = this.statements.get(connection);
      if (!statement) this.statements.set(connection, (statement = connection.prepare(SQL)));
      const row = statement.get();
      knex.emit('query-response', row, event);
      return toVersions(row);
    } catch (error) {
      knex.emit('query-error', error, event);
      throw error;
    }
  }
}

/** What this module uses of knex's SQLite client and its pool (tarn). */
interface SqliteClient {
  acquireConnection(): Promise<PreparedConnection>;
  releaseConnection(connection: PreparedConnection): Promise<void>;
  pool?: { numUsed(): number; free: Array<{ resource: PreparedConnection }> };
}

function toVersions(row: unknown): DataVersions {
  const r = row as { data: number | string; reference: number | string } | undefined;
  if (!r) throw new Error('data_versions has no row: run the migrations');
  return { data: Number(r.data), reference: Number(r.reference) };
}
