import { Writable } from 'node:stream';
import pino from 'pino';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { hashTables } from '../helpers/table-hash';
import { ORG, PRIVATE, PUBLIC, SECRET, SOLO, T, recordAttempt, webhooksWorld } from '../helpers/webhooks-world';

// Interfaces.md Part 2 "Webhooks", the API surface, through real HTTP: hooks at organization and
// repository level, pings and redeliveries queued for the delivery worker, the deliveries log
// (never cached), every refusal naming its field with nothing stored, who may call, and the
// secret never shown.

const logLines: string[] = [];
let t: TestApp;
beforeAll(async () => {
  const sink = new Writable({ write(chunk, _encoding, done) { logLines.push(String(chunk)); done(); } });
  t = await createTestApp({ logger: pino({ level: 'debug' }, sink) });
  await t.load(webhooksWorld());
});
afterAll(() => t.close());

const as = bearer;
const orgHooks = `/orgs/${ORG}/hooks`;
const repoHooks = (repo: string) => `/repos/${repo}/hooks`;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const RECEIVER = 'https://hooks.example.com/orgsec';

async function create(path: string, body: object, token: string = T.owner) {
  return t.http().post(path).set(as(token)).send(body);
}

/** Sends a request that must be refused with `status`, and checks that no table changed. */
async function expectRefusedUnchanged(send: () => PromiseLike<{ status: number; body: any }>, status: number) {
  const before = await hashTables(t.db.knex);
  const res = await send();
  expect(res.status).toBe(status);
  expect(await hashTables(t.db.knex)).toEqual(before);
  return res.body;
}

const queued = (hookId: number) => t.db.knex('webhook_deliveries').where('hook_id', hookId).orderBy('id');

describe('organization hooks', () => {
  it('creates, reads, lists, updates and deletes a hook, in the original\'s shape', async () => {
    const created = await create(orgHooks, { name: 'web', config: { url: RECEIVER, content_type: 'json', secret: SECRET }, events: ['dependency_bot_alert', 'security_advisory'] });
    expect(created.status).toBe(201);
    const id = created.body.id;
    const url = `${t.url}/orgs/${ORG}/hooks/${id}`;
    expect(created.body).toEqual({
      id: expect.any(Number), type: 'Organization', name: 'web', active: true, events: ['dependency_bot_alert', 'security_advisory'],
      config: { url: RECEIVER, content_type: 'json', secret: '********', insecure_ssl: '0' },
      created_at: expect.stringMatching(TIME), updated_at: expect.stringMatching(TIME), url, ping_url: `${url}/pings`, deliveries_url: `${url}/deliveries`,
    });
    expect((await t.http().get(`${orgHooks}/${id}`).set(as(T.owner))).body).toEqual(created.body);
    expect((await t.http().get(orgHooks).set(as(T.owner))).body).toContainEqual(created.body);

    const updated = await t.http().patch(`${orgHooks}/${id}`).set(as(T.owner)).send({ active: false, events: ['*'], config: { content_type: 'form', insecure_ssl: 1 } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, active: false, events: ['*'], config: { url: RECEIVER, content_type: 'form', secret: '********', insecure_ssl: '1' } });
    const unsigned = await t.http().patch(`${orgHooks}/${id}`).set(as(T.owner)).send({ config: { secret: null } });
    expect(unsigned.body.config).toEqual({ url: RECEIVER, content_type: 'form', insecure_ssl: '1' });
    expect((await t.db.knex('webhooks').where('id', id).first('secret')).secret).toBeNull();

    expect((await t.http().delete(`${orgHooks}/${id}`).set(as(T.owner))).status).toBe(204);
    expect((await t.http().get(`${orgHooks}/${id}`).set(as(T.owner))).status).toBe(404);
    expect(await queued(id)).toEqual([]); // its queue went with it
  });

  it('defaults to active, dependency_bot_alert, json and no secret; keeps events once each', async () => {
    const res = await create(orgHooks, { name: 'web', config: { url: RECEIVER } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ active: true, events: ['dependency_bot_alert'], config: { url: RECEIVER, content_type: 'json', insecure_ssl: '0' } });
    expect(res.body.config).not.toHaveProperty('secret');
    const twice = await create(orgHooks, { name: 'web', config: { url: RECEIVER }, events: ['ping', 'ping', 'security_advisory'] });
    expect(twice.body.events).toEqual(['ping', 'security_advisory']);
  });

  it('queues a ping when an active hook is created and when it is pinged, with the hook as the API shows it', async () => {
    const hook = (await create(orgHooks, { name: 'web', config: { url: RECEIVER, secret: SECRET } })).body;
    const before = Date.now();
    expect((await t.http().post(`${orgHooks}/${hook.id}/pings`).set(as(T.owner))).status).toBe(204);
    const rows = await queued(hook.id);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ hook_id: hook.id, event: 'ping', action: null, repo_id: null, state: 'pending', guid: null });
      expect(Number(row.attempts)).toBe(0);
      expect(Boolean(row.redelivery)).toBe(false);
      expect(Number(row.created_ms)).toBe(Number(row.next_attempt_at));
      expect(JSON.parse(row.payload)).toEqual({ zen: expect.any(String), hook_id: hook.id, hook });
      expect(row.payload).not.toContain(SECRET);
    }
    expect(Number(rows[1].next_attempt_at)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('queues no ping for a hook created inactive, but pings it on request', async () => {
    const hook = (await create(orgHooks, { name: 'web', active: false, config: { url: RECEIVER } })).body;
    expect(await queued(hook.id)).toEqual([]);
    expect((await t.http().post(`${orgHooks}/${hook.id}/pings`).set(as(T.owner))).status).toBe(204);
    expect(await queued(hook.id)).toHaveLength(1);
  });

  it('answers 404 for a hook of a repository or another organization, as for a missing one', async () => {
    const repoHook = (await create(repoHooks(PRIVATE), { config: { url: RECEIVER } })).body;
    const missing = await t.http().get(`${orgHooks}/999999`).set(as(T.owner));
    expect(missing.status).toBe(404);
    const read = await t.http().get(`${orgHooks}/${repoHook.id}`).set(as(T.owner));
    expect([read.status, read.body]).toEqual([404, missing.body]);
    const ping = await expectRefusedUnchanged(() => t.http().post(`${orgHooks}/${repoHook.id}/pings`).set(as(T.owner)), 404);
    expect(ping.message).toBe('Not Found');
    const theirs = (await create('/orgs/wh-elsewhere/hooks', { name: 'web', config: { url: RECEIVER } }, T.outsider)).body;
    const foreign = await t.http().get(`${orgHooks}/${theirs.id}`).set(as(T.owner));
    expect([foreign.status, foreign.body]).toEqual([404, missing.body]);
  });
});

