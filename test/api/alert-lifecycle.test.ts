import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importAdvisories, writeEpssFile } from '../helpers/advisory-import';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// The alert engine through the public API (interfaces.md Part 2 "Dependency snapshots and
// computed alerts", reference.md Part 2 "Alert lifecycle"): snapshots (S1 and world files) and
// advisory imports move alerts through every transition the engine owns, people's #27
// transitions keep their rules, and every transition leaves an event row, in order.

const ORG = 'ae-org';
const TOKEN = 'ae_owner_token';
const owner = bearer(TOKEN);

let t: TestApp;
let dir: string;
let ownerId: number;
beforeAll(async () => {
  t = await createTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-alert-lifecycle-'));
  await t.load({
    users: [{ login: 'ae-owner' }],
    organizations: [{ login: ORG, owners: ['ae-owner'] }],
    repositories: ['created', 'fixed', 'people', 'reopen', 'imports', 'kinds', 'declared', 'world', 'parallel', 'branch', 'merged', 'rescans', 'twice'].map((name) => ({ owner: ORG, name, private: true })),
    tokens: [{ token: TOKEN, type: 'classic', user: 'ae-owner', scopes: ['repo'] }],
  });
  ownerId = Number((await t.db.knex('accounts').where('login', 'ae-owner').first('id')).id);
  await importOsv([
    osv('GHSA-ae00-0000-0001', 'left-pad', { fixed: '1.3.1', cwes: ['CWE-400'] }),
    osv('GHSA-ae00-0000-0002', 'minimist', { fixed: '1.2.6' }),
    osv('GHSA-ae00-0000-0003', 'qs', { fixed: '6.2.4' }),
  ]);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** An OSV advisory of one npm package, vulnerable from 0 up to `fixed` (or every version). */
function osv(id: string, name: string, o: { fixed?: string; introduced?: string; modified?: string; withdrawn?: string; reviewed?: boolean; cwes?: string[] } = {}) {
  return {
    schema_version: '1.6.0', id, modified: o.modified ?? '2026-01-02T00:00:00Z', published: '2026-01-01T00:00:00Z',
    ...(o.withdrawn ? { withdrawn: o.withdrawn } : {}),
    aliases: [], summary: `${name} is vulnerable`, details: `A test advisory on ${name}.`,
    affected: [{
      package: { ecosystem: 'npm', name },
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: o.introduced ?? '0' }, ...(o.fixed ? [{ fixed: o.fixed }] : [])] }],
    }],
    database_specific: { severity: 'HIGH', github_reviewed: o.reviewed ?? true, cwe_ids: o.cwes ?? [] },
  };
}

let files = 0;
async function importOsv(docs: object[]): Promise<void> {
  const batch = path.join(dir, `batch-${(files += 1)}`);
  fs.mkdirSync(batch);
  for (const doc of docs) fs.writeFileSync(path.join(batch, `${(doc as { id: string }).id}.json`), JSON.stringify(doc));
  const run = await importAdvisories(t.db, [batch]);
  expect(run.problems).toEqual([]);
}

type Resolved = Record<string, { package_url: string; relationship?: string; scope?: string }>;
let scans = 0;
/** S1 with the given manifests (name → [source_location, resolved]); every submission scanned later than the last. */
async function submit(repo: string, manifests: Record<string, { file?: string; resolved: Resolved }>, ref = 'refs/heads/main', correlator = 'ci') {
  scans += 1;
  const res = await t.http().post(`/repos/${ORG}/${repo}/dependency-graph/snapshots`).set(owner).send({
    version: 0, sha: 'ce587453ced02b1526dfb4cb910479d431683101', ref,
    job: { id: `run-${scans}`, correlator }, detector: { name: 'detector', version: '1', url: 'https://example.com/d' },
    scanned: new Date(Date.UTC(2026, 3, 1) + scans * 1000).toISOString(),
    manifests: Object.fromEntries(Object.entries(manifests).map(([name, m]) => [name, { name, ...(m.file ? { file: { source_location: m.file } } : {}), resolved: m.resolved }])),
  });
  expect(res.status).toBe(201);
  return res.body;
}

