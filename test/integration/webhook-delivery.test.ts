import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/database/connection';
import { AL, ENTERPRISE, ORG, alertsWorld, makeAdvisories, makeAlerts, type DeclaredAlert } from '../helpers/alerts-world';
import { eventually, startReceiver, type HookReceiver } from '../helpers/hook-receiver';
import { dialect } from '../helpers/test-database';
import { loadWorld, sharedDatabase, startInstance, type Instance, type SharedDatabase } from '../helpers/instances';
import { sigkill } from '../durability/server-process';
import { writeChangedFixture } from '../helpers/advisory-import';

// Webhook delivery with real processes (issue 22): `orgsec serve` instances over one database,
// receivers on local ports, alert changes through the public REST API. Hooks are written as
// rows here (test setup). Counts are small: the retries wait real back-off (1 s, then 2 s…).

const CLI = path.join(__dirname, '..', '..', 'dist', 'src', 'cli', 'index.js');
const PUBLIC_URL = 'https://orgsec.example.com/api';
const SECRET = 'It\'s a Secret to Everybody';
const ENV = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'on', WEBHOOK_TIMEOUT_MS: '1000', PUBLIC_URL };
const owner = { Authorization: `Bearer ${AL.owner}`, 'Content-Type': 'application/json' };

const advisories = makeAdvisories();
const declared = makeAlerts(60, 22, advisories);
/** Alerts of ORG that people can move between open and dismissed, with their state as the test moves them. */
const toggles = declared.filter((a) => a.repository.startsWith(`${ORG}/`) && (a.state === 'open' || a.state === 'dismissed'));
const stateOf = new Map(toggles.map((a) => [a, a.state]));

let shared: SharedDatabase;
let db: Database;
let instance: Instance;
let verify: (secret: string, payload: string, signature: string) => Promise<boolean>;

beforeAll(async () => {
  ({ verify } = await import('@octokit/webhooks-methods'));
  shared = await sharedDatabase();
  instance = await startInstance(shared.url, ENV);
  loadWorld(shared.url, alertsWorld(declared, advisories));
  db = openDatabase(shared.url);
}, 120_000);

afterAll(async () => {
  await instance?.stop();
  await db?.close();
  await shared?.drop();
});

/** Moves an alert open → dismissed or back through #27; answers the status. */
async function toggle(via: Instance, alert: DeclaredAlert): Promise<number> {
  const next = stateOf.get(alert) === 'open' ? { state: 'dismissed', dismissed_reason: 'tolerable_risk' } : { state: 'open' };
  const res = await fetch(`${via.url}/repos/${alert.repository}/dependency-bot/alerts/${alert.number}`, { method: 'PATCH', headers: owner, body: JSON.stringify(next) });
  await res.text();
  if (res.status === 200) stateOf.set(alert, next.state as DeclaredAlert['state']);
  return res.status;
}

let hookCount = 0;
/** A hook row as the hook API writes one; only hooks of the test that creates them are active. */
async function createHook(receiver: HookReceiver, options: { repo?: string; contentType?: 'json' | 'form'; secret?: string | null; events?: string[] } = {}): Promise<number> {
  await db.knex('webhooks').update({ active: false });
  const [name] = (options.repo ?? `${ORG}/`).split('/');
  const orgRow = await db.knex('accounts').where('login', name).first('id');
  const repoRow = options.repo === undefined ? undefined : await db.knex('repositories').where({ owner_id: orgRow.id, name: options.repo.split('/')[1] }).first('id');
  hookCount += 1;
  const [row] = await db.knex('webhooks').insert({
    org_id: repoRow === undefined ? orgRow.id : null, repo_id: repoRow?.id ?? null, name: 'web', active: true,
    events: JSON.stringify(options.events ?? ['dependency_bot_alert']), url: receiver.url, content_type: options.contentType ?? 'json',
    secret: options.secret === undefined ? SECRET : options.secret, insecure_ssl: '0', created_at: '2026-11-27T10:00:00Z', updated_at: '2026-11-27T10:00:00Z',
  }).returning('id');
  return Number(row.id);
}

/** The attempts written for a hook, oldest first. */
async function attemptsOf(hookId: number): Promise<Array<{ guid: string; status: string; status_code: number; request_headers: string; request_body: string; response_body: string | null }>> {
  return db.knex('webhook_delivery_attempts').where('hook_id', hookId).orderBy('id').select('guid', 'status', 'status_code', 'request_headers', 'request_body', 'response_body');
}