describe('repository hooks', () => {
  it('creates without a name, and PATCH takes add_events and remove_events', async () => {
    const created = await create(repoHooks(PRIVATE), { config: { url: RECEIVER }, events: ['dependency_bot_alert'] });
    expect(created.status).toBe(201);
    const url = `${t.url}/repos/${PRIVATE}/hooks/${created.body.id}`;
    expect(created.body).toMatchObject({ type: 'Repository', name: 'web', url, ping_url: `${url}/pings`, deliveries_url: `${url}/deliveries` });
    const patched = await t.http().patch(`${repoHooks(PRIVATE)}/${created.body.id}`).set(as(T.owner)).send({ add_events: ['security_advisory', 'ping'], remove_events: ['dependency_bot_alert'] });
    expect(patched.status).toBe(200);
    expect(patched.body.events).toEqual(['security_advisory', 'ping']);
    const replaced = await t.http().patch(`${repoHooks(PRIVATE)}/${created.body.id}`).set(as(T.owner)).send({ events: ['*'], add_events: ['ping'] });
    expect(replaced.body.events).toEqual(['*', 'ping']);
  });

  it('queues a ping with the repository', async () => {
    const hook = (await create(repoHooks(PUBLIC), { config: { url: RECEIVER }, active: false })).body;
    await t.http().post(`${repoHooks(PUBLIC)}/${hook.id}/pings`).set(as(T.owner)).expect(204);
    const [row] = await queued(hook.id);
    const repoId = (await t.db.knex('repositories').where('name', 'wh-public').first('id')).id;
    expect(Number(row.repo_id)).toBe(Number(repoId));
    expect(JSON.parse(row.payload).hook).toEqual(hook);
  });
});

