import { AdvisoryLookupStore } from '../../src/modules/advisories/advisories.lookup-store';
import { AlertsStore } from '../../src/modules/dependency-alerts/alerts.store';
import type { AlertFilters, AlertListRequest, AlertScope, AlertSort, AlertVisibility } from '../../src/modules/dependency-alerts/alerts.types';
import { planProblems, statementsOf, type Statement } from '../helpers/query-plans';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The query plans of alert lists (issue 35): every filter, sort, direction and scope, as the
// store builds it (its statements captured, then explained), reads an index in the list's
// order: no table scanned and no sort of every matching row, so a page's cost follows the
// page, not the world. An enterprise's list is one statement per organization, each a page
// of its range (keyset.ts merges them). helpers/query-plans.ts says how a plan is judged.

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
async function listStatements(scope: AlertScope, visibility: AlertVisibility, request: AlertListRequest): Promise<Statement[]> {
  const statements = await statementsOf(db.knex, () => store.listKeys(db.knex, scope, visibility, request));
  return statements.filter((statement) => statement.sql.includes('dependency_alerts'));
}

const cases = Object.entries(SCOPES).flatMap(([scopeName, scope]) => Object.entries(FILTERS).flatMap(([filterName, filters]) => SORTS.flatMap((sort) => (
  (['desc', 'asc'] as const).map((direction) => ({ scopeName, scope, filterName, filters, sort, direction }))
))));
async function expectPageFromIndex(scope: AlertScope, visibility: AlertVisibility, request: AlertListRequest): Promise<void> {
  const statements = await listStatements(scope, visibility, request);
  expect(statements.length).toBeGreaterThan(0);
  for (const statement of statements) expect({ sql: statement.sql, problems: await planProblems(db, statement) }).toEqual({ sql: statement.sql, problems: [] });
}

describe.each(Object.entries(VISIBILITIES))('alert lists a caller sees %s of', (_visibilityName, visibility) => {
  it.each(cases)('$scopeName, filter $filterName, by $sort $direction: read from an index in the list\'s order', async ({ scope, filters, sort, direction }) => {
    await expectPageFromIndex(scope, visibility, { filters, sort, direction, perPage: 30 });
  });
});