/** The guids of a hook's deliveries in event order (what its receiver must see, in that order). */
async function guidsInEventOrder(hookId: number): Promise<string[]> {
  const rows = await db.knex('webhook_deliveries').where('hook_id', hookId).whereNotNull('event_id').orderBy('event_id').select('guid', 'state');
  return rows.map((r: { guid: string | null }) => r.guid ?? 'not yet attempted');
}

describe('a change reaches its hooks', () => {
  it('an organization hook and a repository hook get the dismissal, signed, with the documented headers and payload', async () => {
    const receiver = await startReceiver();
    try {
      const alert = toggles.find((a) => stateOf.get(a) === 'open')!;
      const orgHook = await createHook(receiver);
      const repoHook = await db.knex('webhooks').insert({
        org_id: null, repo_id: (await db.knex('repositories as r').join('accounts as o', 'o.id', 'r.owner_id').where({ 'o.login': ORG, 'r.name': alert.repository.split('/')[1] }).first('r.id')).id,
        name: 'web', active: true, events: '["*"]', url: receiver.url, content_type: 'json', secret: null, insecure_ssl: '0', created_at: '2026-11-27T10:00:00Z', updated_at: '2026-11-27T10:00:00Z',
      }).returning('id').then(([r]) => Number(r.id));
      expect(await toggle(instance, alert)).toBe(200);
      await eventually('both hooks received the dismissal', () => receiver.received.length >= 2);
      const byHook = new Map(receiver.received.map((d) => [d.hookId, d]));
      const org = byHook.get(orgHook)!;
      const repo = byHook.get(repoHook)!;
      expect(org.headers).toMatchObject({
        'content-type': 'application/json', 'user-agent': expect.stringMatching(/^orgsec-Hookshot\/\d+\.\d+\.\d+$/),
        'x-service-event': 'dependency_bot_alert', 'x-service-delivery': expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
        'x-service-hook-id': String(orgHook), 'x-service-hook-installation-target-type': 'organization',
      });
      expect(await verify(SECRET, org.rawBody, String(org.headers['x-hub-signature-256']))).toBe(true);
      expect(await verify('another secret', org.rawBody, String(org.headers['x-hub-signature-256']))).toBe(false);
      expect(repo.headers['x-service-hook-installation-target-type']).toBe('repository');
      expect(repo.headers['x-hub-signature-256']).toBeUndefined();
      const body = JSON.parse(org.rawBody);
      expect(Object.keys(body)).toEqual(['action', 'alert', 'repository', 'organization', 'enterprise', 'sender']);
      expect(body.action).toBe('dismissed');
      expect(body.alert).toMatchObject({
        number: alert.number, state: 'dismissed', dismissed_reason: 'tolerable_risk',
        url: `${PUBLIC_URL}/repos/${alert.repository}/dependency-bot/alerts/${alert.number}`,
        dismissed_by: { login: 'al-owner', url: `${PUBLIC_URL}/users/al-owner` },
      });
      expect(body.alert.repository).toBeUndefined();
      expect(body.repository).toMatchObject({ full_name: alert.repository, url: `${PUBLIC_URL}/repos/${alert.repository}` });
      expect(body.organization).toMatchObject({ login: ORG, url: `${PUBLIC_URL}/orgs/${ORG}` });
      expect(body.enterprise).toMatchObject({ slug: ENTERPRISE });
      expect(body.sender).toMatchObject({ login: 'al-owner', type: 'User' });
      // The alert as #26 answers it at that moment.
      const get = await fetch(`${instance.url}/repos/${alert.repository}/dependency-bot/alerts/${alert.number}`, { headers: owner }).then((r) => r.json());
      expect(JSON.parse(repo.rawBody).alert).toEqual(JSON.parse(JSON.stringify(get).replaceAll(instance.url, PUBLIC_URL)));
      // The attempt log: the request as sent, the answer as received, never the secret.
      const [attempt] = await attemptsOf(orgHook);
      expect(attempt).toMatchObject({ status: 'OK', status_code: 200, guid: org.headers['x-service-delivery'], request_body: org.rawBody, response_body: 'thanks' });
      expect(JSON.parse(attempt!.request_headers)['X-Hub-Signature-256']).toBe(org.headers['x-hub-signature-256']);
      const log = JSON.stringify(await db.knex('webhook_delivery_attempts').select());
      expect(log).not.toContain(SECRET);
    } finally {
      await receiver.close();
    }
  });

  it('a form hook gets payload=<JSON>, form-encoded, signed over the body as sent', async () => {
    const receiver = await startReceiver();
    try {
      await createHook(receiver, { contentType: 'form' });
      const alert = toggles[1]!;
      expect(await toggle(instance, alert)).toBe(200);
      const [delivery] = await eventually('the form delivery', () => receiver.received.length >= 1 && receiver.received);
      expect(delivery!.headers['content-type']).toBe('application/x-www-form-urlencoded');
      expect(await verify(SECRET, delivery!.rawBody, String(delivery!.headers['x-hub-signature-256']))).toBe(true);
      const payload = JSON.parse(new URLSearchParams(delivery!.rawBody).get('payload')!);
      expect(payload).toMatchObject({ action: stateOf.get(alert) === 'open' ? 'reopened' : 'dismissed', alert: { number: alert.number } });
    } finally {
      await receiver.close();
    }
  });

  it('a hook of another event, or an inactive hook, gets nothing', async () => {
    const receiver = await startReceiver();
    try {
      // The hooks of the tests before are inactive now.
      await createHook(receiver, { events: ['security_advisory'] });
      const count = () => db.knex('webhook_deliveries').count({ n: '*' }).then(([r]) => Number(r!.n));
      const before = await count();
      expect(await toggle(instance, toggles[2]!)).toBe(200);
      expect(await count()).toBe(before);
    } finally {
      await receiver.close();
    }
  });
});

