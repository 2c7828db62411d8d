import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../src/app';
import { serializeBotSender, serializeEnterpriseSummary } from '../../src/modules/webhook-delivery/delivery-payload';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { snapshot } from '../helpers/snapshots-world';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 40: every html_url in an API answer opens a page orgsec serves, read through the same
// services and authorization as the API; a session cookie set by /sign-in stands in for the
// bearer header in a browser, and is read by the pages alone.

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const OUTSIDER_TOKEN = 'svc_demo_frank_globex';
const COMMENT = '<script>alert("owned")</script> & <b>bold</b>';
const PRIVATE_REPOSITORIES = ['acme-corp/api', 'acme-corp/infra', 'acme-labs/prototype'];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
  // A login that is also an API path segment: the API must still answer there.
  await t.load({ users: [{ login: 'advisories', name: 'Collides', email: 'advisories@example.com' }, { login: 'versions', name: 'Collides', email: 'versions@example.com' }] });
  const dismissed = await t.http().patch('/repos/acme-corp/web/dependency-bot/alerts/1').set(bearer(DEMO_OWNER_TOKEN))
    .send({ state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: COMMENT });
  expect(dismissed.status).toBe(200);
});
afterAll(async () => {
  await t.close();
});

/** Every html_url anywhere in `value`. */
function htmlUrlsIn(value: unknown, found = new Set<string>()): Set<string> {
  if (Array.isArray(value)) value.forEach((item) => htmlUrlsIn(item, found));
  else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (key === 'html_url' && typeof item === 'string') found.add(item);
      else htmlUrlsIn(item, found);
    }
  }
  return found;
}

/** The alert page's history, one line per change, without its time and markup but the escaped text. */
function historyOf(page: string): string[] {
  return [...page.matchAll(/<li><time[^>]*>[^<]*<\/time> ([\s\S]*?)<\/li>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim());
}

/** The html_urls of a sweep of the demo world's answers, as its owner reads them, under `base` ('' or /api/v3). */
async function sweep(base: string): Promise<string[]> {
  const paths = [
    '/enterprises/acme/dependency-bot/alerts', '/orgs/acme-corp/dependency-bot/alerts',
    '/repos/acme-corp/api/dependency-bot/alerts?state=open,dismissed,fixed,auto_dismissed', '/repos/acme-corp/web/dependency-bot/alerts/1',
    '/advisories', '/advisories/SVCSA-2026-0001', '/orgs/acme-corp/organization-roles/138/users', '/orgs/acme-corp/organization-roles/138/teams',
  ];
  const urls = new Set<string>();
  for (const path of paths) {
    const res = await t.http().get(`${base}${path}`).set(bearer(DEMO_OWNER_TOKEN));
    expect({ path, status: res.status }).toEqual({ path, status: 200 });
    htmlUrlsIn(res.body, urls);
  }
  // Webhook payloads (the sender and the enterprise are built at delivery time, under the instance's base).
  htmlUrlsIn([serializeBotSender(`${t.url}${base}`), serializeEnterpriseSummary(`${t.url}${base}`, { id: 1, slug: 'acme', name: 'Acme' })], urls);
  return [...urls];
}

const pathOf = (url: string) => url.slice(t.url.length);
const isPrivate = (url: string) => PRIVATE_REPOSITORIES.some((repo) => pathOf(url).replace(/^\/api\/v3/, '').startsWith(`/${repo}`));
const pagePaths = (urls: string[]) => urls.map(pathOf);

describe.each(['', '/api/v3'])('the html_urls of the API under "%s"', (base) => {
  let urls: string[];
  beforeAll(async () => {
    urls = await sweep(base);
  });

  it('name every kind of page, all on this server', () => {
    const paths = pagePaths(urls).map((path) => path.slice(base.length));
    expect(urls.every((url) => url.startsWith(`${t.url}${base}/`))).toBe(true);
    for (const expected of [
      '/acme-corp/api/security/dependency-bot/1', '/acme-corp/web/security/dependency-bot/1', '/advisories/SVCSA-2026-0001/view', '/acme-corp/api',
      '/alice', '/acme-corp', '/orgs/acme-corp/teams/security', '/apps/dependency-bot', '/enterprises/acme',
    ]) expect(paths).toContain(expected);
  });

  it('each opens a plain HTML page for the owner: 200, no script, a strict Content-Security-Policy', async () => {
    for (const url of urls) {
      const res = await t.http().get(pathOf(url)).set(bearer(DEMO_OWNER_TOKEN)).set('Accept', BROWSER_ACCEPT);
      expect({ url, status: res.status, type: res.headers['content-type'] }).toEqual({ url, status: 200, type: 'text/html; charset=utf-8' });
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'unsafe-inline'/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).not.toMatch(/<script|<link|<img|src=/i);
    }
  });

  it('a curl with the Authorization header reads the same page', async () => {
    const res = await t.http().get(`${base}/acme-corp/api/security/dependency-bot/1`).set(bearer(DEMO_OWNER_TOKEN));
    expect(res.status).toBe(200);
    expect(res.text).toContain('Prototype pollution in left-pad');
  });

  it('a private repository\'s pages are 404 to an outsider, as its alerts are in the API', async () => {
    const hidden = urls.filter(isPrivate);
    expect(hidden.length).toBeGreaterThan(3);
    for (const url of hidden) {
      const res = await t.http().get(pathOf(url)).set(bearer(OUTSIDER_TOKEN)).set('Accept', BROWSER_ACCEPT);
      expect({ url, status: res.status, type: res.headers['content-type'] }).toEqual({ url, status: 404, type: 'text/html; charset=utf-8' });
      expect(res.text).toContain('Not found');
    }
    const api = await t.http().get(`${base}/repos/acme-corp/api/dependency-bot/alerts/1`).set(bearer(OUTSIDER_TOKEN));
    expect(api.status).toBe(404);
  });

  it('without a token, public things are readable and private ones are not', async () => {
    for (const path of ['/advisories/SVCSA-2026-0001/view', '/acme-corp', '/alice', '/acme-corp/web', '/apps/dependency-bot']) {
      const res = await t.http().get(`${base}${path}`).set('Accept', BROWSER_ACCEPT);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
    }
    const repository = await t.http().get(`${base}/acme-corp/api`).set('Accept', BROWSER_ACCEPT);
    expect(repository.status).toBe(404);
    // The API asks for authentication before it reads an alert (401); the page says so, and links to the sign-in form.
    const alert = await t.http().get(`${base}/acme-corp/api/security/dependency-bot/1`).set('Accept', BROWSER_ACCEPT);
    expect(alert.status).toBe(401);
    expect(alert.text).toContain(`href="${t.url}${base}/sign-in?return_to=`);
  });

  it('an alert page follows the API\'s answer for each caller', async () => {
    for (const token of [undefined, OUTSIDER_TOKEN, 'svc_demo_dave_outside', 'svc_demo_erin_security', 'svc_demo_audit_bot']) {
      for (const [repo, number] of [['acme-corp/web', 1], ['acme-corp/api', 2], ['acme-corp/infra', 1]] as const) {
        const headers = token === undefined ? {} : bearer(token);
        const api = await t.http().get(`${base}/repos/${repo}/dependency-bot/alerts/${number}`).set(headers);
        const page = await t.http().get(`${base}/${repo}/security/dependency-bot/${number}`).set(headers).set('Accept', BROWSER_ACCEPT);
        expect({ token, repo, status: page.status }).toEqual({ token, repo, status: api.status });
      }
    }
  });
});