const lock = (resolved: Resolved) => ({ 'package-lock.json': { file: 'app/package-lock.json', resolved } });
const npm = (name: string, version: string, extra: { relationship?: string; scope?: string } = { relationship: 'direct', scope: 'runtime' }) => ({ [name]: { package_url: `pkg:npm/${name}@${version}`, ...extra } });

async function alerts(repo: string): Promise<any[]> {
  const res = await t.http().get(`/repos/${ORG}/${repo}/dependency-bot/alerts?state=open,fixed,dismissed,auto_dismissed&per_page=100`).set(owner);
  expect(res.status).toBe(200);
  return [...res.body].sort((a, b) => a.number - b.number);
}

async function alert(repo: string, number: number): Promise<any> {
  const res = await t.http().get(`/repos/${ORG}/${repo}/dependency-bot/alerts/${number}`).set(owner);
  expect(res.status).toBe(200);
  return res.body;
}

async function repoId(repo: string): Promise<number> {
  return Number((await t.db.knex('repositories').where('name', repo).first('id')).id);
}

/** The repository's events as (action, alert number, state in the payload, sender). */
async function events(repo: string): Promise<Array<[string, number, string, number | null]>> {
  const rows = await t.db.knex('events').where('repo_id', await repoId(repo)).orderBy('id').select('event', 'action', 'payload', 'sender_id');
  return rows.map((row) => {
    expect(row.event).toBe('dependency_bot_alert');
    const { alert: a } = JSON.parse(row.payload);
    return [row.action, a.number, a.state, row.sender_id === null ? null : Number(row.sender_id)];
  });
}

const summary = (a: any) => ({ number: a.number, state: a.state, package: a.dependency.package.name });