describe('a receiver that fails is retried until it answers, on the same delivery', () => {
  it.each([
    ['answers 500', 500, 'Invalid HTTP Response: 500'],
    ['hangs past the timeout', 'hang', 'timed out'],
    ['resets the connection', 'reset', 'connection reset'],
  ] as const)('a receiver that %s, then 200', async (_what, failure, status) => {
    let calls = 0;
    const receiver = await startReceiver(0, () => (++calls === 1 ? failure : 200));
    try {
      const hookId = await createHook(receiver);
      expect(await toggle(instance, toggles[3]!)).toBe(200);
      await eventually('the retry is delivered', async () => (await attemptsOf(hookId)).some((a) => a.status === 'OK'));
      const attempts = await attemptsOf(hookId);
      expect(attempts.map((a) => a.status)).toEqual([status, 'OK']);
      expect(attempts[0]!.guid).toBe(attempts[1]!.guid);
      expect(await db.knex('webhook_deliveries').where('hook_id', hookId).first('state', 'attempts')).toEqual({ state: 'delivered', attempts: 2 });
    } finally {
      await receiver.close();
    }
  }, 30_000);

  it('a receiver that is down, then up: every change delivered, in order', async () => {
    const down = await startReceiver();
    const { port } = down;
    const hookId = await createHook(down);
    await down.close();
    for (const alert of toggles.slice(0, 3)) expect(await toggle(instance, alert)).toBe(200);
    await eventually('a refused attempt', async () => (await attemptsOf(hookId)).some((a) => a.status === 'connection refused'));
    const up = await startReceiver(port);
    try {
      const expected = await guidsInEventOrder(hookId);
      expect(expected).toHaveLength(3);
      await eventually('all three delivered', () => up.received.length >= 3, 30_000);
      expect(up.received.map((d) => d.guid)).toEqual(await guidsInEventOrder(hookId));
      expect(up.overlaps).toEqual([]);
    } finally {
      await up.close();
    }
  }, 45_000);
});

