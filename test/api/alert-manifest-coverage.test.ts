import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importAdvisories } from '../helpers/advisory-import';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 40, through the public API (interfaces.md Part 2 "Dependency snapshots and computed
// alerts", corrected; reference.md Part 2 "Alert lifecycle"): a snapshot settles only the
// alerts of the manifests it covers. An alert a world file declared in a manifest no applied
// snapshot has covered stays exactly as declared (state, updated_at, no event), whatever
// re-evaluates the repository: a snapshot of other manifests, a rule change, an advisory
// import. Once a snapshot covers its manifest it is settled; a manifest a later snapshot of the
// same correlator and detector drops is gone, and its open alerts are fixed.

const ORG = 'cov-org';
const TOKEN = 'cov_owner_token';
const owner = bearer(TOKEN);
const DECLARED_AT = '2026-01-05T00:00:00Z';

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-manifest-coverage-'));
  const repos = ['settle', 'dropped', 'rules', 'imports'];
  await t.load({
    users: [{ login: 'cov-owner' }],
    organizations: [{ login: ORG, owners: ['cov-owner'] }],
    repositories: repos.map((name) => ({ owner: ORG, name, private: true })),
    tokens: [{ token: TOKEN, type: 'classic', user: 'cov-owner', scopes: ['repo'] }],
    advisories: [
      advisory('GHSA-cv00-0000-0001', 'npm', 'left-pad', 'high'),
      advisory('GHSA-cv00-0000-0002', 'npm', 'qs', 'high'),
      advisory('GHSA-cv00-0000-0003', 'rubygems', 'yamlette', 'critical'),
      advisory('GHSA-cv00-0000-0004', 'rubygems', 'rack-lite', 'medium'),
      advisory('GHSA-cv00-0000-0005', 'rubygems', 'oldgem', 'critical'),
    ],
    alerts: repos.flatMap((repo) => [
      declared(repo, 1, 'GHSA-cv00-0000-0001', 'npm', 'left-pad', 'package-lock.json'),
      declared(repo, 2, 'GHSA-cv00-0000-0002', 'npm', 'qs', 'package-lock.json'),
      declared(repo, 3, repo === 'imports' ? 'GHSA-cv00-0000-0005' : 'GHSA-cv00-0000-0003', 'rubygems', repo === 'imports' ? 'oldgem' : 'yamlette', 'Gemfile.lock'),
      declared(repo, 4, 'GHSA-cv00-0000-0004', 'rubygems', 'rack-lite', 'Gemfile.lock', { state: 'auto_dismissed', auto_dismissed_at: DECLARED_AT }),
    ]),
  });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A world advisory of one package, vulnerable below 2.0.0. */
function advisory(svcsa: string, ecosystem: string, name: string, severity: string) {
  return {
    svcsa_id: svcsa, summary: `${name} is vulnerable`, severity, published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
    vulnerabilities: [{ package: { ecosystem, name }, severity, vulnerable_version_range: '< 2.0.0', first_patched_version: { identifier: '2.0.0' } }],
  };
}

/** A world alert, open unless `extra` says otherwise, last changed at DECLARED_AT. */
function declared(repo: string, number: number, svcsa: string, ecosystem: string, name: string, manifest: string, extra: object = {}) {
  return {
    repository: `${ORG}/${repo}`, number, advisory: svcsa, package: { ecosystem, name }, manifest_path: manifest,
    created_at: '2026-01-02T00:00:00Z', updated_at: DECLARED_AT, ...extra,
  };
}

type Manifests = Record<string, string[]>;
let scans = 0;
/** S1 of manifests (name → purls), each scanned later than the last. */
async function submit(repo: string, manifests: Manifests, correlator = 'ci') {
  scans += 1;
  const res = await t.http().post(`/repos/${ORG}/${repo}/dependency-graph/snapshots`).set(owner).send({
    version: 0, sha: 'ce587453ced02b1526dfb4cb910479d431683101', ref: 'refs/heads/main',
    job: { id: `run-${scans}`, correlator }, detector: { name: 'detector', version: '1', url: 'https://example.com/d' },
    scanned: new Date(Date.UTC(2026, 5, 1) + scans * 1000).toISOString(),
    manifests: Object.fromEntries(Object.entries(manifests).map(([name, purls]) => [name, {
      name, resolved: Object.fromEntries(purls.map((purl) => [purl, { package_url: purl, relationship: 'direct' }])),
    }])),
  });
  expect([res.status, res.body.result]).toEqual([201, 'SUCCESS']);
}

/** The repository's alerts, whole, in number order. */
async function alerts(repo: string): Promise<any[]> {
  const res = await t.http().get(`/repos/${ORG}/${repo}/dependency-bot/alerts?state=open,fixed,dismissed,auto_dismissed&per_page=100`).set(owner);
  expect(res.status).toBe(200);
  return [...res.body].sort((a, b) => a.number - b.number);
}

/** The repository's alerts as `number package state`. */
async function states(repo: string): Promise<string[]> {
  return (await alerts(repo)).map((a) => `${a.number} ${a.dependency.package.name} ${a.state}`);
}

/** The repository's events as `action number`, in order. */
async function events(repo: string): Promise<string[]> {
  const repoId = Number((await t.db.knex('repositories').where({ name: repo }).first('id')).id);
  const rows = await t.db.knex('events').where('repo_id', repoId).orderBy('id').select('action', 'payload');
  return rows.map((row) => `${row.action} ${JSON.parse(row.payload).alert.number}`);
}

let files = 0;
async function importOsv(docs: object[]): Promise<void> {
  const batch = path.join(dir, `batch-${(files += 1)}`);
  fs.mkdirSync(batch);
  for (const doc of docs) fs.writeFileSync(path.join(batch, `${(doc as { id: string }).id}.json`), JSON.stringify(doc));
  expect((await importAdvisories(t.db, [batch])).problems).toEqual([]);
}

const npmLock = (...purls: string[]): Manifests => ({ 'package-lock.json': purls });
const gemfile = (...purls: string[]): Manifests => ({ 'Gemfile.lock': purls });
const gemAlerts = async (repo: string) => (await alerts(repo)).filter((a) => a.dependency.manifest_path === 'Gemfile.lock');

describe('a snapshot of some of a repository\'s manifests', () => {
  it('settles the alerts of the manifests it covers and leaves the others exactly as declared; a later snapshot of theirs settles them', async () => {
    const gemsBefore = await gemAlerts('settle');
    expect(gemsBefore.map((a) => [a.number, a.state, a.updated_at])).toEqual([[3, 'open', DECLARED_AT], [4, 'auto_dismissed', DECLARED_AT]]);
    // left-pad still vulnerable (kept), qs upgraded (fixed); Gemfile.lock not covered.
    await submit('settle', npmLock('pkg:npm/left-pad@1.0.0', 'pkg:npm/qs@2.0.0'));
    expect(await states('settle')).toEqual(['1 left-pad open', '2 qs fixed', '3 yamlette open', '4 rack-lite auto_dismissed']);
    expect(await gemAlerts('settle')).toEqual(gemsBefore);
    expect((await alerts('settle'))[0].updated_at).toBe(DECLARED_AT);
    expect(await events('settle')).toEqual(['fixed 2']);

    // Another correlator's snapshot covers Gemfile.lock: yamlette upgraded, rack-lite gone.
    await submit('settle', gemfile('pkg:gem/yamlette@2.0.0'), 'gems');
    expect(await states('settle')).toEqual(['1 left-pad open', '2 qs fixed', '3 yamlette fixed', '4 rack-lite fixed']);
    expect(await events('settle')).toEqual(['fixed 2', 'fixed 3', 'fixed 4']);
  });

  it('fixes the open alerts of a manifest a later snapshot of the same correlator and detector no longer holds (its manifest gone)', async () => {
    await submit('dropped', { ...npmLock('pkg:npm/left-pad@1.0.0', 'pkg:npm/qs@1.0.0'), ...gemfile('pkg:gem/yamlette@1.0.0') });
    expect(await states('dropped')).toEqual(['1 left-pad open', '2 qs open', '3 yamlette open', '4 rack-lite fixed']);
    expect(await events('dropped')).toEqual(['fixed 4']);
    await submit('dropped', npmLock('pkg:npm/left-pad@1.0.0', 'pkg:npm/qs@1.0.0'));
    expect(await states('dropped')).toEqual(['1 left-pad open', '2 qs open', '3 yamlette fixed', '4 rack-lite fixed']);
    expect(await events('dropped')).toEqual(['fixed 4', 'fixed 3']);
  });
});

describe('re-evaluations other than snapshots', () => {
  it('a rule change triages an alert of a manifest no snapshot covered, and never fixes it', async () => {
    await submit('rules', npmLock('pkg:npm/left-pad@1.0.0', 'pkg:npm/qs@1.0.0'));
    const gemsBefore = await gemAlerts('rules');
    // A rule that matches nothing re-evaluates the repository: nothing moves.
    const none = await t.http().post(`/repos/${ORG}/rules/dependency-bot/rules`).set(owner).send({ name: 'Low only', conditions: { severity: ['low'] } });
    expect(none.status).toBe(201);
    expect(await gemAlerts('rules')).toEqual(gemsBefore);
    // One on Gemfile.lock dismisses its open alert; deleted, the alert is open again, not fixed.
    const gems = await t.http().post(`/repos/${ORG}/rules/dependency-bot/rules`).set(owner).send({ name: 'Gems', conditions: { manifest: ['Gemfile.lock'] } });
    expect(gems.status).toBe(201);
    expect(await states('rules')).toEqual(['1 left-pad open', '2 qs open', '3 yamlette auto_dismissed', '4 rack-lite auto_dismissed']);
    expect((await t.http().delete(`/repos/${ORG}/rules/dependency-bot/rules/${gems.body.id}`).set(owner)).status).toBe(204);
    expect(await states('rules')).toEqual(['1 left-pad open', '2 qs open', '3 yamlette open', '4 rack-lite auto_dismissed']);
    expect(await events('rules')).toEqual(['auto_dismissed 3', 'auto_reopened 3']);
  });

  it('an advisory import leaves an alert of a manifest no snapshot covered as declared; once covered, the import settles it', async () => {
    await submit('imports', npmLock('pkg:npm/left-pad@1.0.0', 'pkg:npm/qs@1.0.0'));
    const before = await alerts('imports');
    // The declared alert's advisory imported again, narrowed: its repositories are re-evaluated.
    const oldgem = (fixed: string, modified: string) => ({
      schema_version: '1.6.0', id: 'GHSA-cv00-0000-0005', modified, published: '2026-01-01T00:00:00Z', aliases: [],
      summary: 'oldgem is vulnerable', details: 'A test advisory on oldgem.',
      affected: [{ package: { ecosystem: 'RubyGems', name: 'oldgem' }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed }] }] }],
      database_specific: { severity: 'CRITICAL', github_reviewed: true, cwe_ids: [] },
    });
    await importOsv([oldgem('1.5.0', '2026-02-01T00:00:00Z')]);
    const after = await alerts('imports');
    expect(after.map((a) => [a.number, a.state, a.updated_at])).toEqual(before.map((a) => [a.number, a.state, a.updated_at]));
    expect(after[2].security_vulnerability.vulnerable_version_range).toBe('< 1.5.0');
    expect(await events('imports')).toEqual([]);
    // Covered with oldgem 1.6.0, outside the narrowed range: fixed; widened again by an import: reintroduced.
    await submit('imports', gemfile('pkg:gem/oldgem@1.6.0'), 'gems');
    expect(await states('imports')).toEqual(['1 left-pad open', '2 qs open', '3 oldgem fixed', '4 rack-lite fixed']);
    await importOsv([oldgem('3.0.0', '2026-02-02T00:00:00Z')]);
    expect(await states('imports')).toEqual(['1 left-pad open', '2 qs open', '3 oldgem open', '4 rack-lite fixed']);
    expect(await events('imports')).toEqual(['fixed 3', 'fixed 4', 'reintroduced 3']);
  });
});
