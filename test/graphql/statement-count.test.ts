import { BENCH_TOKEN, generateWorld } from '../bench/generate-world';
import { dashboardQuery } from '../bench/scenarios';
import { gql } from '../helpers/graphql';
import { recordStatements } from '../helpers/statements';
import { createTestApp, type TestApp } from '../helpers/test-app';

// The benchmark's dashboard query (test/bench/scenarios.ts), every field, costs the same number of
// SQL statements whatever its page size: each relation is loaded once per page, never per alert.

const DASHBOARD = dashboardQuery('$first');

/**
 * The benchmark's world, smaller: 120 alerts in bench-org-0 over 20 repositories, about half
 * of them dismissed by its owner, the others assigned: every page, even of one alert, refers
 * to users (a page that refers to none needs no statement for them).
 */
function world() {
  const generated = generateWorld({ organizations: 2, repositoriesPerOrganization: 20, alerts: 360, advisories: 30 });
  const alerts = generated.alerts.map((alert, i) => (i % 2 === 0
    ? { ...alert, state: 'dismissed', dismissed_at: '2026-03-01T00:00:00Z', dismissed_by: 'bench-owner', dismissed_reason: 'tolerable_risk' }
    : { ...alert, assignees: ['bench-dev'] }));
  return { ...generated, alerts };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world());
});
afterAll(() => t.close());

/**
 * A write to a table answers are built from moves the data versions (the data_versions
 * migration), so every cache (tokens, advisories, repositories, users) starts empty.
 */
async function forgetCaches(): Promise<void> {
  await t.db.knex('accounts').where('login', 'bench-dev').update({ login: 'bench-dev' });
}

async function statementsFor(first: number, query = DASHBOARD): Promise<number> {
  const statements = recordStatements(t.db);
  try {
    const res = await gql(t, query, { token: BENCH_TOKEN, variables: { first } });
    expect(res.errors).toBeUndefined();
    const edges = res.data.organization.dependencyAlerts.edges;
    expect(edges).toHaveLength(first);
    if (first > 4) expect(edges.some((e: { node: { dismissedBy: unknown } }) => e.node.dismissedBy !== null)).toBe(true);
  } finally {
    statements.stop();
  }
  return statements.sql.length;
}

async function coldStatementsFor(first: number): Promise<number> {
  await forgetCaches();
  return statementsFor(first);
}

it('the dashboard query issues as many SQL statements for 1 alert as for 10 and for 100, with every cache empty', async () => {
  const [one, ten, hundred] = [await coldStatementsFor(1), await coldStatementsFor(10), await coldStatementsFor(100)];
  expect({ ten, hundred }).toEqual({ ten: one, hundred: one });
  // The data versions, the token, the organization (twice: the query, then the service's own
  // check), its membership, the page's ids, its alerts, its count, advisories, their
  // vulnerabilities, assignees, repositories, users.
  expect(one).toBeLessThanOrEqual(13);
});

it('and as many again once what alerts refer to is cached', async () => {
  await forgetCaches();
  const cold = await statementsFor(1, `${DASHBOARD} # cold`);
  // Another text: the response itself is not cached for the query measured (cached-responses.test.ts).
  await statementsFor(100, `${DASHBOARD} # warm-up`);
  const [one, ten, hundred] = [await statementsFor(1), await statementsFor(10), await statementsFor(100)];
  expect({ ten, hundred }).toEqual({ ten: one, hundred: one });
  // The resolvers' services are bound to the request's versions (composition.ts `at`): their caches answer, fewer statements.
  expect(one).toBeLessThan(cold);
});
