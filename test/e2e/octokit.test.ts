import { DEFAULT_RATE_LIMIT_POLICY } from '../../src/rate-limits/rate-limit.policy';
import { API_VERSION } from '../../src/http/api-version';
import { loadOctokit, orgsecClient, type OctokitClasses } from '../helpers/octokit';
import { DEMO_OWNER_TOKEN, DEMO_SUBJECT_DIGEST, OPERATIONS, demoWorld, recordDemoDeliveries } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { withoutIssueMarks } from '../helpers/document-marks';

// Issue 9: a real client. @octokit/core with its paginate, throttling and retry plugins,
// changed only in baseUrl and the version header, drives a running orgsec.

const ORG = 'acme-corp';
let octokit: OctokitClasses;
let t: TestApp;

beforeAll(async () => {
  octokit = await loadOctokit();
  t = await createTestApp();
});
afterAll(() => t.close());

const client = (token: string | undefined = DEMO_OWNER_TOKEN) => orgsecClient(octokit.Paginating, t.url, token);
/** The HTTP error Octokit throws, or a failure if the request succeeded. */
async function failure(request: Promise<unknown>): Promise<{ name: string; status: number; message: string; data: any; headers: Record<string, string> }> {
  try {
    await request;
  } catch (error: any) {
    return { name: error.name, status: error.status, message: error.message, data: error.response?.data, headers: error.response?.headers ?? {} };
  }
  throw new Error('the request succeeded');
}

describe('every operation through octokit.request', () => {
  beforeAll(async () => {
    await t.services.world.load(demoWorld(), { replace: true });
    await recordDemoDeliveries(t.db.knex);
  });

  // In the spec's order: each write's sample is valid in the world its predecessors leave.
  it.each(OPERATIONS.map((op) => [`#${op.number} ${op.method} ${op.path}`, op] as const))('%s', async (_title, op) => {
    const params = { ...op.sample.params, ...op.sample.query, ...(op.sample.body ?? {}) };
    const answer = await client().request(`${op.method} ${op.path}`, params);
    expect(op.success).toContain(answer.status);
    expect(answer.headers['x-service-api-version-selected']).toBe(API_VERSION);
    if (op.method === 'GET') {
      // What Octokit parsed is exactly what the API sent.
      const path = new URL(answer.url).pathname + new URL(answer.url).search;
      const raw = await t.http().get(path).set(bearer(DEMO_OWNER_TOKEN));
      expect(withoutIssueMarks(answer.data)).toEqual(withoutIssueMarks(raw.body));
    }
  });
});