describe('an alert page', () => {
  it('shows the dismissal, its comment as text, the advisory and the dependency', async () => {
    const res = await t.http().get('/acme-corp/web/security/dependency-bot/1').set(bearer(DEMO_OWNER_TOKEN));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>');
    expect(res.text).not.toContain('<b>bold</b>');
    expect(res.text).toContain('&#60;script&#62;alert(&#34;owned&#34;)&#60;/script&#62; &#38; &#60;b&#62;bold&#60;/b&#62;');
    expect(res.text).toContain('tolerable risk');
    expect(res.text).toContain(`<a href="${t.url}/alice">alice</a>`);
    for (const text of ['Manifest', 'Scope', 'Relationship', 'Severity', 'History']) expect(res.text).toContain(text);
  });

  it('lists its recorded changes oldest first: who made each (a person, or the engine) and what it set', async () => {
    const path = '/repos/acme-corp/infra/dependency-bot/alerts/1';
    const before = await t.http().get('/acme-corp/infra/security/dependency-bot/1').set(bearer(DEMO_OWNER_TOKEN));
    expect(historyOf(before.text)).toEqual([]);
    expect(before.text).toContain('No change recorded: the alert is as it was loaded.');
    for (const body of [{ state: 'dismissed', dismissed_reason: 'no_bandwidth', dismissed_comment: 'after <the> release' }, { state: 'open' }, { assignees: ['alice'] }]) {
      expect((await t.http().patch(path).set(bearer(DEMO_OWNER_TOKEN)).send(body)).status).toBe(200);
    }
    // A snapshot of the alert's manifest without its package: the engine fixes it.
    const submitted = await t.http().post('/repos/acme-corp/infra/dependency-graph/snapshots').set(bearer(DEMO_OWNER_TOKEN)).send(snapshot({
      ref: 'refs/heads/main', manifests: { 'Gemfile.lock': { name: 'Gemfile.lock', resolved: { rake: { package_url: 'pkg:gem/rake@13.0.0' } } } },
    }));
    expect(submitted.body.result).toBe('SUCCESS');
    const after = await t.http().get('/acme-corp/infra/security/dependency-bot/1').set(bearer(DEMO_OWNER_TOKEN));
    expect(historyOf(after.text)).toEqual([
      'Dismissed by alice (no bandwidth: after &#60;the&#62; release)', 'Reopened by alice', 'Assignees changed by alice (alice)', 'Fixed by dependency-bot[bot]',
    ]);
    // An outsider sees no history, as they see no alert.
    expect((await t.http().get('/acme-corp/infra/security/dependency-bot/1').set(bearer(OUTSIDER_TOKEN))).status).toBe(404);
  });

  it('shows the latest 100 changes of an alert that has more, and says how many there are', async () => {
    const path = '/repos/globex/site/dependency-bot/alerts/1';
    for (let i = 0; i < 102; i++) {
      const body = i % 2 === 0 ? { state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: `flip ${i}` } : { state: 'open' };
      expect((await t.http().patch(path).set(bearer(OUTSIDER_TOKEN)).send(body)).status).toBe(200);
    }
    const res = await t.http().get('/globex/site/security/dependency-bot/1').set(bearer(OUTSIDER_TOKEN));
    const history = historyOf(res.text);
    expect(res.text).toContain('The latest 100 of 102 changes.');
    expect(history).toHaveLength(100);
    expect([history[0], history[99]]).toEqual(['Dismissed by frank (tolerable risk: flip 2)', 'Reopened by frank']);
  });

  it('an alert number that names no alert is a 404 page', async () => {
    for (const number of ['999', '0', 'abc', '99999999999']) {
      const res = await t.http().get(`/acme-corp/web/security/dependency-bot/${number}`).set(bearer(DEMO_OWNER_TOKEN)).set('Accept', BROWSER_ACCEPT);
      expect({ number, status: res.status }).toEqual({ number, status: 404 });
    }
  });
});

