import http from 'node:http';
import { loadConfig, ConfigError } from '../../src/config';
import { ALLOWED_HEADERS, EXPOSED_HEADERS } from '../../src/http/cors';
import { DEMO_OWNER_TOKEN, OPERATIONS, demoWorld, fillPath } from '../helpers/operations';
import { OPERATIONS as CATALOGUE } from '../../src/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 18, "Clients that already exist": what browsers, Apollo Sandbox and REST-style
// GraphQL clients send, answered as the original API answers it.

const SANDBOX = 'https://studio.apollographql.com';
const OUTSIDER_TOKEN = 'svc_demo_dave_outside';
const QUERY = { query: '{ viewer { login } }' };
const listOf = (header: string | undefined) => (header ?? '').split(',').map((name) => name.trim().toLowerCase()).filter(Boolean);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
});
afterAll(() => t.close());

/** A request with the given raw header lines (a name may repeat), as a client below any library sends it. */
function rawRequest(url: string, method: string, headers: Array<[string, string]>, body?: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    // Raw header lines: Node adds no Host of its own then.
    const lines = [['Host', new URL(url).host], ...headers].flat();
    const request = http.request(url, { method, headers: lines as unknown as http.OutgoingHttpHeaders }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe('CORS: every answer may be read from any origin, without credentials', () => {
  const expectReadable = (headers: Record<string, string | undefined>) => {
    expect(headers['access-control-allow-origin']).toBe('*');
    expect(headers['access-control-allow-credentials']).toBeUndefined();
    expect(listOf(headers['access-control-expose-headers'])).toEqual(expect.arrayContaining(EXPOSED_HEADERS.map((h) => h.toLowerCase())));
  };

  it.each([
    ['a REST read with a token', (r: TestApp) => r.http().get('/orgs/acme-corp/organization-roles').set(bearer(DEMO_OWNER_TOKEN)), 200],
    ['the same read answered again (from the response cache)', (r: TestApp) => r.http().get('/orgs/acme-corp/organization-roles').set(bearer(DEMO_OWNER_TOKEN)), 200],
    ['a public read without a token', (r: TestApp) => r.http().get('/repos/acme-corp/web/attestations/sha256:' + 'a'.repeat(64)), 200],
    ['a bad token', (r: TestApp) => r.http().get('/orgs/acme-corp/organization-roles').set(bearer('svc_nope')), 401],
    ['an unknown path', (r: TestApp) => r.http().get('/no/such/path'), 404],
    ['a GraphQL query', (r: TestApp) => r.http().post('/graphql').set(bearer(DEMO_OWNER_TOKEN)).send(QUERY), 200],
    ['a GraphQL query at /api/graphql', (r: TestApp) => r.http().post('/api/graphql').set(bearer(DEMO_OWNER_TOKEN)).send(QUERY), 200],
  ])('%s', async (_title, send, status) => {
    const answer = await send(t).set('Origin', 'https://dashboard.example.com');
    expect(answer.status).toBe(status);
    expectReadable(answer.headers);
  });

  it('answers carry the headers even without an Origin (a shared cache may serve them to a page)', async () => {
    const answer = await t.http().get('/orgs/acme-corp/organization-roles').set(bearer(DEMO_OWNER_TOKEN));
    expectReadable(answer.headers);
  });

  const preflight = (path: string, method: string, requestHeaders: string) =>
    t.http().options(path).set('Origin', SANDBOX).set('Access-Control-Request-Method', method).set('Access-Control-Request-Headers', requestHeaders);

  it.each([
    ['/graphql', 'POST', 'authorization,content-type,apollographql-client-name,apollographql-client-version'],
    ['/api/graphql', 'POST', 'authorization,content-type,x-apollo-operation-name'],
    ['/graphql', 'GET', 'apollo-require-preflight,authorization'],
    ...OPERATIONS.map((op) => [fillPath(op.path, op.sample.params), op.method as string, 'authorization,content-type,if-none-match,x-service-api-version']),
  ])('a preflight from Apollo Sandbox for %s %s answers 204 with what it may send', async (path, method, requested) => {
    const answer = await preflight(path, method, requested);
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect(answer.headers['access-control-allow-origin']).toBe('*');
    expect(listOf(answer.headers['access-control-allow-methods'])).toEqual(expect.arrayContaining(['get', 'post', 'patch', 'put', 'delete']));
    const allowed = listOf(answer.headers['access-control-allow-headers']);
    expect(allowed).toEqual(expect.arrayContaining(['authorization', 'content-type', 'if-none-match', 'x-service-api-version', 'apollo-require-preflight', 'x-apollo-operation-name']));
    expect(allowed).toEqual(expect.arrayContaining(listOf(requested)));
    expect(Number(answer.headers['access-control-max-age'])).toBeGreaterThan(0);
  });

  it('a preflight from Apollo Sandbox to a server on a private address is allowed (Chromium\'s Private Network Access)', async () => {
    const answer = await preflight('/graphql', 'POST', 'authorization,content-type').set('Access-Control-Request-Private-Network', 'true');
    expect(answer.status).toBe(204);
    expect(answer.headers['access-control-allow-private-network']).toBe('true');
    const plain = await preflight('/graphql', 'POST', 'authorization,content-type');
    expect(plain.headers['access-control-allow-private-network']).toBeUndefined();
  });

  it('Apollo\'s CSRF prevention stays on: a simple cross-origin GET without a preflight header is refused', async () => {
    const answer = await t.http().get('/graphql').query({ query: '{ viewer { login } }' }).set('Origin', SANDBOX);
    expect(answer.status).toBe(400);
    expect(answer.text).toMatch(/CSRF/);
    expect(answer.headers['access-control-allow-origin']).toBe('*');
  });

  it('ALLOWED_HEADERS covers what the spec names', () => {
    expect(ALLOWED_HEADERS.map((h) => h.toLowerCase())).toEqual(expect.arrayContaining(['authorization', 'content-type', 'if-none-match', 'x-service-api-version', 'apollo-require-preflight', 'x-apollo-operation-name']));
  });
});

describe('CORS_ORIGINS', () => {
  it('a list echoes a listed origin with Vary: Origin, and gives none to another, also for kept answers', async () => {
    const listed = await createTestApp({ corsOrigins: ['https://a.example.com', 'http://localhost:5173'] });
    try {
      await listed.load(demoWorld());
      for (const origin of ['https://a.example.com', 'http://localhost:5173', 'https://a.example.com']) {
        const answer = await listed.http().get('/orgs/acme-corp/organization-roles').set(bearer(DEMO_OWNER_TOKEN)).set('Origin', origin);
        expect(answer.status).toBe(200);
        expect(answer.headers['access-control-allow-origin']).toBe(origin);
        expect(listOf(answer.headers.vary)).toContain('origin');
      }
      const other = await listed.http().get('/orgs/acme-corp/organization-roles').set(bearer(DEMO_OWNER_TOKEN)).set('Origin', 'https://evil.example.com');
      expect(other.status).toBe(200);
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
      expect(listOf(other.headers.vary)).toContain('origin');
      const preflight = await listed.http().options('/graphql').set('Origin', 'https://evil.example.com').set('Access-Control-Request-Method', 'POST')
        .set('Access-Control-Request-Private-Network', 'true');
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-private-network']).toBeUndefined();
    } finally {
      await listed.close();
    }
  });

  it('off sends no CORS header at all, and a preflight goes on to the API', async () => {
    const closed = await createTestApp({ corsOrigins: 'off' });
    try {
      await closed.load(demoWorld());
      const answer = await closed.http().get('/orgs/acme-corp/organization-roles').set(bearer(DEMO_OWNER_TOKEN)).set('Origin', SANDBOX);
      expect(answer.status).toBe(200);
      expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
      const preflight = await closed.http().options('/graphql').set('Origin', SANDBOX).set('Access-Control-Request-Method', 'POST');
      expect(preflight.status).not.toBe(204);
      expect(Object.keys(preflight.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
    } finally {
      await closed.close();
    }
  });

  it('is read from the environment: *, a list, off; anything else is refused, naming what is allowed', () => {
    expect(loadConfig({}).corsOrigins).toBe('*');
    expect(loadConfig({ CORS_ORIGINS: 'off' }).corsOrigins).toBe('off');
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://localhost:5173' }).corsOrigins).toEqual(['https://a.example.com', 'http://localhost:5173']);
    for (const bad of ['https://a.example.com/path', 'a.example.com', 'ftp://a.example.com', 'https://a.example.com,', 'on']) {
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ CORS_ORIGINS: bad })).toThrow(/CORS_ORIGINS=.*must be \*, off, or a comma-separated list of origins/);
    }
  });
});

describe('GraphQL answers JSON to the Accept values REST-style clients send', () => {
  it.each([
    [undefined],
    ['*/*'],
    ['application/json'],
    ['application/graphql-response+json'],
    ['application/vnd.service+json'],
    ['application/vnd.github.v3+json'],
    ['application/vnd.github+json'],
    ['application/vnd.github.v3+json, text/plain;q=0.5'],
  ])('Accept: %s', async (accept) => {
    const request = t.http().post('/graphql').set(bearer(DEMO_OWNER_TOKEN)).set('Content-Type', 'application/json');
    const answer = await (accept === undefined ? request.unset('Accept') : request.set('Accept', accept)).send(JSON.stringify(QUERY));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(accept === 'application/graphql-response+json' ? /^application\/graphql-response\+json/ : /^application\/json/);
    expect(JSON.parse(answer.text)).toEqual({ data: { viewer: { login: 'alice' } } });
  });

  it.each([['text/plain'], ['application/xml'], ['application/vnd.github.v3+json;q=0, text/plain']])('an Accept that rules JSON out (%s) is 406', async (accept) => {
    const answer = await t.http().post('/graphql').set(bearer(DEMO_OWNER_TOKEN)).set('Accept', accept).send(QUERY);
    expect(answer.status).toBe(406);
  });

  it('a browser opening /graphql still gets the landing page', async () => {
    const answer = await t.http().get('/graphql').set('Accept', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8');
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('two Authorization headers name no single caller: 400, in either order', () => {
  const orders: Array<[string, string]> = [[DEMO_OWNER_TOKEN, OUTSIDER_TOKEN], [OUTSIDER_TOKEN, DEMO_OWNER_TOKEN], [DEMO_OWNER_TOKEN, DEMO_OWNER_TOKEN]];

  it.each(orders)('REST read: %s then %s', async (first, second) => {
    // Asked once with one token first, so a kept answer exists for the repeated-read path too.
    expect((await t.http().get('/orgs/acme-corp/organization-roles').set(bearer(first))).status).toBeLessThan(500);
    const answer = await rawRequest(`${t.url}/orgs/acme-corp/organization-roles`, 'GET', [['Authorization', `Bearer ${first}`], ['Authorization', `Bearer ${second}`]]);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ message: 'The request has more than one Authorization header. Send exactly one.', status: '400' });
  });

  it.each(orders)('REST write changes nothing: %s then %s', async (first, second) => {
    const before = (await t.http().get('/repos/acme-corp/api/dependency-bot/alerts/1').set(bearer(DEMO_OWNER_TOKEN))).body;
    const answer = await rawRequest(`${t.url}/repos/acme-corp/api/dependency-bot/alerts/1`, 'PATCH',
      [['Authorization', `Bearer ${first}`], ['Content-Type', 'application/json'], ['Authorization', `Bearer ${second}`]],
      JSON.stringify({ state: before.state === 'open' ? 'dismissed' : 'open', dismissed_reason: 'tolerable_risk' }));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body).message).toBe('The request has more than one Authorization header. Send exactly one.');
    const after = (await t.http().get('/repos/acme-corp/api/dependency-bot/alerts/1').set(bearer(DEMO_OWNER_TOKEN))).body;
    expect(after).toEqual(before);
  });

  it.each(orders)('GraphQL: %s then %s', async (first, second) => {
    const answer = await rawRequest(`${t.url}/graphql`, 'POST',
      [['Authorization', `Bearer ${first}`], ['Authorization', `Bearer ${second}`], ['Content-Type', 'application/json']], JSON.stringify(QUERY));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ errors: [{ message: 'The request has more than one Authorization header. Send exactly one.', extensions: { code: 'BAD_USER_INPUT' } }] });
  });
});

