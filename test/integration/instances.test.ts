import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { sharedDatabase, startInstances, type Instance, type SharedDatabase } from '../helpers/instances';
import { alertsWorld, makeAdvisories, makeAlerts, AL, ORG } from '../helpers/alerts-world';
import fs from 'node:fs';
import os from 'node:os';

// Two orgsec processes over one database (PostgreSQL, or one SQLite file in WAL mode):
// concurrent writes through both never lose an update, never duplicate, never fail.

const advisories = makeAdvisories();
const declared = makeAlerts(60, 5, advisories);
/** Alerts that can be reopened (not fixed), so every race below really runs. */
const reopenable = declared.filter((x) => x.repository.startsWith(`${ORG}/`) && x.state !== 'fixed');

let db: SharedDatabase;
let a: Instance;
let b: Instance;
const owner = { Authorization: `Bearer ${AL.owner}`, 'Content-Type': 'application/json' };

async function call(instance: Instance, method: string, url: string, body?: unknown, headers: Record<string, string> = owner) {
  const res = await fetch(`${instance.url}${url}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined, etag: res.headers.get('etag') };
}

beforeAll(async () => {
  db = await sharedDatabase();
  // Both start at once on an empty database: one migrates, the other waits for it.
  [a, b] = (await startInstances(2, db.url)) as [Instance, Instance];
  const worldFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-world-')), 'world.json');
  fs.writeFileSync(worldFile, JSON.stringify(alertsWorld(declared, advisories)));
  const load = spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'dist', 'src', 'cli', 'index.js'), 'load', worldFile, '--database', db.url], { encoding: 'utf8' });
  if (load.status !== 0) throw new Error(load.stderr);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await db?.drop();
});

it('both instances started at once over a fresh database, and both answer', async () => {
  for (const instance of [a, b]) expect((await call(instance, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
});

it('concurrent updates of one alert through both instances keep every effect', async () => {
  const target = reopenable[0]!;
  const alert = `/repos/${target.repository}/dependency-bot/alerts/${target.number}`;
  for (let round = 0; round < 5; round++) {
    expect((await call(a, 'PATCH', alert, { state: 'open', assignees: [] })).status).toBe(200);
    const [dismissed, assigned] = await Promise.all([
      call(a, 'PATCH', alert, { state: 'dismissed', dismissed_reason: 'tolerable_risk' }),
      call(b, 'PATCH', alert, { assignees: [`dev-${round % 4}`] }),
    ]);
    expect([dismissed.status, assigned.status]).toEqual([200, 200]);
    const after = await call(b, 'GET', alert);
    expect(after.body.state).toBe('dismissed');
    expect(after.body.dismissed_reason).toBe('tolerable_risk');
    expect(after.body.assignees.map((u: { login: string }) => u.login)).toEqual([`dev-${round % 4}`]);
  }
});

it('concurrent dismissals of one open alert: exactly one succeeds, the others are 409, none is half-applied', async () => {
  const target = reopenable[1]!;
  const alert = `/repos/${target.repository}/dependency-bot/alerts/${target.number}`;
  expect((await call(a, 'PATCH', alert, { state: 'open' })).status).toBe(200);
  const results = await Promise.all(Array.from({ length: 8 }, (_, i) =>
    call(i % 2 ? a : b, 'PATCH', alert, { state: 'dismissed', dismissed_reason: 'inaccurate', dismissed_comment: `attempt ${i}` })));
  const statuses = results.map((r) => r.status).sort();
  expect(statuses).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
  const winner = results.find((r) => r.status === 200)!;
  const after = await call(a, 'GET', alert);
  expect(after.body.dismissed_comment).toBe(winner.body.dismissed_comment);
});

it('concurrent role assignments through both instances make one assignment and no error', async () => {
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) => call(i % 2 ? a : b, 'PUT', `/orgs/${ORG}/organization-roles/teams/devs/8133`)));
  expect(results.map((r) => r.status)).toEqual(Array(10).fill(204));
  const teams = await call(a, 'GET', `/orgs/${ORG}/organization-roles/8133/teams`);
  expect(teams.body.map((t: { slug: string }) => t.slug)).toEqual(['devs']);
});

it('concurrent creates of one OIDC inclusion through both instances: one 201, the rest 422, one row', async () => {
  const world = { organizations: [{ login: ORG, custom_properties: [{ name: 'tier' }] }] };
  const worldFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-world-')), 'props.json');
  fs.writeFileSync(worldFile, JSON.stringify(world));
  const load = spawnSync(process.execPath, [path.join(__dirname, '..', '..', 'dist', 'src', 'cli', 'index.js'), 'load', worldFile, '--database', db.url], { encoding: 'utf8' });
  expect(load.status).toBe(0);
  const results = await Promise.all(Array.from({ length: 10 }, (_, i) =>
    call(i % 2 ? a : b, 'POST', `/orgs/${ORG}/actions/oidc/customization/properties/repo`, { custom_property_name: 'tier' })));
  expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(422)]);
  expect((await call(b, 'GET', `/orgs/${ORG}/actions/oidc/customization/properties/repo`)).body).toEqual([
    { property_name: 'tier', custom_property_name: 'tier', inclusion_source: 'organization' },
  ]);
});

it('the ETag a list had on one instance changes after a write through the other', async () => {
  const list = `/repos/${ORG}/repo-4/dependency-bot/alerts?state=open,dismissed,auto_dismissed`;
  const before = await call(a, 'GET', list);
  const target = before.body[0];
  await call(b, 'PATCH', `/repos/${ORG}/repo-4/dependency-bot/alerts/${target.number}`, { assignees: target.assignees.length ? [] : ['dev-1'] }).then((r) => expect(r.status).toBe(200));
  const res = await fetch(`${a.url}${list}`, { headers: { ...owner, 'If-None-Match': before.etag! } });
  expect(res.status).toBe(200);
  expect(res.headers.get('etag')).not.toBe(before.etag);
});

it('concurrent template updates through both instances never lose use_immutable_subject', async () => {
  const sub = `/orgs/${ORG}/actions/oidc/customization/sub`;
  for (let round = 0; round < 10; round++) {
    expect((await call(a, 'PUT', sub, { include_claim_keys: ['repo'], use_immutable_subject: false })).status).toBe(201);
    const results = await Promise.all([
      call(a, 'PUT', sub, { include_claim_keys: ['repo'], use_immutable_subject: true }),
      call(b, 'PUT', sub, { include_claim_keys: ['repo', 'context'] }),
      call(a, 'PUT', sub, { include_claim_keys: ['context'] }),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    // Keys-only PUTs keep the flag: whatever the order, the true written by the first stays.
    expect((await call(b, 'GET', sub)).body.use_immutable_subject).toBe(true);
  }
});

it('snapshots of one repository through both instances, during an advisory import: no duplicate alert, numbers without gaps', async () => {
  const cli = path.join(__dirname, '..', '..', 'dist', 'src', 'cli', 'index.js');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-race-'));
  fs.writeFileSync(path.join(dir, 'world.json'), JSON.stringify({ repositories: [{ owner: ORG, name: 'race', private: true }] }));
  expect(spawnSync(process.execPath, [cli, 'load', path.join(dir, 'world.json'), '--database', db.url], { encoding: 'utf8' }).status).toBe(0);
  const osvDir = path.join(dir, 'osv');
  fs.mkdirSync(osvDir);
  for (const [id, name] of [['GHSA-race-0000-0001', 'race-pkg'], ['GHSA-race-0000-0002', 'race-other']]) {
    fs.writeFileSync(path.join(osvDir, `${id}.json`), JSON.stringify({
      schema_version: '1.6.0', id, modified: '2026-01-02T00:00:00Z', published: '2026-01-01T00:00:00Z', summary: name, details: name,
      affected: [{ package: { ecosystem: 'npm', name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '2.0.0' }] }] }],
      database_specific: { severity: 'HIGH', github_reviewed: true },
    }));
  }
  const importing = new Promise<number | null>((resolve) => {
    spawn(process.execPath, [cli, 'advisories', 'import', osvDir, '--database', db.url], { stdio: 'ignore' }).once('close', resolve);
  });
  const submissions = Array.from({ length: 10 }, (_, i) => call(i % 2 ? a : b, 'POST', `/repos/${ORG}/race/dependency-graph/snapshots`, {
    version: 0, sha: 'ce587453ced02b1526dfb4cb910479d431683101', ref: 'refs/heads/main',
    job: { id: `race-${i}`, correlator: `race-${i}` }, detector: { name: 'race', version: '1', url: 'https://example.com/race' }, scanned: '2026-04-01T00:00:00Z',
    manifests: { [`m${i}.json`]: { name: `m${i}.json`, resolved: { p: { package_url: 'pkg:npm/race-pkg@1.0.0' }, o: { package_url: 'pkg:npm/race-other@1.5.0' } } } },
  }));
  const [code, ...answers] = await Promise.all([importing, ...submissions]);
  expect(code).toBe(0);
  expect(answers.map((r) => r.status)).toEqual(Array(10).fill(201));
  // Each is applied in its request, or queued because the instance was busy and applied by a worker shortly.
  expect(answers.every((r) => r.body.result === 'SUCCESS' || /queued/.test(r.body.message))).toBe(true);
  let alerts: any[] = [];
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    alerts = (await call(a, 'GET', `/repos/${ORG}/race/dependency-bot/alerts?per_page=100`)).body;
    if (alerts.length >= 20) break;
  }
  expect(alerts.map((x) => x.number).sort((p, q) => p - q)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  expect(new Set(alerts.map((x) => `${x.security_advisory.svcsa_id} ${x.dependency.package.name} ${x.dependency.manifest_path}`)).size).toBe(20);
  expect(alerts.every((x) => x.state === 'open')).toBe(true);
  fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

it('auto-triage rules created through both instances at once stop at the organization\'s limit of 25', async () => {
  const rules = `/orgs/${ORG}/dependency-bot/rules`;
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i % 2 === 0 ? a : b, 'POST', rules, { name: `race ${i}`, conditions: { severity: ['low'] } })));
  expect(answers.filter((x) => x.status === 201)).toHaveLength(25);
  expect(answers.filter((x) => x.status === 422).map((x) => x.body.message)).toEqual(Array.from({ length: 15 }, () => expect.stringMatching(/at most 25/)));
  expect((await call(b, 'GET', rules)).body).toHaveLength(25);
});