describe('a repository\'s alerts page', () => {
  it('lists open alerts first, each linking to its page', async () => {
    const res = await t.http().get('/acme-corp/api/security/dependency-bot').set(bearer(DEMO_OWNER_TOKEN));
    expect(res.status).toBe(200);
    const open = res.text.indexOf('Open alerts');
    const closed = res.text.indexOf('Closed alerts');
    expect(open).toBeGreaterThan(0);
    expect(closed).toBeGreaterThan(open);
    expect(res.text.indexOf(`${t.url}/acme-corp/api/security/dependency-bot/1"`)).toBeGreaterThan(open);
    expect(res.text.indexOf(`${t.url}/acme-corp/api/security/dependency-bot/1"`)).toBeLessThan(closed);
    expect(res.text.indexOf(`${t.url}/acme-corp/api/security/dependency-bot/2"`)).toBeGreaterThan(closed);
  });

  it('is bounded: a page of alerts and a next link carrying the API\'s cursor', async () => {
    const first = await t.http().get('/acme-corp/api/security/dependency-bot?per_page=1').set(bearer(DEMO_OWNER_TOKEN));
    const next = /<a rel="next" href="([^"]*closed_after=[^"]*)"/.exec(first.text)?.[1];
    expect(next).toBeDefined();
    const shownFirst = /dependency-bot\/(\d+)"/g;
    const closedPart = (text: string) => text.slice(text.indexOf('Closed alerts'));
    const numbers = (text: string) => [...new Set([...closedPart(text).matchAll(shownFirst)].map((m) => m[1]))];
    const second = await t.http().get(pathOf(next!.replace(/&#38;/g, '&'))).set(bearer(DEMO_OWNER_TOKEN));
    expect(second.status).toBe(200);
    expect(numbers(first.text)).toHaveLength(1);
    expect(numbers(second.text)).toHaveLength(1);
    expect(numbers(second.text)).not.toEqual(numbers(first.text));
  });

  it('refuses a forged cursor as the API does (400)', async () => {
    const res = await t.http().get('/acme-corp/api/security/dependency-bot?open_after=forged').set(bearer(DEMO_OWNER_TOKEN)).set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  });
});

describe('the session cookie', () => {
  async function signIn(token: string, headers: Record<string, string> = {}) {
    return t.http().post('/sign-in').type('form').set(headers).send({ token, return_to: '/acme-corp/api/security/dependency-bot/1' });
  }
  const cookieOf = (res: { headers: Record<string, unknown> }) => String((res.headers['set-cookie'] as string[] | undefined)?.[0] ?? '').split(';')[0]!;

  it('GET /sign-in is a form that posts the token here', async () => {
    const res = await t.http().get('/sign-in').set('Accept', BROWSER_ACCEPT);
    expect(res.status).toBe(200);
    expect(res.text).toContain(`<form method="post" action="${t.url}/sign-in">`);
    expect(res.text).toContain('name="token"');
  });

  it('is set by POST /sign-in with a valid token: HttpOnly, SameSite=Strict, then leads back to the page', async () => {
    const res = await signIn(DEMO_OWNER_TOKEN, { Origin: t.url });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${t.url}/acme-corp/api/security/dependency-bot/1`);
    const cookie = (res.headers['set-cookie'] as unknown as string[])[0]!;
    expect(cookie).toMatch(/^orgsec_session=svc_demo_alice_owner; Path=\/; HttpOnly; SameSite=Strict$/);
    const page = await t.http().get('/acme-corp/api/security/dependency-bot/1').set('Cookie', cookieOf(res)).set('Accept', BROWSER_ACCEPT);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signed in as <strong>alice</strong>');
  });

  it('is Secure when the request came over https (here: behind a trusted proxy), not over plain http', async () => {
    expect((await signIn(DEMO_OWNER_TOKEN)).headers['set-cookie']![0]).not.toMatch(/Secure/);
    const proxied = await createApp({ services: t.services, logger: pino({ level: 'silent' }), trustProxy: true });
    const res = await request(proxied).post('/sign-in').set('X-Forwarded-Proto', 'https').type('form').send({ token: DEMO_OWNER_TOKEN });
    expect(res.status).toBe(303);
    expect(res.headers['set-cookie']![0]).toMatch(/; HttpOnly; Secure; SameSite=Strict$/);
  });

  it('is not set for a token the API would refuse', async () => {
    for (const token of ['svc_not_a_real_token', '']) {
      const res = await signIn(token);
      expect(res.status).toBe(401);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('is not set by a form another site posts (CSRF)', async () => {
    for (const headers of [{ Origin: 'https://evil.example' }, { 'Sec-Fetch-Site': 'cross-site' }]) {
      const res = await signIn(DEMO_OWNER_TOKEN, headers);
      expect(res.status).toBe(403);
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });

  it('is cleared by POST /sign-out', async () => {
    const res = await t.http().post('/sign-out').set('Cookie', 'orgsec_session=svc_demo_alice_owner');
    expect(res.status).toBe(303);
    expect(res.headers['set-cookie']![0]).toMatch(/^orgsec_session=; Path=\/; Expires=Thu, 01 Jan 1970/);
  });

  it('does not authenticate the JSON API: a request carrying only the cookie is anonymous', async () => {
    const cookie = cookieOf(await signIn(DEMO_OWNER_TOKEN));
    for (const path of ['/repos/acme-corp/api/dependency-bot/alerts/1', '/api/v3/orgs/acme-corp/organization-roles']) {
      const withCookie = await t.http().get(path).set('Cookie', cookie);
      const anonymous = await t.http().get(path);
      expect({ path, status: withCookie.status, body: withCookie.body }).toEqual({ path, status: anonymous.status, body: anonymous.body });
      expect(withCookie.status).not.toBe(200);
    }
    const patch = await t.http().patch('/repos/acme-corp/api/dependency-bot/alerts/1').set('Cookie', cookie).send({ state: 'dismissed', dismissed_reason: 'inaccurate' });
    expect([401, 404]).toContain(patch.status);
  });

  it('does not authenticate GraphQL', async () => {
    const cookie = cookieOf(await signIn(DEMO_OWNER_TOKEN));
    const query = { query: '{ viewer { login } }' };
    const withCookie = await t.http().post('/graphql').set('Cookie', cookie).send(query);
    const anonymous = await t.http().post('/graphql').send(query);
    expect(withCookie.body).toEqual(anonymous.body);
    expect(JSON.stringify(withCookie.body)).not.toContain('alice');
    const withHeader = await t.http().post('/graphql').set(bearer(DEMO_OWNER_TOKEN)).send(query);
    expect(withHeader.body).toEqual({ data: { viewer: { login: 'alice' } } });
  });
});

describe('routing beside the API', () => {
  it('a login that is an API path leaves the API\'s answer there', async () => {
    const advisories = await t.http().get('/advisories').set('Accept', BROWSER_ACCEPT);
    expect(advisories.status).toBe(200);
    expect(advisories.headers['content-type']).toMatch(/^application\/json/);
    const versions = await t.http().get('/versions').set('Accept', BROWSER_ACCEPT);
    expect(versions.headers['content-type']).toMatch(/^application\/json/);
  });

  it('an unknown path is the API\'s JSON 404 for API clients and a page for browsers', async () => {
    const api = await t.http().get('/no-such-login').set(bearer(DEMO_OWNER_TOKEN));
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
    const page = await t.http().get('/no-such-login').set('Accept', BROWSER_ACCEPT);
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
  });

  it('pages are GET only: other methods are the API\'s 404', async () => {
    const res = await t.http().post('/acme-corp/web/security/dependency-bot/1').set(bearer(DEMO_OWNER_TOKEN)).send({});
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Not Found');
  });
});