describe('octokit.paginate follows every list to its end', () => {
  beforeAll(() => t.services.world.load(demoWorld(), { replace: true }));
  const knex = () => t.db.knex;
  const alertKeys = (alerts: Array<{ number: number; repository?: { name: string }; url: string }>) =>
    alerts.map((a) => `${new URL(a.url).pathname.split('/')[5]}#${a.number}`).sort();
  const expectNoDuplicates = (keys: string[]) => expect(new Set(keys).size).toBe(keys.length);

  it('#24 organization alerts, one per page, with a filter', async () => {
    const alerts = await client().paginate('GET /orgs/{org}/dependency-bot/alerts', { org: ORG, per_page: 1, state: 'open' });
    const stored = await knex()('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id').join('accounts as o', 'o.id', 'r.owner_id')
      .where({ 'o.login': ORG, 'a.state': 'open' }).select('r.name', 'a.number');
    expect(stored.length).toBeGreaterThan(1);
    expectNoDuplicates(alertKeys(alerts));
    expect(alertKeys(alerts)).toEqual(stored.map((s) => `${s.name}#${s.number}`).sort());
  });

  it('#23 enterprise alerts and #25 repository alerts, one per page', async () => {
    const enterprise = await client().paginate('GET /enterprises/{enterprise}/dependency-bot/alerts', { enterprise: 'acme', per_page: 1 });
    const inEnterprise = await knex()('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id')
      .join('organizations as org', 'org.account_id', 'r.owner_id').join('enterprises as e', 'e.id', 'org.enterprise_id')
      .where('e.slug', 'acme').select('r.name', 'a.number');
    expect(alertKeys(enterprise)).toEqual(inEnterprise.map((s) => `${s.name}#${s.number}`).sort());

    const repo = await client().paginate('GET /repos/{owner}/{repo}/dependency-bot/alerts', { owner: ORG, repo: 'api', per_page: 1 });
    const inRepo = await knex()('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id').where('r.name', 'api').select('a.number');
    expect(repo.map((a: { number: number }) => a.number).sort()).toEqual(inRepo.map((s) => s.number).sort());
  });

  it('#22 attestations, with the documented map function', async () => {
    const attestations = await client().paginate(
      'GET /repos/{owner}/{repo}/attestations/{subject_digest}',
      { owner: ORG, repo: 'web', subject_digest: DEMO_SUBJECT_DIGEST, per_page: 1 },
      (response: { data: { attestations: unknown[] } }) => response.data.attestations,
    );
    const stored = await knex()('attestation_subjects').where('digest', DEMO_SUBJECT_DIGEST).count({ n: '*' }).first();
    expect(attestations).toHaveLength(Number(stored!.n));
    expect(attestations.length).toBeGreaterThan(0);
  });

  it('#9 and #10 role holders, one per page', async () => {
    const org = await knex()('accounts').where('login', ORG).first('id');
    const role = await knex()('organization_role_teams').where('org_id', org.id).select('role_id').groupBy('role_id').orderByRaw('count(*) desc').first();
    const params = { org: ORG, role_id: role!.role_id };
    // Direct holders are rows; teams and users holding it through a parent team are computed.
    const holdsDirectly = (h: { assignment: string }) => h.assignment === 'direct' || h.assignment === 'mixed';
    for (const team_slug of ['platform', 'security']) {
      await client().request('PUT /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}', { ...params, team_slug });
    }
    const teams = await client().paginate('GET /orgs/{org}/organization-roles/{role_id}/teams', { ...params, per_page: 1 });
    const onePageOfTeams = await client().request('GET /orgs/{org}/organization-roles/{role_id}/teams', { ...params, per_page: 100 });
    expect(teams.length).toBeGreaterThan(1);
    expect(teams).toEqual(onePageOfTeams.data);
    const directTeams = await knex()('organization_role_teams as a').join('teams as t', 't.id', 'a.team_id').where({ 'a.org_id': org.id, 'a.role_id': role!.role_id }).pluck('t.slug');
    expect(teams.filter(holdsDirectly).map((team: { slug: string }) => team.slug).sort()).toEqual([...directTeams].sort());

    for (const username of ['bob', 'carol', 'erin']) {
      await client().request('PUT /orgs/{org}/organization-roles/users/{username}/{role_id}', { ...params, username });
    }
    const users = await client().paginate('GET /orgs/{org}/organization-roles/{role_id}/users', { ...params, per_page: 1 });
    const onePageOfUsers = await client().request('GET /orgs/{org}/organization-roles/{role_id}/users', { ...params, per_page: 100 });
    expect(users.length).toBeGreaterThan(1);
    expect(users).toEqual(onePageOfUsers.data);
    const directUsers = await knex()('organization_role_users as a').join('accounts as u', 'u.id', 'a.user_id').where({ 'a.org_id': org.id, 'a.role_id': role!.role_id }).pluck('u.login');
    expect(users.filter(holdsDirectly).map((u: { login: string }) => u.login).sort()).toEqual([...directUsers].sort());
  });
});