describe('refusals name the field and store nothing', () => {
  const cases: Array<[string, string, object, string]> = [
    ['an organization hook without name', orgHooks, { config: { url: RECEIVER } }, 'name'],
    ['a name other than web', orgHooks, { name: 'slack', config: { url: RECEIVER } }, 'name'],
    ['no config', orgHooks, { name: 'web' }, 'config'],
    ['no config.url', orgHooks, { name: 'web', config: { content_type: 'json' } }, 'config.url'],
    ['a relative URL', orgHooks, { name: 'web', config: { url: '/receiver' } }, 'config.url'],
    ['an unknown event', orgHooks, { name: 'web', config: { url: RECEIVER }, events: ['dependency_bot_alert', 'push'] }, 'events.1'],
    ['an unknown content type', orgHooks, { name: 'web', config: { url: RECEIVER, content_type: 'xml' } }, 'config.content_type'],
    ['insecure_ssl 2', orgHooks, { name: 'web', config: { url: RECEIVER, insecure_ssl: '2' } }, 'config.insecure_ssl'],
    ['active as a string', orgHooks, { name: 'web', config: { url: RECEIVER }, active: 'yes' }, 'active'],
    ['an unknown key', orgHooks, { name: 'web', config: { url: RECEIVER }, last_response: {} }, 'last_response'],
    ['an unknown config key', orgHooks, { name: 'web', config: { url: RECEIVER, username: 'me' } }, 'config.username'],
    ['add_events on an organization hook', `${orgHooks}/1`, { add_events: ['ping'] }, 'add_events'],
    ['a loopback URL', repoHooks(PRIVATE), { config: { url: 'http://127.0.0.1:8080/hook' } }, 'config.url'],
    ['a metadata address', repoHooks(PRIVATE), { config: { url: 'http://169.254.169.254/latest/meta-data' } }, 'config.url'],
    ['localhost', repoHooks(PRIVATE), { config: { url: 'http://localhost:3000/' } }, 'config.url'],
    ['a private IPv6 address', repoHooks(PRIVATE), { config: { url: 'http://[fd00::1]/hook' } }, 'config.url'],
    ['credentials in the URL', repoHooks(PRIVATE), { config: { url: 'https://user:pass@hooks.example.com/' } }, 'config.url'],
    ['an ftp URL', repoHooks(PRIVATE), { config: { url: 'ftp://hooks.example.com/' } }, 'config.url'],
  ];
  it.each(cases)('%s: 422 naming the field', async (_name, path, body, field) => {
    const method = path.endsWith('/1') ? 'patch' : 'post';
    if (method === 'patch') {
      // A hook of the organization to patch: its id goes in the path.
      const hook = (await create(orgHooks, { name: 'web', config: { url: RECEIVER }, active: false })).body;
      path = `${orgHooks}/${hook.id}`;
    }
    const res = await expectRefusedUnchanged(() => t.http()[method](path).set(as(T.owner)).send(body), 422);
    expect(res.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(res.message).toContain(field);
  });

  it('refuses a loopback URL on PATCH too, and accepts it when private targets are allowed', async () => {
    const hook = (await create(orgHooks, { name: 'web', config: { url: RECEIVER }, active: false })).body;
    const body = await expectRefusedUnchanged(() => t.http().patch(`${orgHooks}/${hook.id}`).set(as(T.owner)).send({ config: { url: 'http://10.0.0.7/hook' } }), 422);
    expect(body.message).toBe('"config.url" points to a private address. The server allows such targets only when started with WEBHOOK_ALLOW_PRIVATE_TARGETS=on.');
    const local = await createTestApp({ webhookAllowPrivateTargets: true });
    try {
      await local.load(webhooksWorld());
      const res = await local.http().post(orgHooks).set(as(T.owner)).send({ name: 'web', config: { url: 'http://127.0.0.1:9/hook' } });
      expect(res.status).toBe(201);
      // Still http or https only, without credentials.
      expect((await local.http().post(orgHooks).set(as(T.owner)).send({ name: 'web', config: { url: 'file:///etc/passwd' } })).status).toBe(422);
    } finally {
      await local.close();
    }
  });

  it('refuses a secret that cannot be stored without showing it', async () => {
    const body = await expectRefusedUnchanged(() => create(orgHooks, { name: 'web', config: { url: RECEIVER, secret: `${SECRET}\u0000` } }), 422);
    expect(body.errors[0].field).toBe('config.secret');
    expect(JSON.stringify(body)).not.toContain(SECRET);
  });

  it('refuses bad path ids and bad delivery queries with 4xx, never 500', async () => {
    for (const path of [`${orgHooks}/abc`, `${orgHooks}/0`, `${orgHooks}/1e3`, `${orgHooks}/1/deliveries/x`, `${orgHooks}/1/deliveries?per_page=0`, `${orgHooks}/1/deliveries?status=ok`]) {
      const res = await t.http().get(path).set(as(T.owner));
      expect([path, res.status]).toEqual([path, 422]);
    }
    expect((await t.http().get(`${orgHooks}/1/deliveries?cursor=forged`).set(as(T.owner))).status).toBeLessThan(500);
  });

  it('holds the limit of 20 hooks per repository', async () => {
    const path = repoHooks(SOLO);
    for (let i = 0; i < 20; i++) expect((await create(path, { config: { url: `${RECEIVER}/${i}` }, active: false }, T.solo)).status).toBe(201);
    const body = await expectRefusedUnchanged(() => create(path, { config: { url: `${RECEIVER}/21` } }, T.solo), 422);
    expect(body.message).toBe('A repository can have at most 20 hooks.');
  });
});

describe('deliveries', () => {
  let hook: { id: number };
  let deliveries: string;
  beforeAll(async () => {
    hook = (await create(repoHooks(PRIVATE), { config: { url: RECEIVER, secret: SECRET } })).body;
    deliveries = `${repoHooks(PRIVATE)}/${hook.id}/deliveries`;
  });

  it('lists one item per attempt, newest first, and a new attempt shows on the next read (no cache)', async () => {
    const [ping] = await queued(hook.id);
    const first = await recordAttempt(t.db.knex, Number(ping.id), { statusCode: 500, responseBody: '<html>oops</html>' });
    const listed = await t.http().get(deliveries).set(as(T.owner));
    expect(listed.status).toBe(200);
    const repoId = Number((await t.db.knex('repositories').where('name', 'wh-private').first('id')).id);
    expect(listed.body).toEqual([{
      id: first, guid: expect.stringMatching(/^[0-9a-f-]{36}$/), delivered_at: '2026-11-27T10:00:00Z', redelivery: false, duration: 0.25,
      status: 'Invalid HTTP Response: 500', status_code: 500, event: 'ping', action: null, installation_id: null, repository_id: repoId, url: RECEIVER,
      throttled_at: null,
    }]);
    // The worker retries: a row no data version counts, seen at once, even with the ETag of the first answer.
    const second = await recordAttempt(t.db.knex, Number(ping.id));
    const again = await t.http().get(deliveries).set(as(T.owner)).set('If-None-Match', String(listed.headers.etag));
    expect(again.status).toBe(200);
    expect(again.body.map((d: { id: number }) => d.id)).toEqual([second, first]);
    expect(again.body[0].guid).toBe(again.body[1].guid);
    const detail = await t.http().get(`${deliveries}/${first}`).set(as(T.owner));
    expect(detail.status).toBe(200);
    expect(detail.body.response).toEqual({ headers: { 'content-type': 'text/plain' }, payload: '<html>oops</html>' });
    // The detail too is read fresh: the attempt row changed under it is seen at once.
    await t.db.knex('webhook_delivery_attempts').where('id', first).update({ response_body: '{"ok":false}' });
    expect((await t.http().get(`${deliveries}/${first}`).set(as(T.owner))).body.response.payload).toEqual({ ok: false });
  });

  it('shows one attempt with the request and response, the JSON payload parsed', async () => {
    const [ping] = await queued(hook.id);
    const id = await recordAttempt(t.db.knex, Number(ping.id), { responseBody: '{"received":true}' });
    const res = await t.http().get(`${deliveries}/${id}`).set(as(T.owner));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, event: 'ping', status: 'OK', status_code: 200 });
    expect(res.body.request.headers).toMatchObject({ 'X-Service-Event': 'ping' });
    expect(res.body.request.payload).toEqual({ zen: expect.any(String), hook_id: hook.id, hook: expect.objectContaining({ id: hook.id }) });
    expect(res.body.response.payload).toEqual({ received: true });
    expect(JSON.stringify(res.body)).not.toContain(SECRET);
  });

  it('pages with the original\'s cursor through Link, and filters by status', async () => {
    const [ping] = await queued(hook.id);
    for (let i = 0; i < 3; i++) await recordAttempt(t.db.knex, Number(ping.id), { statusCode: i === 0 ? 502 : 200 });
    const all = (await t.http().get(`${deliveries}?per_page=100`).set(as(T.owner))).body.map((d: { id: number }) => d.id);
    const seen: number[] = [];
    let next: string | undefined = `${deliveries}?per_page=2`;
    while (next) {
      const res: { body: Array<{ id: number }>; headers: Record<string, string> } = await t.http().get(next).set(as(T.owner));
      seen.push(...res.body.map((d) => d.id));
      const link: string | undefined = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
      next = link ? new URL(link).pathname + new URL(link).search : undefined;
      if (next) expect(next).toContain('cursor=');
    }
    expect(seen).toEqual(all);
    const failures = (await t.http().get(`${deliveries}?status=failure&per_page=100`).set(as(T.owner))).body;
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.every((d: { status_code: number }) => d.status_code < 200 || d.status_code > 299)).toBe(true);
    const successes = (await t.http().get(`${deliveries}?status=success&per_page=100`).set(as(T.owner))).body;
    expect(successes.length + failures.length).toBe(all.length);
  });

  it('redelivers: 202 and a pending delivery with the same guid, marked as a redelivery', async () => {
    const [ping] = await queued(hook.id);
    const attempt = await recordAttempt(t.db.knex, Number(ping.id));
    const res = await t.http().post(`${deliveries}/${attempt}/attempts`).set(as(T.owner));
    expect(res.status).toBe(202);
    const rows = await queued(hook.id);
    const redelivery = rows[rows.length - 1];
    const original = await t.db.knex('webhook_deliveries').where('id', ping.id).first();
    expect(redelivery).toMatchObject({ hook_id: hook.id, event: 'ping', action: null, guid: original.guid, payload: original.payload, state: 'pending' });
    expect(Boolean(redelivery.redelivery)).toBe(true);
    expect(Number(redelivery.id)).not.toBe(Number(ping.id));
  });

  it('answers 404 for an unknown delivery, or another hook\'s, and queues nothing', async () => {
    const other = (await create(repoHooks(PRIVATE), { config: { url: RECEIVER } })).body;
    const [otherPing] = await queued(other.id);
    const foreign = await recordAttempt(t.db.knex, Number(otherPing.id));
    for (const id of [999999, foreign, Number.MAX_SAFE_INTEGER]) {
      await expectRefusedUnchanged(() => t.http().post(`${deliveries}/${id}/attempts`).set(as(T.owner)), 404);
      expect((await t.http().get(`${deliveries}/${id}`).set(as(T.owner))).status).toBe(404);
    }
  });
});