describe('alerts computed from snapshots', () => {
  it('opens one alert per (advisory, package, manifest) with the dependency as submitted, and records `created`', async () => {
    const body = await submit('created', {
      'package-lock.json': { file: 'app/package-lock.json', resolved: { ...npm('left-pad', '1.3.0'), ...npm('minimist', '1.2.0', { relationship: 'indirect', scope: 'development' }), ...npm('safe', '1.0.0') } },
      'web/package-lock.json': { resolved: { ...npm('qs', '6.0.0', {}), nover: { package_url: 'pkg:npm/left-pad' }, odd: { package_url: 'pkg:npm/minimist@not.a.version' } } },
    });
    expect(body.result).toBe('SUCCESS');
    const list = await alerts('created');
    expect(list.map((a) => [a.number, a.state, a.dependency])).toEqual([
      [1, 'open', { package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'app/package-lock.json', scope: 'runtime', relationship: 'direct' }],
      [2, 'open', { package: { ecosystem: 'npm', name: 'minimist' }, manifest_path: 'app/package-lock.json', scope: 'development', relationship: 'transitive' }],
      [3, 'open', { package: { ecosystem: 'npm', name: 'qs' }, manifest_path: 'web/package-lock.json', scope: 'runtime', relationship: 'unknown' }],
    ]);
    const first = await alert('created', 1);
    expect(first.security_advisory.svcsa_id).toBe('GHSA-ae00-0000-0001');
    expect(first.security_vulnerability).toEqual({ package: { ecosystem: 'npm', name: 'left-pad' }, severity: 'high', vulnerable_version_range: '< 1.3.1', first_patched_version: { identifier: '1.3.1' } });
    expect(first).toMatchObject({ fixed_at: null, dismissed_at: null, auto_dismissed_at: null, updated_at: first.created_at });
    expect(await events('created')).toEqual([['created', 1, 'open', null], ['created', 2, 'open', null], ['created', 3, 'open', null]]);
  });

  it('changes nothing when the same dependencies come again: no event, updated_at kept', async () => {
    const before = await alerts('created');
    await submit('created', {
      'package-lock.json': { file: 'app/package-lock.json', resolved: { ...npm('left-pad', '1.3.0'), ...npm('minimist', '1.2.0', { relationship: 'indirect', scope: 'development' }) } },
      'web/package-lock.json': { resolved: npm('qs', '6.0.0', {}) },
    });
    expect(await alerts('created')).toEqual(before);
    expect(await events('created')).toHaveLength(3);
  });

  it('does not apply a snapshot of another branch', async () => {
    expect((await submit('branch', lock(npm('left-pad', '1.0.0')), 'refs/heads/feature')).result).toBe('ACCEPTED');
    expect(await alerts('branch')).toEqual([]);
  });

  it('fixes an alert when its dependency is upgraded past the range or its manifest goes, reintroduces it (same number) when it comes back', async () => {
    await submit('fixed', { ...lock({ ...npm('left-pad', '1.0.0'), ...npm('minimist', '1.0.0') }), 'other.json': { resolved: npm('qs', '1.0.0') } });
    expect((await alerts('fixed')).map(summary)).toEqual([
      { number: 1, state: 'open', package: 'left-pad' }, { number: 2, state: 'open', package: 'minimist' }, { number: 3, state: 'open', package: 'qs' },
    ]);
    // left-pad upgraded, minimist removed, the manifest of qs gone.
    await submit('fixed', lock(npm('left-pad', '1.3.1')));
    const fixed = await alerts('fixed');
    expect(fixed.map((a) => a.state)).toEqual(['fixed', 'fixed', 'fixed']);
    for (const a of fixed) {
      expect(a.fixed_at).toEqual(expect.stringMatching(/Z$/));
      expect(a.updated_at).toBe(a.fixed_at);
    }
    // left-pad downgraded again: the same alert comes back.
    await submit('fixed', lock(npm('left-pad', '1.2.0')));
    const back = await alert('fixed', 1);
    expect(back).toMatchObject({ number: 1, state: 'open', fixed_at: null });
    expect((await alerts('fixed')).map((a) => a.number)).toEqual([1, 2, 3]);
    expect(await events('fixed')).toEqual([
      ['created', 1, 'open', null], ['created', 2, 'open', null], ['created', 3, 'open', null],
      ['fixed', 1, 'fixed', null], ['fixed', 2, 'fixed', null], ['fixed', 3, 'fixed', null],
      ['reintroduced', 1, 'open', null],
    ]);
  });

  it('opens alerts for malware advisories, never for unreviewed ones', async () => {
    await importOsv([osv('MAL-2026-0001', 'evil-pkg', {}), osv('GHSA-ae00-0000-0009', 'unreviewed-pkg', { reviewed: false })]);
    await submit('kinds', lock({ ...npm('evil-pkg', '0.0.1'), ...npm('unreviewed-pkg', '1.0.0') }));
    const list = await alerts('kinds');
    expect(list.map((a) => [a.dependency.package.name, a.security_advisory.classification])).toEqual([['evil-pkg', 'malware']]);
  });
});

