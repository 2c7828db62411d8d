import http, { type Server } from 'node:http';
import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { createServices, type Services } from '../../src/composition';
import { apiBase } from '../../src/http/api-base';
import { bindRequestServices, identify } from '../../src/http/authenticate';
import { withCachedReadsFirst } from '../../src/http/cached-read-fast-path';
import { operation } from '../../src/http/operation';
import { ResponseCacheGate } from '../../src/http/response-cache-gate';
import { sendJsonText } from '../../src/http/respond';
import { AL, ORG, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';
import { bearer } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The cached-read fast path ahead of Express's router, over the real services and database: which
// requests it serves (the router never sees them) and which it leaves to the whole chain.
// The full app's responses, fast path or not, are held to an uncached instance in response-cache.test.ts.

const advisories = makeAdvisories();
const world = alertsWorld(makeAlerts(12, 3, advisories), advisories);
const URL = `/orgs/${ORG}/things?per_page=2`;

let db: TestDatabase;
let services: Services;
let server: Server;
let rateLimitedServer: Server;
let routed = 0;
let built = 0;
let counted: Array<string | null> = [];

/** One read route (a spec read operation) behind the usual identification and route-level cache, and the fast path in front. */
function listener(rateLimited: boolean) {
  const app = express();
  const gate = new ResponseCacheGate(services.responseCache);
  app.use((_req, _res, next) => {
    routed++;
    next();
  });
  app.use(apiBase, identify(services), bindRequestServices(services, () => true), gate.restReads);
  app.get('/orgs/:org/things', operation('listOrgRoles'), (req, res) => {
    built++;
    const principal = res.locals.principal!;
    sendJsonText(res, 200, JSON.stringify({ org: req.params.org, caller: principal.kind === 'user' ? principal.login : principal.kind, base: res.locals.apiBase }));
  });
  return withCachedReadsFirst(app, {
    gate, versions: services.versions, at: services.at, rateLimited, trustProxy: false, logger: pino({ level: 'silent' }),
    countRequest: (_req, res, route) => res.once('finish', () => counted.push(route())),
  });
}

const listen = (handler: http.RequestListener) => new Promise<Server>((resolve) => {
  const s = http.createServer(handler).listen(0, '127.0.0.1', () => resolve(s));
});

beforeAll(async () => {
  db = await createTestDatabase();
  services = createServices(db, { rateLimits: false });
  await services.world.load(world);
  server = await listen(listener(false));
  rateLimitedServer = await listen(listener(true));
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await new Promise((resolve) => rateLimitedServer.close(resolve));
  await db.destroy();
});
beforeEach(() => {
  routed = 0;
  built = 0;
  counted = [];
});

/** The headers of a response, but those that belong to one request. */
function answerHeaders(res: request.Response): Record<string, unknown> {
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => !['x-request-id', 'date', 'connection', 'keep-alive'].includes(name)));
}

const get = (headers: Record<string, string> = {}, target: Server = server) => request(target).get(URL).set({ ...bearer(AL.owner), ...headers });

describe('the cached-read fast path', () => {
  it('serves a read given before to the same caller without routing it, with the same bytes and headers, counted under its route', async () => {
    const first = await get();
    await get(); // built again: kept from the second time (response-cache.ts)
    const again = await get();
    expect({ routed, built }).toEqual({ routed: 2, built: 2 });
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
    expect(answerHeaders(again)).toEqual(answerHeaders(first));
    expect(counted).toEqual(['/orgs/:org/things']);
  });

  it('answers If-None-Match with a 304 without routing it', async () => {
    const first = await get();
    const conditional = await get({ 'if-none-match': `"other", ${first.headers.etag!}` });
    expect({ status: conditional.status, etag: conditional.headers.etag, routed, built }).toEqual({ status: 304, etag: first.headers.etag, routed: 0, built: 0 });
    // What Express's res.send leaves on a 304: every header but the content ones.
    const { 'content-type': _type, 'content-length': _length, ...rest } = answerHeaders(first);
    expect(answerHeaders(conditional)).toEqual(rest);
    expect((await get({ 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('never gives one caller the response cached for another', async () => {
    await get();
    const other = await get(bearer(AL.reader));
    expect(JSON.parse(other.text).caller).not.toBe(JSON.parse((await get()).text).caller);
    expect(routed).toBe(1);
  });

  it('leaves to the whole chain what it cannot serve alike: a body, another API version, bad credentials, another host, rate limits', async () => {
    await get();
    const before = routed;
    await request(server).get(URL).set({ ...bearer(AL.owner), 'content-type': 'application/json' }).send('{}');
    await get({ 'x-service-api-version': '1999-01-01' });
    await get(bearer('not_a_token'));
    await get({ host: 'elsewhere.test' });
    await get({}, rateLimitedServer);
    await get({}, rateLimitedServer);
    expect(routed - before).toBe(6);
  });

  it('routes again once the data changed, even by plain SQL', async () => {
    const first = await get();
    await get();
    const before = { routed, built };
    await db.knex('accounts').where('login', ORG).update({ name: 'Renamed by hand' });
    const after = await get();
    expect(after.text).toBe(first.text);
    expect({ routed: routed - before.routed, built: built - before.built }).toEqual({ routed: 1, built: 1 });
  });
});
