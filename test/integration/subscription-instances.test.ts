import knexFactory, { type Knex } from 'knex';
import request from 'supertest';
import { AL, ORG, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';
import { loadWorld, sharedDatabase, startInstances, type Instance, type SharedDatabase } from '../helpers/instances';
import { snapshot } from '../helpers/snapshots-world';
import { subscribe, subscriptionClient, type SubscriptionClient } from '../helpers/subscriptions';
import { dialect } from '../helpers/test-database';

// Issue 38, part 3: live alert events across instances. Two `orgsec serve` processes over one
// database (a SQLite file: the poll; PostgreSQL: LISTEN/NOTIFY besides); subscribers on both;
// writes through both, concurrently. Every subscriber gets exactly the events the outbox holds
// for what it follows, in commit order, none lost, none twice.

const advisories = makeAdvisories();
const world = alertsWorld(makeAlerts(120, 11, advisories, {}), advisories);

const EVENTS = `subscription Events($organization: String, $repository: String) {
  dependencyAlertEvents(organization: $organization, repository: $repository) {
    id action sender { login } alert { number state repository { nameWithOwner } }
  }
}`;

let shared: SharedDatabase;
let instances: Instance[];
let knex: Knex;
const clients: SubscriptionClient[] = [];

function databaseConnection(url: string): Knex {
  if (dialect === 'sqlite') return knexFactory({ client: 'better-sqlite3', connection: { filename: url }, useNullAsDefault: true });
  return knexFactory({ client: 'pg', connection: url });
}

const auth = { Authorization: `Bearer ${AL.owner}` };

async function openAlerts(base: string, repo: string): Promise<number[]> {
  const res = await request(base).get(`/repos/${ORG}/${repo}/dependency-bot/alerts?state=open&per_page=100`).set(auth);
  expect(res.status).toBe(200);
  return (res.body as Array<{ number: number }>).map((a) => a.number);
}

beforeAll(async () => {
  shared = await sharedDatabase();
  loadWorld(shared.url, world);
  instances = await startInstances(2, shared.url);
  knex = databaseConnection(shared.url);
}, 120_000);

afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
  await Promise.all((instances ?? []).map((i) => i.stop()));
  await knex?.destroy();
  await shared?.drop();
});

