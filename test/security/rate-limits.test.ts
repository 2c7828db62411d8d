import { createApp } from '../../src/app';
import { createServices } from '../../src/composition';
import { openDatabase } from '../../src/database/connection';
import { DEFAULT_RATE_LIMIT_POLICY, type RateLimitPolicy } from '../../src/rate-limits/rate-limit.policy';
import pino from 'pino';
import request from 'supertest';
import { hashTables } from '../helpers/table-hash';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { gql } from '../helpers/graphql';
import { dialect } from '../helpers/test-database';

// Per-caller rate limits, counted in the database: x-ratelimit-* on every answer, the
// spec's "spammed" 422 (or 429) for write bursts, and nothing changed by a refused request.

const ORG = 'rl-org';
const MEMBERS = Array.from({ length: 40 }, (_, i) => `member-${i + 1}`);
const OWNERS = ['owner', 'owner-2', 'owner-3', 'owner-4'];
const TOKENS = {
  owner: 'tok_rl_owner',
  ownerAgain: 'tok_rl_owner_second',
  owners: OWNERS.map((login) => `tok_rl_${login}`),
  installation: 'tok_rl_installation',
};
const ROLE_IDS = [138, 8132, 8133, 8134, 8135, 8136];

function world() {
  return {
    users: [...OWNERS, ...MEMBERS].map((login) => ({ login })),
    organizations: [{ login: ORG, organization_roles_enabled: true, owners: OWNERS, members: MEMBERS }],
    tokens: [
      { token: TOKENS.owner, type: 'classic', user: 'owner', scopes: ['admin:org'] },
      { token: TOKENS.ownerAgain, type: 'classic', user: 'owner', scopes: ['admin:org'] },
      ...OWNERS.slice(1).map((login, i) => ({ token: TOKENS.owners[i + 1], type: 'classic', user: login, scopes: ['admin:org'] })),
      { token: TOKENS.installation, type: 'installation', app: 'counter', resource_owner: ORG, permissions: { members: 'write', organization_custom_roles: 'read' } },
    ],
  };
}

const policy = (overrides: Partial<RateLimitPolicy>): RateLimitPolicy => ({ ...DEFAULT_RATE_LIMIT_POLICY, ...overrides });
const roles = `/orgs/${ORG}/organization-roles`;
const assign = (t: TestApp, token: string, user: string, role: number) => t.http().put(`${roles}/users/${user}/${role}`).set(bearer(token));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-used', 'x-ratelimit-reset', 'x-ratelimit-resource'];

