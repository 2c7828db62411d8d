import type { Database } from '../../src/database/connection';

/**
 * Records the SQL of every statement `db` runs until `stop()`: knex's query events and the
 * statements run past knex (the SQLite data-version read, src/database/data-version.ts).
 */
export function recordStatements(db: Database): { sql: string[]; stop(): void } {
  const sql: string[] = [];
  const onQuery = (query: { sql: string }) => sql.push(query.sql);
  const onDirect = (statement: { sql: string }) => sql.push(statement.sql);
  db.knex.on('query', onQuery);
  db.directStatementListeners.add(onDirect);
  return {
    sql,
    stop() {
      db.knex.off('query', onQuery);
      db.directStatementListeners.delete(onDirect);
    },
  };
}
