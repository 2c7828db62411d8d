import { API_VERSION } from '../../src/http/api-version';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 9: the REST API also answers under /api/v3 and GraphQL under /api/graphql (the
// enterprise-server layout clients assume), so a user changes only the base URL; and
// GET /versions lists the supported API versions.

const ORG = 'acme-corp';
const ALERTS = `/orgs/${ORG}/dependency-bot/alerts`;
let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
  const roles = await t.http().get(`/orgs/${ORG}/organization-roles`).set(bearer(DEMO_OWNER_TOKEN));
  origin = new URL(roles.body.roles[0].organization.url).origin;
});
afterAll(() => t.close());

const owner = () => bearer(DEMO_OWNER_TOKEN);
/** A body as the root layout gives it, rewritten to the /api/v3 layout's URLs. */
const underApiV3 = (body: unknown) => JSON.parse(JSON.stringify(body).split(`${origin}/`).join(`${origin}/api/v3/`));

describe('/api/v3', () => {
  it.each([
    `/orgs/${ORG}/organization-roles`,
    `${ALERTS}?per_page=5&severity=high,critical`,
    `/repos/${ORG}/api/actions/oidc/customization/sub`,
  ])('answers GET %s as the root does, with URLs under /api/v3', async (path) => {
    const root = await t.http().get(path).set(owner());
    const prefixed = await t.http().get(`/api/v3${path}`).set(owner());
    expect(root.status).toBe(200);
    expect(prefixed.status).toBe(200);
    expect(prefixed.body).toEqual(underApiV3(root.body));
    for (const header of ['x-ratelimit-limit', 'x-service-api-version-selected', 'x-accepted-oauth-scopes']) {
      expect(prefixed.headers[header]).toBe(root.headers[header]);
    }
  });

  it('Link headers keep the prefix, and following them reaches every alert the root list has', async () => {
    const everyNumber = async (start: string) => {
      const seen: string[] = [];
      let next: string | undefined = start;
      while (next) {
        const res = await t.http().get(next.replace(origin, '')).set(owner());
        expect(res.status).toBe(200);
        seen.push(...res.body.map((a: { url: string }) => new URL(a.url).pathname.replace(/^\/api\/v3/, '')));
        const link = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '');
        next = link?.[1];
        if (next) expect(new URL(next).pathname).toBe(start.startsWith('/api/v3') ? `/api/v3${ALERTS}` : ALERTS);
      }
      return seen;
    };
    const root = await everyNumber(`${ALERTS}?per_page=2`);
    expect(root.length).toBeGreaterThan(2);
    expect(await everyNumber(`/api/v3${ALERTS}?per_page=2`)).toEqual(root);
  });

  it('writes work there too, and the clients\' default Accept is accepted', async () => {
    const path = `/repos/${ORG}/api/actions/oidc/customization/sub`;
    const res = await t.http().put(`/api/v3${path}`).set(owner()).set('Accept', 'application/vnd.github.v3+json')
      .send({ use_default: false, include_claim_keys: ['repo', 'workflow'] });
    expect(res.status).toBe(201);
    const read = await t.http().get(path).set(owner());
    expect(read.body).toEqual(expect.objectContaining({ use_default: false, include_claim_keys: ["repo", "workflow"] }));
  });

  it('an unknown path under /api/v3 is the documented 404, and bad credentials are 401 as at the root', async () => {
    const missing = await t.http().get('/api/v3/no/such/path').set(owner());
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
    const refused = await t.http().get(`/api/v3/orgs/${ORG}/organization-roles`).set(bearer('not-a-token'));
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('Bad credentials');
  });
});

describe('/api/graphql', () => {
  const query = `{ organization(login: "${ORG}") { login url } }`;
  it('answers as /graphql does, with REST URLs under /api/v3', async () => {
    const root = await t.http().post('/graphql').set(owner()).send({ query });
    const prefixed = await t.http().post('/api/graphql').set(owner()).send({ query });
    expect(root.status).toBe(200);
    expect(root.body.data.organization.login).toBe(ORG);
    expect(prefixed.status).toBe(200);
    expect(prefixed.body).toEqual(underApiV3(root.body));
  });
});

describe('GET /versions', () => {
  it.each(['/versions', '/api/v3/versions'])('%s lists the supported API versions, with or without a token', async (path) => {
    for (const res of [await t.http().get(path), await t.http().get(path).set(owner())]) {
      expect(res.status).toBe(200);
      expect(res.body).toEqual([API_VERSION]);
      expect(res.headers['x-service-api-version-selected']).toBe(API_VERSION);
    }
    expect((await t.http().get(path).set(bearer('not-a-token'))).status).toBe(401);
  });
});