describe('the request budget', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: policy({ authenticatedLimit: 12, anonymousLimit: 4 }) });
    await t.load(world());
  });
  afterAll(() => t.close());

  it('every answer carries x-ratelimit-*: success, 304, 401, 404, 400, 422, unknown paths and GraphQL', async () => {
    const ok = await t.http().get(roles).set(bearer(TOKENS.installation));
    const answers = [
      ok,
      await t.http().get(roles).set(bearer(TOKENS.installation)).set('If-None-Match', ok.headers.etag as string),
      await t.http().get(roles).set(bearer('tok_rl_nobody')),
      await t.http().get('/orgs/nowhere/organization-roles').set(bearer(TOKENS.installation)),
      await t.http().get(roles).set(bearer(TOKENS.installation)).set('X-Service-Api-Version', '1999-01-01'),
      await t.http().get(`${roles}/138/users?per_page=1000`).set(bearer(TOKENS.installation)),
      await t.http().get('/no/such/path').set(bearer(TOKENS.installation)),
      await t.http().post('/graphql').set(bearer(TOKENS.installation)).send({ query: '{ organization(login: "rl-org") { login } }' }),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 304, 401, 404, 400, 422, 404, 200]);
    for (const res of answers) {
      for (const header of RATE_HEADERS) expect(res.headers[header]).toMatch(/\S/);
    }
    expect(answers.map((r) => r.headers['x-ratelimit-resource'])).toEqual([...Array(7).fill('core'), 'graphql']);
    const reset = Number(ok.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(Date.now() / 1000);
    expect(reset % 3600).toBe(0); // fixed windows aligned to the hour
  });

  it('counts a user once, whichever of their tokens they use', async () => {
    const first = await t.http().get(roles).set(bearer(TOKENS.owner));
    const second = await t.http().get(roles).set(bearer(TOKENS.ownerAgain));
    expect(first.headers['x-ratelimit-limit']).toBe('12');
    expect(Number(second.headers['x-ratelimit-used'])).toBe(Number(first.headers['x-ratelimit-used']) + 1);
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(12 - Number(second.headers['x-ratelimit-used']));
  });

  it('when the budget is spent, answers 429 with remaining 0 and retry-after, and changes nothing', async () => {
    let last = await t.http().get(roles).set(bearer(TOKENS.owners[1]!));
    while (last.status === 200) last = await t.http().get(roles).set(bearer(TOKENS.owners[1]!));
    expect(last.status).toBe(429);
    expect(last.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
    expect(last.body).toEqual({ message: expect.stringMatching(/^API rate limit exceeded for user ID \d+\.$/), documentation_url: expect.any(String), status: '429' });

    const before = await hashTables(t.db.knex);
    const write = await assign(t, TOKENS.owners[1]!, 'member-1', 8132);
    expect(write.status).toBe(429);
    expect(await hashTables(t.db.knex)).toEqual(before);
    // Another caller's budget is its own.
    expect((await t.http().get(roles).set(bearer(TOKENS.owners[2]!))).status).toBe(200);
  });

  it('without credentials, counts the client address against the smaller anonymous budget, bad tokens included', async () => {
    // Earlier tests of this app sent one bad token from this address already: read the count.
    const answers = [];
    for (let i = 0; i < 5; i++) {
      const res = i % 2 === 0 ? await t.http().get(roles) : await t.http().get(roles).set(bearer('tok_rl_guess'));
      expect(res.headers['x-ratelimit-limit']).toBe('4');
      answers.push({ status: res.status, used: Number(res.headers['x-ratelimit-used']) });
    }
    for (const { status, used } of answers) expect(status).toBe(used <= 4 ? 401 : 429);
    expect(answers.at(-1)!.status).toBe(429);
    const refused = await t.http().get(roles).set(bearer('tok_rl_guess_again'));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^API rate limit exceeded for [0-9a-f.:]+\. \(Authenticated requests get a higher rate limit\.\)$/);
  });
});

describe('write bursts ("the endpoint has been spammed")', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: policy({ writeLimit: 5, writeWindowSeconds: 2 }) });
    await t.load(world());
  });
  afterAll(() => t.close());

  it('a write over the limit is refused with 422 and retry-after, changes nothing, and writes work again after retry-after', async () => {
    let res = await assign(t, TOKENS.owner, 'member-1', ROLE_IDS[0]!);
    let attempts = 1;
    while (res.status === 204 && attempts < 20) res = await assign(t, TOKENS.owner, `member-${++attempts}`, ROLE_IDS[0]!);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: expect.stringMatching(/^You have exceeded a secondary rate limit: this endpoint has been spammed with more than 5 writes in 2 seconds\. Please wait [12] seconds before retrying\.$/),
      documentation_url: expect.any(String),
      status: '422',
    });
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(2);

    const before = await hashTables(t.db.knex);
    const refused = await assign(t, TOKENS.owner, 'member-30', ROLE_IDS[1]!);
    if (refused.status === 422) expect(await hashTables(t.db.knex)).toEqual(before);
    // Reads are not writes: still answered while writes wait.
    expect((await t.http().get(roles).set(bearer(TOKENS.owner))).status).toBe(200);

    await sleep(retryAfter * 1000 + 50);
    expect((await assign(t, TOKENS.owner, 'member-31', ROLE_IDS[1]!)).status).toBe(204);
  });

  it('a GraphQL mutation burst is refused the same way, with code RATE_LIMITED', async () => {
    await sleep(2100); // a fresh write window
    const mutation = (user: string) => `mutation { assignOrganizationRoleToUser(input: {organization: "${ORG}", user: "${user}", roleId: 8133}) { user { login } } }`;
    let res = await gql(t, mutation('member-1'), { token: TOKENS.owners[3]! });
    for (let i = 2; res.status === 200 && i < 20; i++) res = await gql(t, mutation(`member-${i}`), { token: TOKENS.owners[3]! });
    expect(res.status).toBe(422);
    expect(res.errors?.[0]).toMatchObject({ message: expect.stringMatching(/secondary rate limit/), extensions: { code: 'RATE_LIMITED' } });
    // Queries are not writes.
    expect((await gql(t, `{ organization(login: "${ORG}") { login } }`, { token: TOKENS.owners[3]! })).status).toBe(200);
  });
});