describe('who may call', () => {
  const hookBody = { name: 'web', config: { url: RECEIVER }, active: false };

  it('organization hooks: an owner with admin:org_hook; admin:org is not enough', async () => {
    expect((await create(orgHooks, hookBody, T.owner)).status).toBe(201);
    const refused = await expectRefusedUnchanged(() => create(orgHooks, hookBody, T.ownerAdminOrg), 403);
    expect(refused.message).toContain('admin:org_hook');
    await expectRefusedUnchanged(() => create(orgHooks, hookBody, T.ownerRepoHook), 403);
    await expectRefusedUnchanged(() => create(orgHooks, hookBody, T.member), 403);
    expect((await t.http().get(orgHooks).set(as(T.member))).status).toBe(403);
  });

  it('fine-grained organization_hooks: read for GET, write otherwise; installations by permission alone', async () => {
    expect((await t.http().get(orgHooks).set(as(T.fineRead))).status).toBe(200);
    await expectRefusedUnchanged(() => create(orgHooks, hookBody, T.fineRead), 403);
    expect((await create(orgHooks, hookBody, T.fineWrite)).status).toBe(201);
    expect((await create(orgHooks, hookBody, T.installation)).status).toBe(201);
    expect((await t.http().get(orgHooks).set(as(T.fineRepoWrite))).status).toBe(403);
  });

  it('repository hooks: a repository admin with admin:repo_hook; writers may not; private repositories stay invisible', async () => {
    const repoBody = { config: { url: RECEIVER }, active: false };
    expect((await create(repoHooks(PRIVATE), repoBody, T.repoAdmin)).status).toBe(201);
    expect((await create(repoHooks(PRIVATE), repoBody, T.ownerRepoHook)).status).toBe(201); // an owner is an admin of its repositories
    await expectRefusedUnchanged(() => create(repoHooks(PRIVATE), repoBody, T.writer), 403);
    await expectRefusedUnchanged(() => create(repoHooks(PRIVATE), repoBody, T.ownerAdminOrg), 403);
    const hidden = await t.http().get(repoHooks(PRIVATE)).set(as(T.outsider));
    const missing = await t.http().get(repoHooks(`${ORG}/no-such-repo`)).set(as(T.outsider));
    expect([hidden.status, hidden.body]).toEqual([404, missing.body]);
    expect((await t.http().get(repoHooks(PUBLIC)).set(as(T.outsider))).status).toBe(403);
    expect((await t.http().get(repoHooks(PRIVATE)).set(as(T.fineRead))).status).toBe(200);
    expect((await create(repoHooks(PRIVATE), repoBody, T.fineRepoWrite)).status).toBe(201);
    expect((await t.http().get(repoHooks(PRIVATE))).status).toBe(401);
  });
});

