import type { Knex } from 'knex';
import type { TestDatabase } from './test-database';

// What a statement's plan reads beyond what it answers, on either dialect: table scans, and
// sorts of every matching row. PostgreSQL plans a tiny table by scanning it, so it is asked
// with scans and sorts priced out (enable_seqscan, enable_sort off): a plan that still scans
// or sorts has no index to do otherwise.

export interface Statement { sql: string; bindings: unknown[] }

/** The statements `run` sends through `knex`. */
export async function statementsOf(knex: Knex, run: () => Promise<unknown>): Promise<Statement[]> {
  const captured: Statement[] = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) => captured.push({ sql: query.sql, bindings: query.bindings ?? [] });
  knex.on('query', listen);
  try {
    await run();
  } finally {
    knex.off('query', listen);
  }
  return captured;
}

export async function planProblems(db: TestDatabase, statement: Statement): Promise<string[]> {
  if (db.dialect === 'sqlite') {
    const rows: Array<{ detail: string }> = await db.knex.raw(`EXPLAIN QUERY PLAN ${statement.sql}`, statement.bindings as Knex.RawBinding[]);
    return rows.map((row) => row.detail).filter((detail) => /^SCAN /.test(detail) || /TEMP B-TREE/.test(detail));
  }
  return db.knex.transaction(async (trx) => {
    await trx.raw('SET LOCAL enable_seqscan = off');
    await trx.raw('SET LOCAL enable_sort = off');
    // knex reports PostgreSQL's statements with $n placeholders, in binding order.
    const result = await trx.raw(`EXPLAIN (FORMAT JSON) ${statement.sql.replace(/\$\d+/g, '?')}`, statement.bindings as Knex.RawBinding[]);
    const problems: string[] = [];
    const visit = (node: { 'Node Type': string; 'Relation Name'?: string; 'Sort Key'?: string[]; Plans?: unknown[] }) => {
      if (node['Node Type'] === 'Seq Scan') problems.push(`Seq Scan on ${node['Relation Name']}`);
      if (node['Node Type'] === 'Sort') problems.push(`Sort by ${node['Sort Key']?.join(', ')}`);
      for (const child of node.Plans ?? []) visit(child as typeof node);
    };
    visit(result.rows[0]['QUERY PLAN'][0].Plan);
    return problems;
  });
}