describe('snapshots of two correlators', () => {
  const dependencies = async () => (await alerts('merged')).map((a) => [a.number, a.state, a.dependency.package.name, a.dependency.manifest_path, a.dependency.scope]);

  it('evaluate the merged manifest, the snapshot just submitted with the other correlator\'s stored one, in correlator order', async () => {
    await submit('merged', { 'package-lock.json': { file: 'z/package-lock.json', resolved: { ...npm('qs', '6.0.0'), ...npm('minimist', '1.2.0') } } }, 'refs/heads/main', 'z-ci');
    expect(await dependencies()).toEqual([[1, 'open', 'qs', 'z/package-lock.json', 'runtime'], [2, 'open', 'minimist', 'z/package-lock.json', 'runtime']]);
    // a-ci comes first (same detector): it owns the manifest name and its path; z-ci's packages
    // are merged in, qs once (a-ci's, development), minimist from z-ci.
    await submit('merged', { 'package-lock.json': { file: 'a/package-lock.json', resolved: npm('qs', '6.0.0', { relationship: 'indirect', scope: 'development' }) } }, 'refs/heads/main', 'a-ci');
    const merged = [
      [1, 'fixed', 'qs', 'z/package-lock.json', 'runtime'], [2, 'fixed', 'minimist', 'z/package-lock.json', 'runtime'],
      [3, 'open', 'qs', 'a/package-lock.json', 'development'], [4, 'open', 'minimist', 'a/package-lock.json', 'runtime'],
    ];
    expect(await dependencies()).toEqual(merged);
    expect(await events('merged')).toEqual([
      ['created', 1, 'open', null], ['created', 2, 'open', null], ['fixed', 1, 'fixed', null], ['fixed', 2, 'fixed', null], ['created', 3, 'open', null], ['created', 4, 'open', null],
    ]);
    // z-ci again, unchanged: the same merged set, nothing moves.
    await submit('merged', { 'package-lock.json': { file: 'z/package-lock.json', resolved: { ...npm('qs', '6.0.0'), ...npm('minimist', '1.2.0') } } }, 'refs/heads/main', 'z-ci');
    expect(await dependencies()).toEqual(merged);
    expect(await events('merged')).toHaveLength(6);
  });
});

describe('people and the engine (#27)', () => {
  it('keeps a dismissal whatever the dependency does; a reopened alert is evaluated at once', async () => {
    await submit('people', lock({ ...npm('left-pad', '1.0.0'), ...npm('qs', '6.0.0') }));
    const dismiss = await t.http().patch(`/repos/${ORG}/people/dependency-bot/alerts/1`).set(owner).send({ state: 'dismissed', dismissed_reason: 'tolerable_risk' });
    expect(dismiss.status).toBe(200);
    // Upgraded: the dismissed alert stays dismissed; the open one is fixed.
    await submit('people', lock({ ...npm('left-pad', '1.3.1'), ...npm('qs', '6.2.4') }));
    expect((await alerts('people')).map(summary)).toEqual([{ number: 1, state: 'dismissed', package: 'left-pad' }, { number: 2, state: 'fixed', package: 'qs' }]);
    // Reopened by a person: no longer vulnerable, so fixed at once.
    const reopen = await t.http().patch(`/repos/${ORG}/people/dependency-bot/alerts/1`).set(owner).send({ state: 'open' });
    expect(reopen.status).toBe(200);
    expect(reopen.body.state).toBe('fixed');
    const assign = await t.http().patch(`/repos/${ORG}/people/dependency-bot/alerts/2`).set(owner).send({ assignees: ['ae-owner'] });
    expect(assign.status).toBe(200);
    expect(await events('people')).toEqual([
      ['created', 1, 'open', null], ['created', 2, 'open', null],
      ['dismissed', 1, 'dismissed', ownerId],
      ['fixed', 2, 'fixed', null],
      ['reopened', 1, 'open', ownerId], ['fixed', 1, 'fixed', null],
      ['assignees_changed', 2, 'fixed', ownerId],
    ]);
  });
});

describe('a person reopening an auto-dismissed alert', () => {
  it('keeps it open: the evaluation of the reopening does not dismiss it again', async () => {
    const id = 'GHSA-ae00-0000-0400';
    await importOsv([osv(id, 'reopen-pkg', { fixed: '2.0.0', modified: '2026-02-01T00:00:00Z' })]);
    await submit('reopen', lock(npm('reopen-pkg', '1.0.0')));
    await importOsv([osv(id, 'reopen-pkg', { fixed: '2.0.0', modified: '2026-02-02T00:00:00Z', withdrawn: '2026-02-02T00:00:00Z' })]);
    expect((await alert('reopen', 1)).state).toBe('auto_dismissed');
    const reopen = await t.http().patch(`/repos/${ORG}/reopen/dependency-bot/alerts/1`).set(owner).send({ state: 'open' });
    expect(reopen.status).toBe(200);
    expect(reopen.body).toMatchObject({ state: 'open', auto_dismissed_at: null });
    expect(await events('reopen')).toEqual([['created', 1, 'open', null], ['auto_dismissed', 1, 'auto_dismissed', null], ['reopened', 1, 'open', ownerId]]);
  });
});