describe('world files', () => {
  const declared = (events: string[]) => ({
    webhooks: [
      { org: ORG, config: { url: 'https://hooks.example.com/world', secret: SECRET }, events, active: false },
      { repository: PUBLIC, config: { url: 'https://hooks.example.com/world-repo', content_type: 'form', insecure_ssl: 1 } },
    ],
  });

  it('load hooks by owner and config.url: loading twice changes nothing, a change updates the hook', async () => {
    await t.load(declared(['security_advisory']));
    const hooks = await t.db.knex('webhooks').where('url', 'like', 'https://hooks.example.com/world%').orderBy('id');
    expect(hooks.map((h) => [h.url, h.content_type, h.insecure_ssl, h.secret, JSON.parse(h.events)])).toEqual([
      ['https://hooks.example.com/world', 'json', '0', SECRET, ['security_advisory']],
      ['https://hooks.example.com/world-repo', 'form', '1', null, ['dependency_bot_alert']],
    ]);
    const before = await hashTables(t.db.knex);
    await t.load(declared(['security_advisory']));
    expect(await hashTables(t.db.knex)).toEqual(before);
    await t.load(declared(['*']));
    const after = await t.db.knex('webhooks').where('url', 'https://hooks.example.com/world').first('id', 'events');
    expect([after.id, JSON.parse(after.events)]).toEqual([hooks[0].id, ['*']]);
    expect(await t.db.knex('webhook_deliveries').whereIn('hook_id', hooks.map((h) => h.id))).toEqual([]); // a world declares state, not events
    const shown = await t.http().get(`${orgHooks}/${hooks[0].id}`).set(as(T.owner));
    expect(shown.body.config.secret).toBe('********');
  });

  it.each([
    [{ webhooks: [{ org: ORG, config: { url: RECEIVER }, events: ['push'] }] }, 'webhooks[0].events[0]'],
    [{ webhooks: [{ org: ORG, repository: PUBLIC, config: { url: RECEIVER } }] }, 'webhooks[0]'],
    [{ webhooks: [{ org: ORG, config: { url: 'ftp://hooks.example.com/' } }] }, 'webhooks[0].config.url'],
    [{ webhooks: [{ org: 'no-such-org', config: { url: RECEIVER } }] }, 'webhooks[0]'],
    [{ webhooks: [{ org: ORG, config: { url: RECEIVER, secret: 42 } }] }, 'webhooks[0].config.secret'],
  ])('refuses %j naming %s, loading nothing', async (world, entry) => {
    const before = await hashTables(t.db.knex);
    const error = await t.load(world).then(() => undefined, (e: Error) => e);
    expect(error?.message).toContain(entry);
    expect(error?.message).not.toContain(SECRET);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });
});