describe('crashes and several instances', () => {
  it('SIGKILL in the middle of a burst: every acknowledged change is delivered after restart, at least once, in order', async () => {
    // The receiver is slow, so deliveries are still queued when the instance dies.
    const receiver = await startReceiver(0, () => new Promise((resolve) => setTimeout(() => resolve(200), 20)));
    try {
      const hookId = await createHook(receiver);
      const acknowledged: number[] = [];
      const burst = (async () => {
        for (let i = 0; i < 40; i++) {
          const status = await toggle(instance, toggles[i % toggles.length]!).catch(() => 0);
          if (status !== 200) break;
          acknowledged.push(i);
        }
      })();
      await eventually('some changes acknowledged', () => acknowledged.length >= 10);
      await sigkill(instance);
      await burst;
      instance = await startInstance(shared.url, ENV);
      const events = await db.knex('events').count({ n: '*' }).then(([r]) => Number(r!.n));
      const queued = await db.knex('webhook_deliveries').where('hook_id', hookId).count({ n: '*' }).then(([r]) => Number(r!.n));
      expect(queued).toBeGreaterThanOrEqual(acknowledged.length);
      await eventually('every queued delivery delivered', async () =>
        (await db.knex('webhook_deliveries').where('hook_id', hookId).whereNot('state', 'delivered').first('id')) === undefined, 30_000);
      const firstSeen = [...new Set(receiver.received.filter((d) => d.hookId === hookId).map((d) => d.guid))];
      expect(firstSeen).toEqual(await guidsInEventOrder(hookId));
      expect(firstSeen.length).toBe(queued);
      expect(events).toBeGreaterThan(0);
      expect(receiver.overlaps).toEqual([]);
    } finally {
      await receiver.close();
    }
  }, 90_000);

  (dialect === 'postgres' ? it : it.skip)('two instances over one PostgreSQL database: each delivery made once at a time, none lost, each hook in order', async () => {
    const second = await startInstance(shared.url, ENV);
    const receiver = await startReceiver(0, () => new Promise((resolve) => setTimeout(() => resolve(200), 5)));
    try {
      const hookA = await createHook(receiver);
      const hookB = await db.knex('webhooks').insert({
        org_id: (await db.knex('accounts').where('login', ORG).first('id')).id, repo_id: null, name: 'web', active: true, events: '["*"]', url: receiver.url,
        content_type: 'json', secret: null, insecure_ssl: '0', created_at: '2026-11-27T10:00:00Z', updated_at: '2026-11-27T10:00:00Z',
      }).returning('id').then(([r]) => Number(r.id));
      // Changes through both instances at once, on distinct alerts.
      const lanes = [instance, second].map(async (via, lane) => {
        const mine = toggles.filter((_a, i) => i % 2 === lane);
        for (let i = 0; i < 12; i++) expect(await toggle(via, mine[i % mine.length]!)).toBe(200);
      });
      await Promise.all(lanes);
      for (const hookId of [hookA, hookB]) {
        await eventually(`hook ${hookId} got all 24`, async () =>
          (await db.knex('webhook_deliveries').where('hook_id', hookId).where('state', 'delivered').count({ n: '*' }).then(([r]) => Number(r!.n))) === 24, 30_000);
        const seen = receiver.received.filter((d) => d.hookId === hookId).map((d) => d.guid);
        expect(seen).toEqual(await guidsInEventOrder(hookId));
      }
      expect(receiver.overlaps).toEqual([]);
    } finally {
      await receiver.close();
      await second.stop();
    }
  }, 90_000);
});

describe('security_advisory', () => {
  it('an import that updates, then withdraws, an advisory with alerts in the organization tells its organization hooks, in order', async () => {
    const receiver = await startReceiver();
    try {
      const hookId = await createHook(receiver, { events: ['security_advisory'] });
      const svcsaId = declared.find((a) => a.repository.startsWith(`${ORG}/`))!.advisory;
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-osv-'));
      // Not spawnSync: the receiver in this process must answer while the import runs.
      const importRevision = async (modified: string, withdrawn?: string) => {
        const file = writeChangedFixture(dir, 'GHSA-4xh4-v2pq-jvhm', (osv) => Object.assign(osv, { id: svcsaId, modified, ...(withdrawn ? { withdrawn } : {}) }));
        const run = await promisify(execFile)(process.execPath, [CLI, 'advisories', 'import', file, '--database', shared.url], { encoding: 'utf8' });
        expect(run.stderr).toBe('');
      };
      await importRevision('2026-11-01T00:00:00Z');
      await importRevision('2026-11-02T00:00:00Z', '2026-11-02T00:00:00Z');
      // The import is another process: this instance finds its deliveries by polling.
      const [updated, withdrawn] = await eventually('both advisory events', () => receiver.received.length >= 2 && receiver.received);
      for (const delivery of [updated!, withdrawn!]) {
        expect(delivery.headers).toMatchObject({ 'x-service-event': 'security_advisory', 'x-service-hook-id': String(hookId) });
        expect(await verify(SECRET, delivery.rawBody, String(delivery.headers['x-hub-signature-256']))).toBe(true);
      }
      const [first, second] = [JSON.parse(updated!.rawBody), JSON.parse(withdrawn!.rawBody)];
      expect(Object.keys(first)).toEqual(['action', 'security_advisory', 'organization', 'enterprise', 'sender']);
      expect(first).toMatchObject({ action: 'updated', security_advisory: { svcsa_id: svcsaId, withdrawn_at: null }, organization: { login: ORG }, sender: { login: 'dependency-bot[bot]', type: 'Bot' } });
      expect(second).toMatchObject({ action: 'withdrawn', security_advisory: { svcsa_id: svcsaId, withdrawn_at: '2026-11-02T00:00:00Z' } });
    } finally {
      await receiver.close();
    }
  }, 60_000);
});