describe('advisory imports re-evaluate the repositories that hold the package', () => {
  const id = 'GHSA-ae00-0000-0100';
  it('creates, fixes, reintroduces, auto-dismisses on withdrawal and auto-reopens, each in the import', async () => {
    await submit('imports', lock(npm('late-pkg', '2.0.0')));
    expect(await alerts('imports')).toEqual([]);
    await importOsv([osv(id, 'late-pkg', { fixed: '3.0.0', modified: '2026-02-01T00:00:00Z' })]);
    expect((await alerts('imports')).map(summary)).toEqual([{ number: 1, state: 'open', package: 'late-pkg' }]);
    // The advisory narrowed: 2.0.0 no longer in range.
    await importOsv([osv(id, 'late-pkg', { fixed: '1.5.0', modified: '2026-02-02T00:00:00Z' })]);
    expect((await alert('imports', 1)).state).toBe('fixed');
    // Widened again: the same alert, reintroduced, showing the new entry.
    await importOsv([osv(id, 'late-pkg', { introduced: '1.0.0', fixed: '2.5.0', modified: '2026-02-03T00:00:00Z' })]);
    const back = await alert('imports', 1);
    expect(back.state).toBe('open');
    expect(back.security_vulnerability.vulnerable_version_range).toBe('>= 1.0.0, < 2.5.0');
    // Withdrawn: auto-dismissed, the advisory shows withdrawn_at.
    await importOsv([osv(id, 'late-pkg', { introduced: '1.0.0', fixed: '2.5.0', modified: '2026-02-04T00:00:00Z', withdrawn: '2026-02-04T00:00:00Z' })]);
    const withdrawn = await alert('imports', 1);
    expect(withdrawn.state).toBe('auto_dismissed');
    expect(withdrawn.auto_dismissed_at).toEqual(expect.stringMatching(/Z$/));
    expect(withdrawn.security_advisory.withdrawn_at).toBe('2026-02-04T00:00:00Z');
    // Published again: reopened by the engine.
    await importOsv([osv(id, 'late-pkg', { introduced: '1.0.0', fixed: '2.5.0', modified: '2026-02-05T00:00:00Z' })]);
    expect(await alert('imports', 1)).toMatchObject({ state: 'open', auto_dismissed_at: null });
    expect(await events('imports')).toEqual([
      ['created', 1, 'open', null], ['fixed', 1, 'fixed', null], ['reintroduced', 1, 'open', null],
      ['auto_dismissed', 1, 'auto_dismissed', null], ['auto_reopened', 1, 'open', null],
    ]);
  });

  it('keeps the alerts\' copies of the advisory right (EPSS, severity, patch) after an import', async () => {
    await importOsv([{ ...osv(id, 'late-pkg', { introduced: '1.0.0', modified: '2026-02-06T00:00:00Z' }), database_specific: { severity: 'LOW', github_reviewed: true, cwe_ids: [] } }]);
    const res = await t.http().get(`/repos/${ORG}/imports/dependency-bot/alerts?severity=low&state=open`).set(owner);
    expect(res.body.map((a: any) => a.number)).toEqual([1]);
    expect(res.body[0].security_vulnerability.first_patched_version).toBeNull();
    const patched = await t.http().get(`/repos/${ORG}/imports/dependency-bot/alerts?has=patch&state=open`).set(owner);
    expect(patched.body).toEqual([]);
  });
});

