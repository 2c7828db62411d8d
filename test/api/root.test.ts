import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../src/app';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { USER_TEXT_LEAKS } from '../helpers/user-text';

// Issue 18: GET / (and /api/v3/) answers the API's entry points, as the original's root does:
// `*_url` fields, absolute, under the base the request used; a browser gets them as a page.

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

let t: TestApp;
let paths: string[];
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
  paths = Object.keys((await t.http().get('/openapi.json')).body.paths);
});
afterAll(async () => {
  await t.close();
});

describe.each([
  { root: '/', base: '', graphql: '/graphql', graphiql: '/graphiql/' },
  { root: '/api/v3/', base: '/api/v3', graphql: '/api/graphql', graphiql: '/api/graphiql/' },
  { root: '/api/v3', base: '/api/v3', graphql: '/api/graphql', graphiql: '/api/graphiql/' },
])('GET $root', ({ root, base, graphql, graphiql }) => {
  const api = () => `${t.url}${base}`;

  it('answers JSON links to every entry point, absolute and under the base the request used, with no token', async () => {
    const res = await t.http().get(root);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toMatch(/Accept/);
    expect(res.body).toEqual({
      organization_roles_url: `${api()}/orgs/{org}/organization-roles`,
      organization_role_url: `${api()}/orgs/{org}/organization-roles/{role_id}`,
      enterprise_oidc_property_inclusions_url: `${api()}/enterprises/{enterprise}/actions/oidc/customization/properties/repo`,
      organization_oidc_property_inclusions_url: `${api()}/orgs/{org}/actions/oidc/customization/properties/repo`,
      organization_oidc_subject_claim_template_url: `${api()}/orgs/{org}/actions/oidc/customization/sub`,
      repository_oidc_subject_claim_template_url: `${api()}/repos/{owner}/{repo}/actions/oidc/customization/sub`,
      repository_attestations_url: `${api()}/repos/{owner}/{repo}/attestations/{subject_digest}`,
      enterprise_dependency_alerts_url: `${api()}/enterprises/{enterprise}/dependency-bot/alerts`,
      organization_dependency_alerts_url: `${api()}/orgs/{org}/dependency-bot/alerts`,
      repository_dependency_alerts_url: `${api()}/repos/{owner}/{repo}/dependency-bot/alerts`,
      repository_dependency_alert_url: `${api()}/repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}`,
      advisories_url: `${api()}/advisories`,
      advisory_url: `${api()}/advisories/{svcsa_id}`,
      repository_dependency_snapshots_url: `${api()}/repos/{owner}/{repo}/dependency-graph/snapshots`,
      repository_sbom_url: `${api()}/repos/{owner}/{repo}/dependency-graph/sbom`,
      organization_hooks_url: `${api()}/orgs/{org}/hooks`,
      repository_hooks_url: `${api()}/repos/{owner}/{repo}/hooks`,
      organization_dependency_bot_rules_url: `${api()}/orgs/{org}/dependency-bot/rules`,
      repository_dependency_bot_rules_url: `${api()}/repos/{owner}/{repo}/dependency-bot/rules`,
      graphql_url: `${t.url}${graphql}`,
      graphiql_url: `${t.url}${graphiql}`,
      openapi_url: `${api()}/openapi.json`,
      docs_url: `${api()}/docs/`,
      versions_url: `${api()}/versions`,
      health_url: `${t.url}/healthz`,
      metrics_url: `${t.url}/metrics`,
      oidc_discovery_url: `${t.url}/oidc/.well-known/openid-configuration`,
    });
  });

  it('every template is a documented operation path, and every other link answers', async () => {
    const links = Object.values((await t.http().get(root)).body as Record<string, string>);
    for (const url of links) {
      expect(url.startsWith(`${t.url}/`)).toBe(true);
      const path = url.slice(t.url.length);
      if (url.includes('{')) {
        expect(paths).toContain(path.slice(base.length));
        continue;
      }
      const res = await t.http().get(path).set('Accept', BROWSER_ACCEPT);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
    }
  });

  it('gives a browser the same links as a page', async () => {
    const links = (await t.http().get(root)).body as Record<string, string>;
    const res = await t.http().get(root).set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    for (const [name, url] of Object.entries(links)) {
      expect(res.text).toContain(`<code>${name}</code>`);
      expect(res.text).toContain(url.includes('{') ? `<code>${url}</code>` : `<a href="${url}">`);
    }
    expect(res.text).not.toMatch(USER_TEXT_LEAKS);
  });

  it('answers clients that ask for JSON, such as Octokit, in JSON', async () => {
    for (const accept of ['application/vnd.github+json', 'application/json', '*/*', 'application/json, text/html']) {
      const res = await t.http().get(root).set('Accept', accept).set(bearer(DEMO_OWNER_TOKEN));
      expect({ accept, type: res.headers['content-type'] }).toEqual({ accept, type: 'application/json; charset=utf-8' });
    }
  });

  it('refuses a bad token as every API path does (401 Bad credentials)', async () => {
    const res = await t.http().get(root).set(bearer('svc_not_a_real_token'));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Bad credentials', documentation_url: `${api()}/docs/`, status: '401' });
  });

  it('leaves unknown paths a 404', async () => {
    const res = await t.http().get(`${base}/no-such-entry-point`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not Found', documentation_url: `${api()}/docs/`, status: '404' });
  });
});

describe('with GRAPHQL_EXPLORER=off', () => {
  it('the root names no GraphiQL, which is not served', async () => {
    const app = await createApp({ services: t.services, logger: pino({ level: 'silent' }), graphqlExplorer: false });
    const root = await request(app).get('/');
    expect(root.status).toBe(200);
    expect(root.body).not.toHaveProperty('graphiql_url');
    expect(root.body.graphql_url).toMatch(/\/graphql$/);
    expect((await request(app).get('/graphiql/')).status).toBe(404);
    expect((await request(app).get('/api/graphiql/')).status).toBe(404);
  });
});