describe('errors as Octokit renders them', () => {
  beforeAll(() => t.services.world.load(demoWorld(), { replace: true }));

  it('401, 403, 404, 409 and 422 arrive as HttpError with status, message and the error body', async () => {
    const roles = 'GET /orgs/{org}/organization-roles';
    const alert = 'PATCH /repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}';
    const dismiss = { owner: ORG, repo: 'api', alert_number: 1, state: 'dismissed', dismissed_reason: 'tolerable_risk' };
    await client().request(alert, dismiss);
    const cases = [
      [401, await failure(client('osp_not_a_real_token').request(roles, { org: ORG })), /Bad credentials/],
      [403, await failure(client('svc_demo_alice_oauth').request(roles, { org: ORG })), /./],
      [404, await failure(client().request(roles, { org: 'no-such-org' })), /Not Found/],
      [409, await failure(client().request(alert, dismiss)), /already dismissed/],
      [422, await failure(client().request(alert, { owner: ORG, repo: 'api', alert_number: 1, number: 9 })), /./],
    ] as const;
    for (const [status, error, message] of cases) {
      expect({ status: error.status, name: error.name }).toEqual({ status, name: 'HttpError' });
      expect(error.message).toMatch(message);
      expect(error.data).toEqual(expect.objectContaining({ message: expect.any(String), documentation_url: expect.any(String), status: String(status) }));
    }
    expect(cases[1][1].headers['x-accepted-oauth-scopes']).toContain('admin:org');
  });

  it('a conditional request with the ETag answers 304', async () => {
    const first = await client().request('GET /orgs/{org}/organization-roles', { org: ORG });
    const notModified = await failure(client().request('GET /orgs/{org}/organization-roles', { org: ORG, headers: { 'if-none-match': first.headers.etag } }));
    expect(notModified.status).toBe(304);
  });
});

describe('the throttling plugin backs off on orgsec\'s rate-limit answers', () => {
  let limited: TestApp;
  afterEach(() => limited?.close());
  const start = async (overrides: Partial<typeof DEFAULT_RATE_LIMIT_POLICY>) => {
    limited = await createTestApp({ rateLimits: { ...DEFAULT_RATE_LIMIT_POLICY, ...overrides } });
    await limited.load(demoWorld());
  };

  it('a write burst over the limit (429 "secondary rate limit") is retried after retry-after, and every write lands', async () => {
    await start({ writeLimit: 1, writeWindowSeconds: 2, spammedStatus: 429 });
    const waits: number[] = [];
    const throttled = orgsecClient(octokit.Throttled, limited.url, DEMO_OWNER_TOKEN, {
      throttle: {
        onRateLimit: () => false,
        onSecondaryRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) => {
          waits.push(retryAfter);
          return retryCount < 3;
        },
      },
    });
    const users = ['bob', 'carol', 'erin']; // acme-corp's members
    const answers = await Promise.all(users.map((username) =>
      throttled.request('PUT /orgs/{org}/organization-roles/users/{username}/{role_id}', { org: ORG, username, role_id: 8132 })));
    expect(answers.map((a: { status: number }) => a.status)).toEqual(users.map(() => 204));
    expect(waits.length).toBeGreaterThan(0);
    for (const wait of waits) expect(wait).toBeGreaterThanOrEqual(1), expect(wait).toBeLessThanOrEqual(2);
    const holders = await limited.db.knex('organization_role_users as a').join('accounts as u', 'u.id', 'a.user_id').where('a.role_id', 8132).pluck('u.login');
    expect(holders).toEqual(expect.arrayContaining(users));
  }, 20_000);

  it('a spent budget (429, x-ratelimit-remaining 0) reaches onRateLimit with the time to the reset', async () => {
    await start({ authenticatedLimit: 2 });
    const calls: number[] = [];
    const throttled = orgsecClient(octokit.Throttled, limited.url, DEMO_OWNER_TOKEN, {
      throttle: { onRateLimit: (retryAfter: number) => { calls.push(retryAfter); return false; }, onSecondaryRateLimit: () => false },
      retry: { enabled: false },
    });
    const read = () => throttled.request('GET /orgs/{org}/organization-roles', { org: ORG });
    await read();
    await read();
    const refused = await failure(read());
    expect(refused.status).toBe(429);
    expect(refused.headers['x-ratelimit-remaining']).toBe('0');
    expect(calls).toHaveLength(1);
    const reset = Number(refused.headers['x-ratelimit-reset']);
    expect(Math.abs(calls[0]! - (reset - Date.now() / 1000))).toBeLessThan(5);
  });
});
