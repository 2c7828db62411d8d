import http, { type Server } from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../src/app';
import { createServices } from '../../src/composition';
import { recordStatements } from '../helpers/statements';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { AL, ENTERPRISE, ORG, OTHER_ORG, REPOS, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';

// The caches (answers per caller and data version, fragments and references per reference
// version, tokens per data version) against the same service with no response cache, over
// the same database: every answer byte-identical, never one caller's answer to another,
// and every write (through the API, another instance, or plain SQL) seen at once.

const advisories = makeAdvisories();
const world = alertsWorld(makeAlerts(240, 11, advisories), advisories);
const CALLERS = Object.values(AL);

let t: TestApp;
let uncached: { server: Server; get: (url: string, token: string, headers?: Record<string, string>) => Promise<request.Response> };

/** A second instance over the same database, with the response cache off. */
async function uncachedInstance() {
  const services = createServices(t.db, { rateLimits: false, responseCacheBytes: 0 });
  const app = await createApp({ services, logger: pino({ level: 'silent' }) });
  const server = await new Promise<Server>((resolve) => {
    const s = http.createServer(app).listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, get: (url: string, token: string, headers: Record<string, string> = {}) => getFrom(server, url, token, headers) };
}

function getFrom(server: Server | (() => request.Agent), url: string, token: string, headers: Record<string, string> = {}): Promise<request.Response> {
  const agent = typeof server === 'function' ? server() : request(server);
  // Both instances answer as the same host, so URLs in bodies and Link headers match.
  return agent.get(url).set({ ...bearer(token), host: 'orgsec.test', ...headers }).buffer(true).parse((res, done) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => done(null, Buffer.concat(chunks)));
  });
}

const cached = (url: string, token: string, headers: Record<string, string> = {}) => getFrom(t.http as () => request.Agent, url, token, headers);

/** What a client can see of an answer: status, bytes and every header but those of one request. */
function visible(res: request.Response) {
  const headers = Object.fromEntries(Object.entries(res.headers).filter(([name]) => !['x-request-id', 'date', 'connection', 'keep-alive'].includes(name)));
  return { status: res.status, body: (res.body as Buffer).toString('utf8'), headers };
}

const urls = [
  `/orgs/${ORG}/dependency-bot/alerts`,
  `/orgs/${ORG}/dependency-bot/alerts?per_page=7&state=open,dismissed&sort=updated`,
  `/orgs/${ORG}/dependency-bot/alerts?severity=high,critical&direction=asc&per_page=50`,
  `/orgs/${OTHER_ORG}/dependency-bot/alerts`,
  `/enterprises/${ENTERPRISE}/dependency-bot/alerts?per_page=20`,
  `/repos/${ORG}/${REPOS[0]}/dependency-bot/alerts?per_page=5`,
  `/repos/${ORG}/${REPOS[4]}/dependency-bot/alerts`,
  `/repos/${ORG}/${REPOS[1]}/dependency-bot/alerts/1`,
  `/api/v3/orgs/${ORG}/dependency-bot/alerts?per_page=3`,
  `/orgs/${ORG}/organization-roles`,
  `/orgs/${ORG}/actions/oidc/customization/sub`,
];

beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
  uncached = await uncachedInstance();
});
afterAll(async () => {
  await new Promise((resolve) => uncached.server.close(resolve));
  await t.close();
});