it('never shows a secret: not in any answer, log line or error message', async () => {
  const answers: string[] = [];
  const keep = <R extends { text: string }>(res: R) => { answers.push(res.text); return res; };
  const hook = keep(await create(orgHooks, { name: 'web', config: { url: RECEIVER, secret: SECRET } })).body;
  keep(await t.http().get(`${orgHooks}/${hook.id}`).set(as(T.owner)));
  keep(await t.http().get(orgHooks).set(as(T.owner)));
  keep(await t.http().patch(`${orgHooks}/${hook.id}`).set(as(T.owner)).send({ config: { secret: `${SECRET}-2` } }));
  keep(await t.http().patch(`${orgHooks}/${hook.id}`).set(as(T.owner)).send({ config: { secret: 42 } }));
  keep(await t.http().patch(`${orgHooks}/${hook.id}`).set(as(T.owner)).send({ config: { secret: SECRET, url: 'http://127.0.0.1/' } }));
  keep(await t.http().post(orgHooks).set(as(T.member)).send({ name: 'web', config: { url: RECEIVER, secret: SECRET } }));
  keep(await t.http().post('/graphql').set(as(T.owner)).send({ query: `{ organization(login: "${ORG}") { webhooks(first: 50) { edges { node { config { secret url } } } } } }` }));
  expect(answers.length).toBe(8);
  for (const text of [...answers, ...logLines]) expect(text).not.toContain(SECRET);
  expect((await t.db.knex('webhooks').where('id', hook.id).first('secret')).secret).toBe(`${SECRET}-2`);
});
