import crypto from 'node:crypto';
import type { Database } from './connection';

/**
 * The database's two write counters (see the data_versions migration): `data` moves with
 * every committed write to a table answers are built from, `world` with every write to the
 * tables cached fragments are built from. Equal counters mean equal data, in every
 * instance over the same database: that is what makes in-process caches safe.
 */
export interface DataVersions {
  data: number;
  world: number;
}

const SQL = 'select data, world from data_versions where id = 1';

interface PreparedConnection {
  prepare(sql: string): { get(): unknown };
}

/**
 * Reads the counters once per request. On SQLite it runs one prepared statement on the
 * pool's connection, skipping the query builder (a request answered from cache costs
 * little else); it still announces itself through knex's query events, so statement
 * counts and metrics see every statement.
 */
export class DataVersionReader {
  private readonly statements = new WeakMap<object, { get(): unknown }>();

  constructor(private readonly database: Database) {}

  async read(): Promise<DataVersions> {
    const { knex, dialect } = this.database;
    if (dialect === 'postgres') return toVersions(await knex('data_versions').where('id', 1).first('data', 'world'));
    const client = knex.client as { acquireConnection(): Promise<PreparedConnection>; releaseConnection(c: PreparedConnection): Promise<void> };
    const connection = await client.acquireConnection();
    const event = { __knexQueryUid: crypto.randomUUID(), method: 'first', sql: SQL, bindings: [] };
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
    } finally {
      await client.releaseConnection(connection);
    }
  }
}

function toVersions(row: unknown): DataVersions {
  const r = row as { data: number | string; world: number | string } | undefined;
  if (!r) throw new Error('data_versions has no row: run the migrations');
  return { data: Number(r.data), world: Number(r.world) };
}