describe('the original\'s dependabot segment is an alias on #23–#27 and the auto-triage operations', () => {
  const underDependencyBot = OPERATIONS.filter((op) => op.path.includes('/dependency-bot/'));
  const alertOperations = underDependencyBot.filter((op) => (CATALOGUE[op.name].aliases ?? []).length > 0);

  it('covers exactly the five alert operations, the fourteen of auto-triage and the alert\'s paths; VEX, which the original has not, has no alias', () => {
    expect(alertOperations.map((op) => op.number)).toEqual([23, 24, 25, 26, 27, ...Array.from({ length: 14 }, (_, i) => 32 + i), 71]);
    expect(underDependencyBot.filter((op) => !alertOperations.includes(op)).map((op) => op.number)).toEqual([69, 70]);
  });

  it.each(alertOperations.filter((op) => op.method === 'GET').map((op) => [op.number, op] as const))('#%s answers as under dependency-bot', async (_n, op) => {
    const path = fillPath(op.path, op.sample.params);
    for (const base of ['', '/api/v3']) {
      const product = await t.http().get(`${base}${path}`).query({ per_page: 1 }).set(bearer(DEMO_OWNER_TOKEN));
      const alias = await t.http().get(`${base}${path.replace('/dependency-bot/', '/dependabot/')}`).query({ per_page: 1 }).set(bearer(DEMO_OWNER_TOKEN));
      expect(alias.status).toBe(200);
      expect(alias.body).toEqual(product.body);
      // Link URLs keep the segment (and mount) the request used.
      if (product.headers.link) {
        expect(alias.headers.link).toBe(product.headers.link.replaceAll('/dependency-bot/', '/dependabot/'));
        expect(alias.headers.link).toContain(`${t.url}${base}/`);
      }
    }
  });

  it('#27 updates through the alias, and the product path shows the change', async () => {
    const op = alertOperations.find((o) => o.number === 27)!;
    const path = fillPath(op.path, op.sample.params).replace('/dependency-bot/', '/dependabot/');
    const answer = await t.http().patch(path).set(bearer(DEMO_OWNER_TOKEN)).send({ state: 'dismissed', dismissed_reason: 'inaccurate', dismissed_comment: 'through the alias' });
    expect(answer.status).toBe(200);
    const product = await t.http().get(fillPath(op.path, op.sample.params)).set(bearer(DEMO_OWNER_TOKEN));
    expect(product.body).toMatchObject({ state: 'dismissed', dismissed_reason: 'inaccurate', dismissed_comment: 'through the alias' });
  });

  it('hides what the caller may not see exactly as the product path does', async () => {
    const path = '/repos/acme-corp/api/dependabot/alerts';
    const product = await t.http().get(path.replace('/dependabot/', '/dependency-bot/')).set(bearer('svc_demo_frank_globex'));
    const alias = await t.http().get(path).set(bearer('svc_demo_frank_globex'));
    expect([alias.status, alias.body]).toEqual([product.status, product.body]);
    expect(alias.status).toBe(404);
  });

  it('is only the alert segment: other paths with "dependabot" are not found', async () => {
    for (const path of ['/orgs/acme-corp/dependabot', '/orgs/acme-corp/dependabot/secrets', '/repos/acme-corp/dependabot/alerts']) {
      expect((await t.http().get(path).set(bearer(DEMO_OWNER_TOKEN))).status).toBe(404);
    }
  });
});