describe('advisory imports after later scans', () => {
  it('see each repository\'s current dependencies: upgrades, removals and additions of every scan since', async () => {
    await submit('rescans', lock({ ...npm('rescan-a', '1.0.0'), ...npm('rescan-b', '1.0.0'), ...npm('rescan-c', '1.0.0') }));
    await submit('rescans', lock({ ...npm('rescan-a', '3.0.0'), ...npm('rescan-c', '1.0.0'), ...npm('rescan-d', '1.0.0') }));
    await importOsv(['rescan-a', 'rescan-b', 'rescan-c', 'rescan-d'].map((name, i) => osv(`GHSA-7q4m-2v8c-m${'2345'[i]}x${'6789'[i]}`, name, { fixed: '2.0.0' })));
    expect((await alerts('rescans')).map(summary)).toEqual([
      { number: 1, state: 'open', package: 'rescan-c' }, { number: 2, state: 'open', package: 'rescan-d' },
    ]);
    await submit('rescans', lock({ ...npm('rescan-a', '3.0.0'), ...npm('rescan-c', '3.0.0'), ...npm('rescan-d', '1.0.0') }));
    expect((await alert('rescans', 1)).state).toBe('fixed');
    // A second advisory covering 3.0.0 finds the version of the last scan.
    await importOsv([osv('GHSA-9f3w-6j2p-r4rc', 'rescan-c', { fixed: '4.0.0' })]);
    const opened = (await alerts('rescans')).find((a) => a.security_advisory.svcsa_id === 'GHSA-9f3w-6j2p-r4rc');
    expect(opened).toMatchObject({ number: 3, state: 'open', dependency: { package: { name: 'rescan-c' } } });
    expect((await alerts('rescans')).map((a) => a.number)).toEqual([1, 2, 3]);
  });

  it('show the same use of a package held twice in a manifest, from a scan and from an import: the most exposed', async () => {
    const twice = { 'dup-pkg@1.0.0': { package_url: 'pkg:npm/dup-pkg@1.0.0', relationship: 'indirect', scope: 'development' }, 'dup-pkg@1.1.0': { package_url: 'pkg:npm/dup-pkg@1.1.0', relationship: 'direct', scope: 'runtime' } };
    await submit('twice', lock(twice));
    await importOsv([osv('GHSA-3c8v-q5m2-w7hh', 'dup-pkg', { fixed: '2.0.0' })]);
    const [fromImport] = await alerts('twice');
    expect(fromImport).toMatchObject({ number: 1, state: 'open', dependency: { scope: 'runtime', relationship: 'direct' } });
    await submit('twice', lock(twice));
    const [fromScan] = await alerts('twice');
    expect(fromScan).toMatchObject({ number: 1, state: 'open', dependency: { scope: 'runtime', relationship: 'direct' } });
    expect(fromScan.updated_at).toBe(fromImport.updated_at);
  });
});

describe('EPSS imports', () => {
  it('keep the alerts\' EPSS copies right: the filter and the shown score follow', async () => {
    await importOsv([{ ...osv('GHSA-ae00-0000-0300', 'scored-pkg', { fixed: '2.0.0' }), aliases: ['CVE-2026-30000'] }]);
    await submit('kinds', lock(npm('scored-pkg', '1.0.0')), 'refs/heads/main', 'epss-job');
    const scored = () => t.http().get(`/repos/${ORG}/kinds/dependency-bot/alerts?epss_percentage=>=0.5`).set(owner);
    expect((await scored()).body).toEqual([]);
    const file = path.join(dir, 'epss.csv');
    writeEpssFile(file, [['CVE-2026-30000', '0.91', '0.99']]);
    await t.services.epssImport.importFile(file, (error) => { throw new Error(JSON.stringify(error)); });
    const res = await scored();
    expect(res.body.map((a: any) => [a.dependency.package.name, a.security_advisory.epss])).toEqual([['scored-pkg', { percentage: 0.91, percentile: '0.99' }]]);
    expect(res.body[0].security_vulnerability.first_patched_version).toEqual({ identifier: '2.0.0' });
  });
});

