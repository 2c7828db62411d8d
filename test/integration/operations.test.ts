import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { migrations, migrationSource } from '../../db/migrations';
import { createApp } from '../../src/app';
import { createServices } from '../../src/composition';
import { openDatabase } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { gql } from '../helpers/graphql';
import { parseMetrics, valueOf, type Sample } from '../helpers/prometheus';
import { ORG, TOKENS, rolesWorld } from '../helpers/roles-world';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { createTestDatabase, dialect } from '../helpers/test-database';

const silent = pino({ level: 'silent' });
const rolesPath = `/orgs/${ORG}/organization-roles`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(rolesWorld());
});
afterAll(() => t.close());

async function scrape(app: TestApp = t): Promise<Sample[]> {
  const res = await app.http().get('/metrics');
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parseMetrics(res.text);
}

const requests = (samples: Sample[], method: string, route: string, status: number) =>
  valueOf(samples, 'orgsec_http_requests_total', { method, route, status: String(status) });
const timed = (samples: Sample[], method: string, route: string, status: number) =>
  valueOf(samples, 'orgsec_http_request_duration_seconds_count', { method, route, status: String(status) });
const operations = (samples: Sample[], operation: string, type: string, outcome: string) =>
  valueOf(samples, 'orgsec_graphql_operations_total', { operation, type, outcome });
const totalRequests = (samples: Sample[]) =>
  samples.filter((s) => s.name === 'orgsec_http_requests_total').reduce((sum, s) => sum + s.value, 0);

describe('GET /metrics', () => {
  it('counts each request once by method, route template and status, and GraphQL operations by name and outcome', async () => {
    const before = await scrape();
    expect((await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic))).status).toBe(200);
    expect((await t.http().get(rolesPath).set(bearer(TOKENS.ownerClassic))).status).toBe(200);
    expect((await t.http().get(`${rolesPath}/138`).set(bearer(TOKENS.ownerClassic))).status).toBe(200);
    expect((await t.http().get(`/api/v3${rolesPath}/138`).set(bearer(TOKENS.ownerClassic))).status).toBe(200);
    expect((await t.http().get(`/no/such/path/${ORG}/12345`).set(bearer(TOKENS.ownerClassic))).status).toBe(404);
    expect((await t.http().get(`/api/v3/no/such/${ORG}`).set(bearer(TOKENS.ownerClassic))).status).toBe(404);
    expect((await t.http().get(rolesPath).set(bearer('not-a-valid-token'))).status).toBe(401); // refused before routing
    expect((await gql(t, 'query MetricsProbe { viewer { login } }', { token: TOKENS.ownerClassic })).errors).toBeUndefined();
    expect((await gql(t, '{ viewer { login } }', { token: TOKENS.ownerClassic })).errors).toBeUndefined();
    expect((await gql(t, 'query MissingOrg { organization(login: "no-such-org") { login } }', { token: TOKENS.ownerClassic })).errors).toHaveLength(1);
    // Asking for application/graphql-response+json: a document that does not validate is a 400 (under application/json, a 200).
    const broken = await t.http().post('/graphql').set(bearer(TOKENS.ownerClassic)).set('Accept', 'application/graphql-response+json').send({ query: 'query Broken { viewer { noSuchField } }' });
    expect({ status: broken.status, errors: broken.body.errors?.length }).toEqual({ status: 400, errors: 1 });
    const after = await scrape();

    const delta = (read: (s: Sample[]) => number) => read(after) - read(before);
    expect(delta((s) => requests(s, 'GET', '/orgs/:org/organization-roles', 200))).toBe(2);
    expect(delta((s) => requests(s, 'GET', '/orgs/:org/organization-roles/:role_id', 200))).toBe(1);
    expect(delta((s) => requests(s, 'GET', '/api/v3/orgs/:org/organization-roles/:role_id', 200))).toBe(1);
    expect(delta((s) => requests(s, 'GET', 'unmatched', 404))).toBe(2);
    expect(delta((s) => requests(s, 'GET', 'unmatched', 401))).toBe(1);
    expect(delta((s) => requests(s, 'POST', '/graphql', 200))).toBe(3);
    expect(delta((s) => requests(s, 'POST', '/graphql', 400))).toBe(1); // the validation error
    expect(delta(totalRequests)).toBe(11); // the first scrape is not counted
    // The duration histogram observed exactly the counted requests.
    expect(delta((s) => timed(s, 'GET', '/orgs/:org/organization-roles', 200))).toBe(2);
    expect(delta((s) => timed(s, 'GET', 'unmatched', 404))).toBe(2);

    expect(delta((s) => operations(s, 'MetricsProbe', 'query', 'success'))).toBe(1);
    expect(delta((s) => operations(s, 'anonymous', 'query', 'success'))).toBe(1);
    expect(delta((s) => operations(s, 'MissingOrg', 'query', 'error'))).toBe(1);
    expect(delta((s) => operations(s, 'unknown', 'unknown', 'error'))).toBe(1); // never resolved: failed validation
  });

  it('never puts a raw path, id or login into a label', async () => {
    await t.http().get(`${rolesPath}/users/owner/138`).set(bearer(TOKENS.ownerClassic));
    const samples = await scrape();
    const routes = new Set(samples.filter((s) => s.name.startsWith('orgsec_http_')).map((s) => s.labels.route));
    expect(routes.size).toBeGreaterThan(3);
    for (const route of routes) {
      expect(route === 'unmatched' || route === '/graphql' || /^(\/[a-z0-9-]+|\/:[a-z_]+)+$/.test(route!)).toBe(true);
      expect(route).not.toMatch(new RegExp(`${ORG}|owner|\\d{3,}|no-such`));
    }
    const values = samples.flatMap((s) => Object.values(s.labels)).join('\n');
    expect(values).not.toContain(ORG);
    expect(values).not.toContain('no-such-org');
    expect(values).not.toContain(TOKENS.ownerClassic);
  });

  it('keeps at most 100 operation names as labels and folds later ones into other', async () => {
    await Promise.all(Array.from({ length: 110 }, (_, i) => gql(t, `query Probe${i} { viewer { login } }`, { token: TOKENS.ownerClassic })));
    await gql(t, 'query MetricsProbe { viewer { login } }', { token: TOKENS.ownerClassic }); // a name kept earlier stays itself
    const labels = new Set((await scrape()).filter((s) => s.name === 'orgsec_graphql_operations_total').map((s) => s.labels.operation!));
    const named = [...labels].filter((name) => !['anonymous', 'unknown', 'other'].includes(name));
    expect(named).toHaveLength(100);
    expect(named).toContain('MetricsProbe');
    expect(labels.has('other')).toBe(true);
  });

  it('does not count itself or the probes', async () => {
    const before = totalRequests(await scrape());
    await t.http().get('/healthz');
    await t.http().get('/readyz');
    expect(totalRequests(await scrape())).toBe(before);
    expect((await scrape()).some((s) => s.labels.route === '/metrics')).toBe(false);
  });

  it('reports database query durations by dialect, the pool state and the default process metrics', async () => {
    const samples = await scrape();
    expect(valueOf(samples, 'orgsec_db_query_duration_seconds_count', { dialect, outcome: 'success' })).toBeGreaterThan(0);
    const used = samples.find((s) => s.name === 'orgsec_db_pool_connections_used');
    const free = samples.find((s) => s.name === 'orgsec_db_pool_connections_free');
    expect(used?.labels).toEqual({ dialect });
    expect(used!.value + free!.value).toBeGreaterThan(0); // the pool holds at least one connection by now
    expect(samples.find((s) => s.name === 'orgsec_db_pool_pending_acquires')?.value).toBe(0);
    expect(samples.some((s) => s.name === 'process_cpu_user_seconds_total')).toBe(true);
    expect(samples.some((s) => s.name === 'nodejs_heap_size_used_bytes')).toBe(true);
  });

  it('counts a failed query as an error', async () => {
    const before = valueOf(await scrape(), 'orgsec_db_query_duration_seconds_count', { dialect, outcome: 'error' });
    const refused = await t.db.knex.raw('select * from no_such_table').then(() => 'answered', (error: { message?: string }) => String(error?.message));
    expect(refused).toMatch(/no_such_table/);
    // knex may emit 'query-error' after the rejection settles: wait for the event, boundedly.
    const errors = async () => valueOf(await scrape(), 'orgsec_db_query_duration_seconds_count', { dialect, outcome: 'error' });
    for (let tries = 0; tries < 50 && (await errors()) === before; tries++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await errors()).toBe(before + 1);
  });
});

