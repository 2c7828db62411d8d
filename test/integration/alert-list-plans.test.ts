import type { Knex } from 'knex';
import { AdvisoryLookupStore } from '../../src/modules/advisories/advisories.lookup-store';
import { AlertsStore } from '../../src/modules/dependency-alerts/alerts.store';
import type { AlertFilters, AlertListRequest, AlertScope, AlertSort, AlertVisibility } from '../../src/modules/dependency-alerts/alerts.types';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The query plans of alert lists (issue 35): every filter, sort, direction and scope, as the
// store builds it (its statements captured, then explained), reads an index in the list's
// order: no table scanned and no sort of every matching row, so a page's cost follows the
// page, not the world. An enterprise's list is one statement per organization, each a page
// of its range (keyset.ts merges them). PostgreSQL plans a tiny table by scanning it, so it is asked with scans
// and sorts priced out (enable_seqscan, enable_sort off): a plan that still scans or sorts has
// no index to do otherwise.

const FILTERS: Record<string, AlertFilters> = {
  none: {},
  state: { state: ['open', 'dismissed'] },
  severity: { severity: ['high', 'critical'] },
  classification: { classification: ['malware'] },
  ecosystem: { ecosystem: ['npm'] },
  package: { package: ['lodash'] },
  manifest: { manifest: ['package-lock.json'] },
  relationship: { relationship: ['direct'] },
  scope: { scope: 'runtime' },
  'epss above': { epssPercentage: { op: '>', value: 0.5 } },
  'epss between': { epssPercentage: { op: 'between', from: 0.1, to: 0.9 } },
  'has patch': { hasPatch: true },
  'has deployment': { hasDeployment: true },
  'any assignee': { assignee: { kind: 'any' } },
  'no assignee': { assignee: { kind: 'none' } },
  'assignee logins': { assignee: { kind: 'logins', logins: ['octocat'] } },
  'artifact registry': { artifactRegistryUrl: ['https://registry.example'], artifactRegistry: ['jfrog'] },
  'runtime risk': { runtimeRisk: ['internet-exposed'] },
  'everything at once': { state: ['open'], severity: ['high'], ecosystem: ['npm'], scope: 'runtime', hasPatch: true, epssPercentage: { op: '>=', value: 0.2 } },
};
const SORTS: AlertSort[] = ['created', 'updated', 'epss_percentage'];
const SCOPES: Record<string, AlertScope> = { organization: { kind: 'owners', ownerIds: [7] }, enterprise: { kind: 'owners', ownerIds: [7, 8, 9] }, repository: { kind: 'repo', repoId: 3 } };
const VISIBILITIES: Record<string, AlertVisibility> = {
  'every repository': { publicOnly: false, repositoryIds: 'all' },
  'selected repositories': { publicOnly: false, repositoryIds: new Set([3, 4]) },
  'public only': { publicOnly: true, repositoryIds: 'all' },
};

let db: TestDatabase;
const store = new AlertsStore({ advisories: new AdvisoryLookupStore() });

beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.destroy());

/** The statements the store runs for one page (and its total) of this list. */
async function statementsOf(scope: AlertScope, visibility: AlertVisibility, request: AlertListRequest): Promise<Array<{ sql: string; bindings: unknown[] }>> {
  const captured: Array<{ sql: string; bindings: unknown[] }> = [];
  const listen = (query: { sql: string; bindings?: unknown[] }) => captured.push({ sql: query.sql, bindings: query.bindings ?? [] });
  db.knex.on('query', listen);
  try {
    await store.listKeys(db.knex, scope, visibility, request);
  } finally {
    db.knex.off('query', listen);
  }
  return captured.filter((statement) => statement.sql.includes('dependency_alerts'));
}

/** What in a statement's plan reads more than the page: scans, and sorts of every matching row. */
async function planProblems(statement: { sql: string; bindings: unknown[] }): Promise<string[]> {
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

const cases = Object.entries(SCOPES).flatMap(([scopeName, scope]) => Object.entries(FILTERS).flatMap(([filterName, filters]) => SORTS.flatMap((sort) => (
  (['desc', 'asc'] as const).map((direction) => ({ scopeName, scope, filterName, filters, sort, direction }))
))));
async function expectPageFromIndex(scope: AlertScope, visibility: AlertVisibility, request: AlertListRequest): Promise<void> {
  const statements = await statementsOf(scope, visibility, request);
  expect(statements.length).toBeGreaterThan(0);
  for (const statement of statements) expect({ sql: statement.sql, problems: await planProblems(statement) }).toEqual({ sql: statement.sql, problems: [] });
}

describe.each(Object.entries(VISIBILITIES))('alert lists a caller sees %s of', (_visibilityName, visibility) => {
  it.each(cases)('$scopeName, filter $filterName, by $sort $direction: read from an index in the list\'s order', async ({ scope, filters, sort, direction }) => {
    await expectPageFromIndex(scope, visibility, { filters, sort, direction, perPage: 30 });
  });
});
