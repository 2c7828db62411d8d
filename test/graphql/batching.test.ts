import { createTestApp, type TestApp } from '../helpers/test-app';
import { gql } from '../helpers/graphql';

// Every relation is batched: a dashboard query costs the same number of SQL statements
// whatever the number of alerts it returns.

const REPOS = Array.from({ length: 20 }, (_, i) => `svc-${i}`);
const TOKEN = 'batching_owner_token';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load({
    users: [{ login: 'dash-owner' }, { login: 'dash-dev-1' }, { login: 'dash-dev-2' }],
    organizations: [{ login: 'dash-org', owners: ['dash-owner'], members: ['dash-dev-1', 'dash-dev-2'] }],
    teams: [{ org: 'dash-org', slug: 'devs', members: ['dash-dev-1', 'dash-dev-2'], repositories: REPOS.map((name) => ({ name, permission: 'write' })) }],
    repositories: REPOS.map((name) => ({ owner: 'dash-org', name, private: true })),
    advisories: Array.from({ length: 5 }, (_, i) => ({
      svcsa_id: `SVCSA-DASH-${i}`, summary: `advisory ${i}`, severity: 'high', published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
      identifiers: [{ type: 'SVCSA', value: `SVCSA-DASH-${i}` }],
      vulnerabilities: [{ package: { ecosystem: 'npm', name: `pkg-${i}` }, severity: 'high', vulnerable_version_range: '< 1.0.0', first_patched_version: { identifier: '1.0.0' } }],
    })),
    alerts: Array.from({ length: 100 }, (_, i) => ({
      repository: `dash-org/${REPOS[i % 20]}`, advisory: `SVCSA-DASH-${i % 5}`, package: { ecosystem: 'npm', name: `pkg-${i % 5}` },
      manifest_path: `m${i}/package.json`, created_at: `2026-03-01T00:${String(i % 60).padStart(2, '0')}:00Z`,
      ...(i % 3 === 0
        ? { state: 'dismissed', dismissed_at: '2026-03-02T00:00:00Z', dismissed_by: 'dash-owner', dismissed_reason: 'not_used' }
        : { assignees: i % 2 ? ['dash-dev-1'] : ['dash-dev-1', 'dash-dev-2'] }),
    })),
    tokens: [{ token: TOKEN, type: 'classic', user: 'dash-owner', scopes: ['repo'] }],
  });
});
afterAll(() => t.close());

const DASHBOARD = `query($first: Int!) { organization(login: "dash-org") { dependencyAlerts(first: $first) { totalCount edges { node {
  number state createdAt dismissedAt dismissedBy { login } assignees { login }
  repository { nameWithOwner owner { ... on Organization { login } } }
  securityAdvisory { svcsaId identifiers { type value } vulnerabilities { package { name } firstPatchedVersion } }
} } } } }`;

async function statementsFor(first: number): Promise<number> {
  // A write moves the data versions: the token and reference caches start empty, so both
  // sizes are measured alike (src/database/data-version.ts).
  await t.db.knex('accounts').where('login', 'dash-owner').update({ login: 'dash-owner' });
  let count = 0;
  const listener = () => count++;
  t.db.knex.on('query', listener);
  try {
    const res = await gql(t, DASHBOARD, { token: TOKEN, variables: { first } });
    expect(res.errors).toBeUndefined();
    expect(res.data.organization.dependencyAlerts.edges).toHaveLength(first);
  } finally {
    t.db.knex.removeListener('query', listener);
  }
  return count;
}

it('a dashboard query of 100 alerts across 20 repositories costs no more SQL statements than one of 5', async () => {
  await statementsFor(1); // the token, once known under this data version, is not looked up again
  const small = await statementsFor(5);
  const large = await statementsFor(100);
  expect(large).toBe(small);
  expect(large).toBeLessThanOrEqual(15);
});