describe('/healthz and /readyz', () => {
  it('answer without credentials and without being rate limited', async () => {
    const limited = await createTestApp({ rateLimits: { windowSeconds: 3600, authenticatedLimit: 1, anonymousLimit: 1, writeWindowSeconds: 60, writeLimit: 1, spammedStatus: 429 } });
    try {
      for (let i = 0; i < 3; i++) {
        for (const path of ['/healthz', '/readyz', '/metrics']) {
          const res = await limited.http().get(path).set('Authorization', 'Bearer not-a-valid-token');
          expect([path, res.status]).toEqual([path, 200]);
          expect(res.headers['x-ratelimit-limit']).toBeUndefined();
        }
      }
      expect((await limited.http().get('/healthz')).body).toEqual({ status: 'ok' });
      expect((await limited.http().get('/readyz')).body).toEqual({ status: 'ready' });
    } finally {
      await limited.close();
    }
  });

  it('when the database cannot be reached, /healthz still answers 200 and /readyz 503 saying so', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-unreachable-'));
    // Nothing listens on port 1; a directory is no SQLite file.
    const database = openDatabase(dialect === 'postgres' ? 'postgres://postgres@127.0.0.1:1/none' : dir);
    try {
      const app = await createApp({ services: createServices(database), logger: silent });
      expect((await request(app).get('/healthz')).body).toEqual({ status: 'ok' });
      const ready = await request(app).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^database unreachable: /) });
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('when a migration is pending, /readyz answers 503 naming it, and 200 once migrated', async () => {
    const db = await createTestDatabase({ migrate: false });
    try {
      // Migrated by an older build: every migration but the last.
      const older = { ...migrationSource, getMigrations: async () => migrations.slice(0, -1) };
      await db.knex.migrate.latest({ migrationSource: older, ...(db.schema ? { schemaName: db.schema } : {}) });
      const app = await createApp({ services: createServices(db), logger: silent });
      const last = migrations[migrations.length - 1]![0];
      const pending = await request(app).get('/readyz');
      expect(pending.status).toBe(503);
      expect(pending.body).toEqual({ status: 'unavailable', reason: `1 migration pending: ${last}` });
      expect((await request(app).get('/healthz')).status).toBe(200);

      await migrateLatest(db);
      const ready = await request(app).get('/readyz');
      expect([ready.status, ready.body]).toEqual([200, { status: 'ready' }]);
    } finally {
      await db.destroy();
    }
  });
});
