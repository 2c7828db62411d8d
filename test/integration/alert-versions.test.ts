import { createTestApp, type TestApp } from '../helpers/test-app';
import { alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';

// dependency_alerts.version moves with every change of an alert row and of its assignees,
// whoever writes it (the 20261127110000 migration's triggers): the caches of assignees and
// alert JSON (src/cache/cached-at-row-versions.ts, alerts.cached-json.ts) answer per alert version,
// so a change that left the version in place would be served stale.

const advisories = makeAdvisories();
const world = alertsWorld(makeAlerts(40, 3, advisories), advisories);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
});
afterAll(() => t.close());

const alertIds = async (): Promise<number[]> => (await t.db.knex('dependency_alerts').orderBy('id').limit(2).select('id')).map((r) => Number(r.id));
const versionOf = async (id: number): Promise<number> => Number((await t.db.knex('dependency_alerts').where('id', id).first('version')).version);
const userId = async (login: string): Promise<number> => Number((await t.db.knex('accounts').where('login', login).first('id')).id);

it('moves once on an update that leaves it, and not again on one that moves it itself', async () => {
  const [id] = await alertIds();
  const v0 = await versionOf(id!);
  await t.db.knex('dependency_alerts').where('id', id!).update({ dismissed_comment: 'by hand' });
  expect(await versionOf(id!)).toBe(v0 + 1);
  await t.db.knex('dependency_alerts').where('id', id!).update({ dismissed_comment: 'by a service', version: t.db.knex.raw('version + 1') });
  expect(await versionOf(id!)).toBe(v0 + 2);
  // An update naming the row without changing anything still counts as a change: never missed, at worst a cache miss.
  await t.db.knex('dependency_alerts').where('id', id!).update({ dismissed_comment: 'by a service' });
  expect(await versionOf(id!)).toBe(v0 + 3);
});

it('moves when an assignee is added, removed, or moved to another alert (both alerts)', async () => {
  // Also after the world load above, which turned the insert trigger off while it gave its new alerts their assignees.
  expect(world.alerts.some((alert) => (alert.assignees ?? []).length > 0)).toBe(true);
  const [a, b] = await alertIds();
  const dev = await userId('dev-3');
  await t.db.knex('dependency_alert_assignees').whereIn('alert_id', [a!, b!]).delete();
  let [va, vb] = [await versionOf(a!), await versionOf(b!)];
  await t.db.knex('dependency_alert_assignees').insert({ alert_id: a!, user_id: dev });
  expect(await versionOf(a!)).toBeGreaterThan(va);
  va = await versionOf(a!);
  await t.db.knex('dependency_alert_assignees').where({ alert_id: a!, user_id: dev }).update({ alert_id: b! });
  expect([await versionOf(a!) > va, await versionOf(b!) > vb]).toEqual([true, true]);
  vb = await versionOf(b!);
  await t.db.knex('dependency_alert_assignees').where({ alert_id: b! }).delete();
  expect(await versionOf(b!)).toBeGreaterThan(vb);
});

it('moves when a world reload changes only an alert\'s assignees', async () => {
  const declared = world.alerts.findIndex((alert) => (alert.assignees ?? []).length === 0);
  const repo = await t.db.knex('repositories').where('name', world.alerts[declared]!.repository.split('/')[1]).first('id');
  const stored = await t.db.knex('dependency_alerts').where({ repo_id: repo.id, number: world.alerts[declared]!.number }).first('id', 'version');
  await t.load({ ...world, alerts: world.alerts.map((alert, i) => (i === declared ? { ...alert, assignees: ['dev-0'] } : alert)) });
  expect(await versionOf(Number(stored.id))).toBeGreaterThan(Number(stored.version));
});