describe('answering spammed writes with 429 by configuration', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: policy({ writeLimit: 2, writeWindowSeconds: 60, spammedStatus: 429 }) });
    await t.load(world());
  });
  afterAll(() => t.close());

  it('the third write in the window is 429 with retry-after, in the wording clients recognize as a secondary limit', async () => {
    // At most two per window: within five writes one is refused, even if a window ends among them.
    let refused = await assign(t, TOKENS.owner, 'member-1', 8132);
    for (let i = 2; refused.status === 204 && i <= 5; i++) refused = await assign(t, TOKENS.owner, `member-${i}`, 8132);
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/secondary rate limit/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('under a bounded burst of concurrent callers on loopback', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ rateLimits: policy({ writeLimit: 8, writeWindowSeconds: 3 }) });
    await t.load(world());
  });
  afterAll(() => t.close());

  it('no answer is a 5xx, exactly the acknowledged writes took effect, and writes recover after retry-after', async () => {
    // Four owners assign distinct (member, role) pairs concurrently, with reads mixed in.
    const jobs = OWNERS.flatMap((_, caller) => MEMBERS.slice(caller * 10, caller * 10 + 10).flatMap((member) =>
      ROLE_IDS.slice(0, 2).map((role) => ({ caller, member, role }))));
    const results: Array<{ caller: number; member: string; role: number; status: number; retryAfter: number }> = [];
    const readStatuses: number[] = [];
    for (let i = 0; i < jobs.length; i += 16) {
      const chunk = jobs.slice(i, i + 16);
      const [writes, reads] = await Promise.all([
        Promise.all(chunk.map(async (job) => {
          const res = await assign(t, TOKENS.owners[job.caller]!, job.member, job.role);
          return { ...job, status: res.status, retryAfter: Number(res.headers['retry-after'] ?? 0) };
        })),
        Promise.all([0, 1, 2, 3].map(async (c) => (await t.http().get(`${roles}/8132/users`).set(bearer(TOKENS.owners[c]!))).status)),
      ]);
      results.push(...writes);
      readStatuses.push(...reads);
    }
    expect(readStatuses.every((s) => s === 200)).toBe(true);
    expect(results.every((r) => r.status === 204 || r.status === 422)).toBe(true);
    const refused = results.filter((r) => r.status === 422);
    expect(refused.length).toBeGreaterThan(0);

    const held = await t.db.knex('organization_role_users as a').join('accounts as u', 'u.id', 'a.user_id').select('u.login', 'a.role_id');
    const heldPairs = new Set(held.map((r: { login: string; role_id: number }) => `${r.login}/${r.role_id}`));
    const acknowledged = new Set(results.filter((r) => r.status === 204).map((r) => `${r.member}/${r.role}`));
    expect(heldPairs).toEqual(acknowledged);

    const wait = Math.max(...refused.map((r) => r.retryAfter));
    await sleep(wait * 1000 + 50);
    const retried = await Promise.all(refused.slice(0, 4).map((r) => assign(t, TOKENS.owners[r.caller]!, r.member, r.role)));
    expect(retried.map((r) => r.status)).toEqual(retried.map(() => 204));
  });
});

describe('several instances over one database', () => {
  it('hold a caller to one budget', async () => {
    const t = await createTestApp({ rateLimits: policy({ authenticatedLimit: 6 }) });
    await t.load(world());
    // A second app with its own connection pool over the same database: another instance.
    const other = openDatabase(t.db.url, dialect === 'postgres' ? { poolMax: 2 } : {});
    try {
      const secondApp = await createApp({ services: createServices(other, { rateLimits: policy({ authenticatedLimit: 6 }) }), logger: pino({ level: 'silent' }) });
      const instances = [t.http, () => request(secondApp)];
      const used: number[] = [];
      const statuses: number[] = [];
      for (let i = 0; i < 8; i++) {
        const res = await instances[i % 2]!().get(roles).set(bearer(TOKENS.owners[2]!));
        used.push(Number(res.headers['x-ratelimit-used']));
        statuses.push(res.status);
      }
      expect(used).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429, 429]);
    } finally {
      await other.close();
      await t.close();
    }
  });
});