describe('alerts declared in world files', () => {
  it('are reconciled by the first applied snapshot: gone dependencies fixed, dismissals kept, held ones kept (no duplicate)', async () => {
    const advisory = (svcsa: string, name: string) => ({
      svcsa_id: svcsa, summary: svcsa, severity: 'medium', published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
      vulnerabilities: [{ package: { ecosystem: 'npm', name }, severity: 'medium', vulnerable_version_range: '< 2.0.0', first_patched_version: { identifier: '2.0.0' } }],
    });
    const declared = (number: number, svcsa: string, name: string, extra: object = {}) => ({
      repository: `${ORG}/declared`, number, advisory: svcsa, package: { ecosystem: 'npm', name }, manifest_path: 'app/package-lock.json', ...extra,
    });
    await t.load({
      advisories: [advisory('SVCSA-AE-1', 'gone-pkg'), advisory('SVCSA-AE-2', 'kept-pkg'), advisory('SVCSA-AE-3', 'held-pkg'), advisory('SVCSA-AE-4', 'auto-pkg')],
      alerts: [
        declared(1, 'SVCSA-AE-1', 'gone-pkg'),
        declared(2, 'SVCSA-AE-2', 'kept-pkg', { state: 'dismissed', dismissed_at: '2026-01-05T00:00:00Z', dismissed_by: 'ae-owner', dismissed_reason: 'not_used' }),
        declared(3, 'SVCSA-AE-3', 'held-pkg'),
        declared(4, 'SVCSA-AE-4', 'auto-pkg', { state: 'auto_dismissed', auto_dismissed_at: '2026-01-05T00:00:00Z' }),
      ],
    });
    // An import before any snapshot leaves declared alerts as they are.
    await importOsv([osv('GHSA-ae00-0000-0200', 'gone-pkg', { fixed: '9.0.0' })]);
    expect((await alerts('declared')).map((a) => a.state)).toEqual(['open', 'dismissed', 'open', 'auto_dismissed']);
    await submit('declared', lock({ ...npm('held-pkg', '1.0.0'), ...npm('auto-pkg', '1.0.0') }));
    expect((await alerts('declared')).map(summary)).toEqual([
      { number: 1, state: 'fixed', package: 'gone-pkg' },
      { number: 2, state: 'dismissed', package: 'kept-pkg' },
      { number: 3, state: 'open', package: 'held-pkg' },
      { number: 4, state: 'auto_dismissed', package: 'auto-pkg' },
    ]);
    expect(await events('declared')).toEqual([['fixed', 1, 'fixed', null]]);
  });

  it('world `dependency_snapshots` raise alerts as S1 does', async () => {
    await t.load({
      dependency_snapshots: [{
        repository: `${ORG}/world`, version: 0, sha: 'ce587453ced02b1526dfb4cb910479d431683101', ref: 'refs/heads/main',
        job: { id: 'w', correlator: 'world' }, detector: { name: 'd', version: '1', url: 'https://example.com/d' }, scanned: '2026-03-01T00:00:00Z',
        manifests: { lock: { name: 'package-lock.json', resolved: { qs: { package_url: 'pkg:npm/qs@6.0.0', relationship: 'direct' } } } },
      }],
    });
    expect((await alerts('world')).map((a) => [a.number, a.state, a.dependency.manifest_path, a.dependency.relationship])).toEqual([[1, 'open', 'package-lock.json', 'direct']]);
    expect(await events('world')).toEqual([['created', 1, 'open', null]]);
  });
});

describe('concurrent snapshots of one repository', () => {
  it('never duplicate an alert and number without gaps', async () => {
    const versions = ['1.0.0', '1.1.0', '1.2.0', '1.3.0', '1.0.1', '1.1.1'];
    // One correlator each: every snapshot stays current, each with its own manifest.
    await Promise.all(versions.map((v, i) => submit('parallel', { [`m${i}.json`]: { resolved: { ...npm('left-pad', v), ...npm('qs', '6.0.0') } } }, 'refs/heads/main', `job-${i}`)));
    const list = await alerts('parallel');
    expect(list.map((a) => a.number)).toEqual(Array.from({ length: list.length }, (_, i) => i + 1));
    const findings = list.map((a) => `${a.security_advisory.svcsa_id} ${a.dependency.package.name} ${a.dependency.manifest_path}`);
    expect(new Set(findings).size).toBe(findings.length);
    expect(list.filter((a) => a.state === 'open')).toHaveLength(12);
  });
});