describe('the response cache', () => {
  it('answers every caller, first and again, byte for byte as the uncached instance does', async () => {
    for (const url of urls) {
      for (const token of CALLERS) {
        const expected = visible(await uncached.get(url, token));
        expect({ url, token, ...visible(await cached(url, token)) }).toEqual({ url, token, ...expected });
        expect({ url, token, ...visible(await cached(url, token)) }).toEqual({ url, token, ...expected });
      }
    }
  });

  it('never shows one caller what was built for another: a caller who may not see a list gets 404 after the owner read it', async () => {
    const url = `/orgs/${ORG}/dependency-bot/alerts?per_page=4`;
    const owner = await cached(url, AL.owner);
    expect(owner.status).toBe(200);
    for (const token of [AL.outsider, AL.member, AL.reader, AL.fineSelected, AL.ownerPublicRepo]) {
      const answer = await cached(url, token, { 'if-none-match': owner.headers.etag! });
      const direct = await uncached.get(url, token, { 'if-none-match': owner.headers.etag! });
      expect({ token, ...visible(answer) }).toEqual({ token, ...visible(direct) });
      expect({ token, status: answer.status }).not.toEqual({ token, status: 304 });
    }
  });

  it('answers If-None-Match with 304 from the cache, and with 200 once the data changed', async () => {
    const url = `/repos/${ORG}/${REPOS[3]}/dependency-bot/alerts?per_page=2`;
    const first = await cached(url, AL.owner);
    const again = await cached(url, AL.owner, { 'if-none-match': first.headers.etag! });
    expect(again.status).toBe(304);
    expect(again.headers.etag).toBe(first.headers.etag);
    const [top] = JSON.parse(first.body.toString());
    const patched = await t.http().patch(`/repos/${ORG}/${REPOS[3]}/dependency-bot/alerts/${top.number}`).set(bearer(AL.owner))
      .send(top.state === 'open' ? { state: 'dismissed', dismissed_reason: 'tolerable_risk' } : { state: 'open' });
    expect(patched.status).toBe(200);
    const after = await cached(url, AL.owner, { 'if-none-match': first.headers.etag! });
    expect(after.status).toBe(200);
    expect(visible(after)).toEqual(visible(await uncached.get(url, AL.owner)));
  });

  it('tags a read by its data version and caller, not its bytes: equal on both instances, new after any write, and never another token\'s', async () => {
    const url = `/repos/${ORG}/${REPOS[4]}/dependency-bot/alerts?per_page=3`;
    const first = await cached(url, AL.owner);
    expect((await uncached.get(url, AL.owner)).headers.etag).toBe(first.headers.etag);
    const other = await cached(url, AL.member);
    if (other.status === 200) expect(other.headers.etag).not.toBe(first.headers.etag);
    // A write to another repository's alert: this page's bytes stay, its tag moves.
    const [elsewhere] = JSON.parse((await cached(`/repos/${ORG}/${REPOS[0]}/dependency-bot/alerts?per_page=1`, AL.owner)).body.toString());
    const patched = await t.http().patch(`/repos/${ORG}/${REPOS[0]}/dependency-bot/alerts/${elsewhere.number}`).set(bearer(AL.owner))
      .send(elsewhere.state === 'open' ? { state: 'dismissed', dismissed_reason: 'tolerable_risk' } : { state: 'open' });
    expect(patched.status).toBe(200);
    const after = await cached(url, AL.owner, { 'if-none-match': first.headers.etag! });
    expect({ status: after.status, same: after.body.toString() === first.body.toString() }).toEqual({ status: 200, same: true });
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(after.headers.etag).toBe((await uncached.get(url, AL.owner)).headers.etag);
  });

  it('sees a write made by another instance over the same database', async () => {
    const url = `/repos/${ORG}/${REPOS[5]}/dependency-bot/alerts?per_page=1`;
    const before = JSON.parse((await cached(url, AL.owner)).body.toString());
    const patched = await request(uncached.server).patch(`/repos/${ORG}/${REPOS[5]}/dependency-bot/alerts/${before[0].number}`).set(bearer(AL.owner))
      .send({ assignees: before[0].assignees.length > 0 ? [] : ['dev-1'] });
    expect(patched.status).toBe(200);
    const after = await cached(url, AL.owner);
    expect(JSON.parse(after.body.toString())[0].assignees).toEqual(JSON.parse(patched.text).assignees);
    expect(visible(after)).toEqual(visible(await uncached.get(url, AL.owner)));
  });

  it('sees a write made with plain SQL, which no service announced', async () => {
    const [alert] = JSON.parse((await cached(`/repos/${ORG}/${REPOS[2]}/dependency-bot/alerts?per_page=1`, AL.owner)).body.toString());
    const url = `/repos/${ORG}/${REPOS[2]}/dependency-bot/alerts/${alert.number}`;
    expect(JSON.parse((await cached(url, AL.owner)).body.toString()).dependency.manifest_path).not.toBe('edited/by/hand.json');
    const repo = await t.db.knex('repositories').where('name', REPOS[2]).first('id');
    await t.db.knex('dependency_alerts').where({ repo_id: repo.id, number: alert.number }).update({ manifest_path: 'edited/by/hand.json' });
    const after = await cached(url, AL.owner);
    expect({ status: after.status, manifest: JSON.parse(after.body.toString()).dependency.manifest_path }).toEqual({ status: 200, manifest: 'edited/by/hand.json' });
  });

  it('rebuilds fragments when a world load changes repositories and advisories', async () => {
    const url = `/orgs/${ORG}/dependency-bot/alerts?per_page=100`;
    await cached(url, AL.owner);
    const changed = {
      ...world,
      repositories: world.repositories.map((r) => ({ ...r, description: `described ${r.name}` })),
      advisories: world.advisories.map((a) => ({ ...a, summary: `${a.summary} (revised)` })),
    };
    await t.load(changed);
    const answer = await cached(url, AL.owner);
    const alerts = JSON.parse(answer.body.toString());
    expect(alerts.every((a: { repository: { name: string; description: string } }) => a.repository.description === `described ${a.repository.name}`)).toBe(true);
    expect(alerts.every((a: { security_advisory: { summary: string } }) => a.security_advisory.summary.endsWith('(revised)'))).toBe(true);
    expect(visible(answer)).toEqual(visible(await uncached.get(url, AL.owner)));
  });

  it('refuses a revoked token at once, though it was just used', async () => {
    const url = `/orgs/${ORG}/dependency-bot/alerts?per_page=1`;
    expect((await cached(url, AL.installation)).status).toBe(200);
    await t.load({ ...world, tokens: world.tokens.map((tk) => (tk.token === AL.installation ? { ...tk, revoked: true } : tk)) });
    expect((await cached(url, AL.installation)).status).toBe(401);
    await t.load(world);
  });

  it('drops a cached grant at once when the role is taken from the caller\'s team with plain SQL, after an alert write', async () => {
    const url = `/orgs/${ORG}/dependency-bot/alerts?per_page=2`;
    expect((await cached(url, AL.securityManager)).status).toBe(200);
    // An alert write between: the grant is decided again under the new version, and still stands.
    const alert = await t.db.knex('dependency_alerts').first('id', 'updated_at');
    await t.db.knex('dependency_alerts').where('id', alert.id).update({ updated_at: alert.updated_at });
    expect((await cached(url, AL.securityManager)).status).toBe(200);
    await t.db.knex('organization_role_teams').delete();
    const after = await cached(url, AL.securityManager);
    expect(after.status).not.toBe(200);
    expect(visible(after)).toEqual(visible(await uncached.get(url, AL.securityManager)));
    await t.load(world);
    expect((await cached(url, AL.securityManager)).status).toBe(200);
  });

  it('refuses a token once it expires, with no write in between', async () => {
    const url = `/orgs/${ORG}/dependency-bot/alerts?per_page=1`;
    const expiresAt = new Date(Date.now() + 6000).toISOString().replace(/\.\d+Z$/, 'Z');
    await t.load({ ...world, tokens: [...world.tokens, { token: 'alerts_token_soon_expired', type: 'classic', user: 'al-owner', scopes: ['repo'], expires_at: expiresAt }] });
    expect((await cached(url, 'alerts_token_soon_expired')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiresAt) - Date.now()) + 1100));
    expect((await cached(url, 'alerts_token_soon_expired')).status).toBe(401);
  });

  it('still refuses, for a request it answered before, an unsupported API version, a token in the URL and a malformed body', async () => {
    const url = `/orgs/${ORG}/dependency-bot/alerts?per_page=2`;
    expect((await cached(url, AL.owner)).status).toBe(200);
    expect((await cached(url, AL.owner, { 'x-service-api-version': '1999-01-01' })).status).toBe(400);
    expect((await cached(url, AL.owner, { 'x-service-api-version': '2026-03-10' })).status).toBe(200);
    expect((await cached(`${url}&access_token=${AL.owner}`, AL.owner)).status).toBe(400);
    const withBody = await t.http().get(url).set({ ...bearer(AL.owner), host: 'orgsec.test', 'content-type': 'application/json' }).send('{not json');
    expect(withBody.status).toBe(400);
    expect((await cached(url, 'svc_not_a_token')).status).toBe(401);
  });

  it('logs and counts an answer given again under the route that built it', async () => {
    const url = `/orgs/${ORG}/dependency-bot/alerts?per_page=6`;
    await cached(url, AL.owner);
    await cached(url, AL.owner);
    const metrics = await t.http().get('/metrics');
    expect(metrics.text).toMatch(/orgsec_http_requests_total\{method="GET",route="\/orgs\/:org\/dependency-bot\/alerts",status="200"\} [2-9]/);
    expect(metrics.text).not.toMatch(/route="unmatched",status="200"/);
  });

  it('after a write to one alert, builds a page of it and others reading only that alert\'s row and assignees again', async () => {
    const url = `/orgs/${ORG}/dependency-bot/alerts?per_page=40&sort=created`;
    const before = JSON.parse((await cached(url, AL.owner)).body.toString());
    const target = before.find((a: { state: string }) => a.state === 'open' || a.state === 'dismissed');
    const patched = await t.http().patch(`/repos/${ORG}/${target.repository.name}/dependency-bot/alerts/${target.number}`).set(bearer(AL.owner))
      .send(target.state === 'open' ? { state: 'dismissed', dismissed_reason: 'tolerable_risk' } : { state: 'open' });
    expect(patched.status).toBe(200);
    const recorded = recordStatements(t.db);
    let after: request.Response;
    try {
      after = await cached(`${url}&direction=desc`, AL.owner); // the same list under a new URL: built, not answered again
    } finally {
      recorded.stop();
    }
    const byId = recorded.sql.filter((sql) => /where .a.\..id. in \(/.test(sql));
    expect(byId).toHaveLength(2); // the alert row and its assignees
    for (const sql of byId) expect(sql).toMatch(/ in \((\?|\$\d+)\)/); // one id: the alert written
    const alerts = JSON.parse(after.body.toString());
    expect(alerts.map((a: { number: number; repository: { name: string } }) => `${a.repository.name}#${a.number}`))
      .toEqual(before.map((a: { number: number; repository: { name: string } }) => `${a.repository.name}#${a.number}`));
    expect(alerts.find((a: { url: string }) => a.url === target.url).state).toBe(JSON.parse(patched.text).state);
    expect(visible(after)).toEqual(visible(await uncached.get(`${url}&direction=desc`, AL.owner)));
  });

  it('sees assignees changed with plain SQL on pages whose alerts it holds', async () => {
    const urls = [`/orgs/${ORG}/dependency-bot/alerts?per_page=25&state=open`, `/orgs/${ORG}/dependency-bot/alerts?per_page=25&state=open&direction=desc`];
    const [first] = JSON.parse((await cached(urls[0]!, AL.owner)).body.toString());
    await cached(urls[1]!, AL.owner);
    const repo = await t.db.knex('repositories').where('name', first.repository.name).first('id');
    const alert = await t.db.knex('dependency_alerts').where({ repo_id: repo.id, number: first.number }).first('id');
    const user = await t.db.knex('accounts').where('login', 'dev-2').first('id');
    await t.db.knex('dependency_alert_assignees').where('alert_id', alert.id).delete();
    await t.db.knex('dependency_alert_assignees').insert({ alert_id: alert.id, user_id: user.id });
    for (const url of urls) {
      const after = await cached(url, AL.owner);
      expect(JSON.parse(after.body.toString())[0].assignees.map((u: { login: string }) => u.login)).toEqual(['dev-2']);
      expect(visible(after)).toEqual(visible(await uncached.get(url, AL.owner)));
    }
  });

  it('answers a repeated read with one SQL statement (the data version), and a cached page with no reference look-ups', async () => {
    const url = `/orgs/${ORG}/dependency-bot/alerts?per_page=30&sort=updated`;
    await cached(url, AL.owner);
    await cached(url, AL.owner); // kept from the second time it is built
    const recorded = recordStatements(t.db);
    const statements = recorded.sql;
    try {
      await cached(url, AL.owner);
      expect(statements).toHaveLength(1);
      expect(statements[0]).toMatch(/from .?data_versions.? where/);
      statements.length = 0;
      await cached(`${url}&direction=asc`, AL.owner); // a new page: built, with references from memory
      expect(statements.filter((sql) => /from .(advisories|repositories|accounts). where .id. in/.test(sql))).toEqual([]);
    } finally {
      recorded.stop();
    }
  });
});