test('concurrent writes on both instances reach subscribers on both, each exactly once, in commit order', async () => {
  const [a, b] = instances as [Instance, Instance];
  const subscriberOf = (instance: Instance, variables: Record<string, unknown>) => {
    const client = subscriptionClient(instance.url, { params: auth });
    clients.push(client);
    return subscribe(client.client, EVENTS, variables);
  };
  const orgOnA = subscriberOf(a, { organization: ORG });
  const orgOnB = subscriberOf(b, { organization: ORG });
  const repoOnA = subscriberOf(a, { repository: `${ORG}/repo-1` });
  // A subscription starts once its subscribe message is handled (graphql-ws sends no acknowledgement): probes
  // (assignee changes) until each subscriber has had one; what follows the newest event then is what they must all get.
  const [probe] = await openAlerts(b.url, 'repo-1');
  for (let round = 0; ; round++) {
    await request(b.url).patch(`/repos/${ORG}/repo-1/dependency-bot/alerts/${probe}`).set(auth).send({ assignees: round % 2 === 0 ? ['dev-0'] : [] }).expect(200);
    const settled = await Promise.all([orgOnA, orgOnB, repoOnA].map((s) => s.next(1, 1_000).then(() => true, () => false)));
    if (settled.every(Boolean)) break;
    if (round > 20) throw new Error('the subscribers never got an event');
  }
  const firstId = Number((await knex('events').max({ id: 'id' }).first())?.id ?? 0);
  const after = (subscription: typeof orgOnA) => subscription.results.filter((r) => Number(r.data!.dependencyAlertEvents.id) > firstId);

  // Dismissals and reopenings of many alerts, spread over both instances, 8 at a time; and the engine's own events (a snapshot's new alerts, by no person).
  const writes: Array<() => Promise<unknown>> = [];
  for (const repo of ['repo-0', 'repo-1', 'repo-3', 'repo-4']) {
    const numbers = (await openAlerts(a.url, repo)).slice(0, 6);
    numbers.forEach((number, i) => {
      const base = i % 2 === 0 ? a.url : b.url;
      writes.push(async () => {
        const path = `/repos/${ORG}/${repo}/dependency-bot/alerts/${number}`;
        await request(base).patch(path).set(auth).send({ state: 'dismissed', dismissed_reason: 'not_used' }).expect(200);
        await request(i % 2 === 0 ? b.url : a.url).patch(path).set(auth).send({ state: 'open' }).expect(200);
      });
    });
  }
  writes.push(async () => {
    const res = await request(b.url).post(`/repos/${ORG}/repo-5/dependency-graph/snapshots`).set(auth)
      .send(snapshot({ ref: 'refs/heads/main', manifests: { 'package-lock.json': { name: 'package-lock.json', file: { source_location: 'svc/package-lock.json' }, resolved: {
        'left-pad': { package_url: 'pkg:npm/left-pad@1.0.0', relationship: 'direct', scope: 'runtime' },
        lodash: { package_url: 'pkg:npm/lodash@1.0.0', relationship: 'direct', scope: 'runtime' },
      } } } }));
    expect(res.status).toBe(201);
  });
  for (let i = 0; i < writes.length; i += 8) await Promise.all(writes.slice(i, i + 8).map((write) => write()));

  // A snapshot may be queued and applied a moment later (by either instance's worker): its events are awaited.
  for (let i = 0; i < 200 && !(await knex('events').where('id', '>', firstId).andWhere('action', 'created').first('id')); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  // What the outbox holds, in id order: the truth each subscriber must match.
  const rows: Array<{ id: number | string; action: string; repo_id: number; alert_id: number }> = await knex('events')
    .where('id', '>', firstId).andWhere('event', 'dependency_bot_alert').orderBy('id').select('id', 'action', 'repo_id', 'alert_id');
  const repo1 = Number((await knex('repositories').where({ name: 'repo-1' }).first('id'))!.id);
  const expected = rows.map((r) => String(r.id));
  expect(rows.some((r) => r.action === 'created')).toBe(true);
  expect(expected.length).toBeGreaterThan(40);
  const repo1Ids = rows.filter((r) => Number(r.repo_id) === repo1).map((r) => String(r.id));
  await Promise.all([
    orgOnA.next(orgOnA.results.length - after(orgOnA).length + expected.length, 30_000),
    orgOnB.next(orgOnB.results.length - after(orgOnB).length + expected.length, 30_000),
    repoOnA.next(repoOnA.results.length - after(repoOnA).length + repo1Ids.length, 30_000),
  ]);
  const all = [after(orgOnA), after(orgOnB)];
  for (const got of all) expect(got.map((r) => r.data!.dependencyAlertEvents.id)).toEqual(expected);
  expect(after(repoOnA).map((r) => r.data!.dependencyAlertEvents.id)).toEqual(repo1Ids);
  // Every subscriber's whole stream, probes included, in increasing ids: never one twice, never out of order.
  for (const s of [orgOnA, orgOnB, repoOnA]) {
    const ids = s.results.map((r) => Number(r.data!.dependencyAlertEvents.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
  }
  // The engine's events name no sender; people's name theirs.
  const events = all[0]!.map((r) => r.data!.dependencyAlertEvents);
  expect(events.filter((e) => e.action === 'CREATED').every((e) => e.sender === null)).toBe(true);
  expect(events.filter((e) => e.action === 'DISMISSED').every((e) => e.sender?.login === 'al-owner')).toBe(true);
  // Per alert, the states alternate as they were written: dismissed, then open.
  const byAlert = new Map<string, string[]>();
  for (const e of events.filter((x) => x.action === 'DISMISSED' || x.action === 'REOPENED')) {
    const key = `${e.alert.repository.nameWithOwner}#${e.alert.number}`;
    byAlert.set(key, [...(byAlert.get(key) ?? []), e.alert.state]);
  }
  for (const states of byAlert.values()) expect(states).toEqual(['DISMISSED', 'OPEN']);
  // Nothing more arrives: no event twice.
  await new Promise((resolve) => setTimeout(resolve, 500));
  expect(after(orgOnA)).toHaveLength(expected.length);
  expect(after(orgOnB)).toHaveLength(expected.length);
}, 120_000);

// PostgreSQL: another instance's events arrive by NOTIFY, not by the poll (here set to a minute),
// and a LISTEN connection the server ends is made again (an event in between is read then).
(dialect === 'postgres' ? test : test.skip)('NOTIFY wakes subscribers of other instances at once; a lost LISTEN connection is replaced', async () => {
  const slow = await startInstances(2, shared.url, { SUBSCRIPTION_POLL_MS: '60000' });
  try {
    const [reader, writer] = slow as [Instance, Instance];
    const client = subscriptionClient(reader.url, { params: auth });
    clients.push(client);
    const events = subscribe(client.client, EVENTS, { repository: `${ORG}/repo-2` });
    const [number] = await openAlerts(writer.url, 'repo-2');
    const path = `/repos/${ORG}/repo-2/dependency-bot/alerts/${number}`;
    // The subscribe message is handled asynchronously: toggles until the first event arrives.
    for (let round = 0; events.results.length === 0; round++) {
      await request(writer.url).patch(path).set(auth).send({ assignees: round % 2 === 0 ? ['dev-2'] : [] }).expect(200);
      await events.next(1, 1_000).catch(() => undefined);
      if (round > 20) throw new Error('no event arrived');
    }
    const started = Date.now();
    await request(writer.url).patch(path).set(auth).send({ state: 'dismissed', dismissed_reason: 'not_used' }).expect(200);
    await events.next(events.results.length + 1, 5_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    // Every LISTEN session ended by the server: each instance connects again within a second or so, and reads what it missed.
    // (This schema's only: other files' instances listen on channels of their own.)
    const channel = (await knex.raw(`select 'orgsec_events_' || left(md5(current_schema()), 16) as channel`)).rows[0].channel as string;
    const ended = await knex.raw(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'orgsec live events' and query = ?`, [`LISTEN "${channel}"`]);
    expect(ended.rows.length).toBeGreaterThanOrEqual(1);
    await request(writer.url).patch(path).set(auth).send({ state: 'open' }).expect(200);
    const reopened = await events.next(events.results.length + 1, 10_000);
    expect(reopened[reopened.length - 1]!.data!.dependencyAlertEvents.action).toBe('REOPENED');
  } finally {
    await Promise.all(slow.map((i) => i.stop()));
  }
}, 60_000);

test('an instance that is stopped closes its subscribers\' connections with 1001 (going away), and exits', async () => {
  const [instance] = await startInstances(1, shared.url);
  const client = subscriptionClient(instance!.url, { params: auth });
  clients.push(client);
  await new Promise<void>((resolve) => { client.client.on('connected', () => resolve()); });
  subscribe(client.client, EVENTS, { organization: ORG });
  const exited = new Promise((resolve) => instance!.process.once('exit', resolve));
  await instance!.stop();
  expect(await client.closed).toEqual({ code: 1001, reason: 'The server is shutting down.' });
  await exited;
}, 60_000);
