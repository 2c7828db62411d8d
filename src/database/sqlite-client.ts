import { LRUCache } from 'lru-cache';
// knex's own better-sqlite3 client, to extend (knex accepts a client class in its config).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const BetterSqliteClient: new (config: unknown) => object = require('knex/lib/dialects/better-sqlite3');

interface Statement {
  reader: boolean;
  all(bindings: unknown[]): unknown[];
  run(bindings: unknown[]): { lastInsertRowid: number | bigint; changes: number };
}
interface Connection {
  prepare(sql: string): Statement;
}
interface QueryObject {
  sql: string;
  bindings?: unknown[];
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}

const STATEMENTS_PER_CONNECTION = 500;
// By connection, outside the client: knex's transactions run on copies of the client
// made from its prototype, without its instance fields.
const statementsOf = new WeakMap<Connection, LRUCache<string, Statement>>();

/**
 * knex's better-sqlite3 client, keeping each connection's prepared statements by SQL text:
 * knex prepares every statement again on every run, which costs about as much as running
 * a small query. SQLite re-prepares a kept statement by itself after a schema change.
 */
export class PreparedSqliteClient extends (BetterSqliteClient as new (config: unknown) => {
  _formatBindings(bindings: unknown[] | undefined): unknown[];
}) {
  async _query(connection: Connection, obj: QueryObject): Promise<QueryObject> {
    if (!obj.sql) throw new Error('The query is empty');
    if (!connection) throw new Error('No connection provided');
    const statement = this.prepared(connection, obj.sql);
    const bindings = this._formatBindings(obj.bindings);
    if (statement.reader) {
      obj.response = statement.all(bindings);
      return obj;
    }
    const response = statement.run(bindings);
    obj.response = response;
    obj.context = { lastID: response.lastInsertRowid, changes: response.changes };
    return obj;
  }

  private prepared(connection: Connection, sql: string): Statement {
    let cache = statementsOf.get(connection);
    if (!cache) statementsOf.set(connection, (cache = new LRUCache<string, Statement>({ max: STATEMENTS_PER_CONNECTION })));
    let statement = cache.get(sql);
    if (!statement) cache.set(sql, (statement = connection.prepare(sql)));
    return statement;
  }
}
