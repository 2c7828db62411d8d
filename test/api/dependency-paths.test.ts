import fs from 'node:fs';
import path from 'node:path';
import { gql } from '../helpers/graphql';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 39: the path to every vulnerable dependency. Snapshots (#30) and SBOMs (#68) carry a
// dependency graph; GET …/dependency-bot/alerts/{alert_number}/paths (#71) and
// DependencyAlert.dependencyPaths answer the paths from a direct dependency to the alert's
// package, shortest first.

const ORG = 'dp-org';
const OWNER = 'dp_owner_token';
const OUTSIDER = 'dp_outsider_token';
const REPOS = ['graph', 'flat', 'sbom', 'generated', 'declared'];

const advisory = (id: string, name: string, range: string) => ({
  svcsa_id: id, classification: 'general', severity: 'high', summary: `${name} is vulnerable`, description: 'A test advisory.',
  published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z', identifiers: [{ type: 'SVCSA', value: id }],
  vulnerabilities: [{ package: { ecosystem: 'npm', name }, severity: 'high', vulnerable_version_range: range, first_patched_version: { identifier: '2.0.0' } }],
});

const world = {
  users: [{ login: 'dp-owner' }, { login: 'dp-outsider' }],
  organizations: [{ login: ORG, owners: ['dp-owner'] }],
  repositories: REPOS.map((name) => ({ owner: ORG, name, private: true })),
  advisories: [
    advisory('SVCSA-PATH-0001', 'vuln-lib', '< 2.0.0'),
    advisory('SVCSA-PATH-0002', 'mid', '< 2.0.0'),
    // Every version of orgsec's own `debug`, reached through its SBOM's graph.
    advisory('SVCSA-PATH-0003', 'debug', '< 999.0.0'),
  ],
  // An alert a world file declares, with no snapshot behind it.
  alerts: [{ repository: `${ORG}/declared`, advisory: 'SVCSA-PATH-0001', package: { ecosystem: 'npm', name: 'vuln-lib' }, manifest_path: 'package-lock.json' }],
  tokens: [
    { token: OWNER, type: 'classic', user: 'dp-owner', scopes: ['repo'] },
    { token: OUTSIDER, type: 'classic', user: 'dp-outsider', scopes: ['repo'] },
  ],
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
});
afterAll(() => t.close());

const npm = (name: string, version: string) => `pkg:npm/${name}@${version}`;

/** #30's body: one manifest whose packages are `[purl, relationship, dependencies]`. */
function snapshot(resolved: Array<[string, 'direct' | 'indirect' | undefined, string[]?]>) {
  return {
    version: 0, sha: 'd'.repeat(40), ref: 'refs/heads/main', scanned: '2026-03-01T10:00:00Z',
    job: { id: 'paths-1', correlator: 'paths' }, detector: { name: 'paths-detector', version: '1.0.0', url: 'https://example.com/detector' },
    manifests: { lock: { name: 'package-lock.json', resolved: Object.fromEntries(resolved.map(([purl, relationship, dependencies], i) => [
      `p${i}`, { package_url: purl, ...(relationship ? { relationship } : {}), ...(dependencies ? { dependencies } : {}) },
    ])) } },
  };
}

// app-a → mid → vuln-lib@1.5.0 (mid ↔ cyc a cycle); app-a → long1 → long2 → vuln-lib (long1 of a purl type no advisory
// names); app-b → x → y → vuln-lib (x ↔ y a cycle; app-b also names a package the manifest does not list); vuln-lib@2.1.0,
// direct but patched, starts no path.
const GRAPH = snapshot([
  [npm('app-a', '1.0.0'), 'direct', [npm('mid', '1.0.0'), 'pkg:generic/long1@1.0.0']],
  [npm('app-b', '1.0.0'), 'direct', [npm('x', '1.0.0'), npm('ghost', '1.0.0')]],
  [npm('mid', '1.0.0'), 'indirect', [npm('vuln-lib', '1.5.0'), npm('cyc', '1.0.0')]],
  [npm('cyc', '1.0.0'), 'indirect', [npm('mid', '1.0.0')]],
  ['pkg:generic/long1@1.0.0', 'indirect', [npm('long2', '1.0.0')]],
  [npm('long2', '1.0.0'), 'indirect', [npm('vuln-lib', '1.5.0')]],
  [npm('x', '1.0.0'), 'indirect', [npm('y', '1.0.0')]],
  [npm('y', '1.0.0'), 'indirect', [npm('x', '1.0.0'), npm('vuln-lib', '1.5.0')]],
  [npm('vuln-lib', '1.5.0'), 'indirect'],
  [npm('vuln-lib', '2.1.0'), 'direct'],
]);

const base = (repo: string) => `/repos/${ORG}/${repo}/dependency-bot/alerts`;
const pathsOf = (repo: string, number: number, query = '', token = OWNER) => t.http().get(`${base(repo)}/${number}/paths${query}`).set(bearer(token));

/** The number of the repository's alert on `name`. */
async function alertNumber(repo: string, name: string): Promise<number> {
  const res = await t.http().get(`${base(repo)}?package=${name}`).set(bearer(OWNER));
  expect(res.status).toBe(200);
  expect(res.body).toHaveLength(1);
  return res.body[0].number;
}

/** A path's packages as `name@version`. */
const route = (p: { packages: Array<{ name: string; version: string | null }> }) => p.packages.map((x) => `${x.name}@${x.version}`).join(' > ');

describe('GET /repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}/paths', () => {
  let vulnLib: number;
  beforeAll(async () => {
    expect((await t.http().post(`/repos/${ORG}/graph/dependency-graph/snapshots`).set(bearer(OWNER)).send(GRAPH)).body.result).toBe('SUCCESS');
    vulnLib = await alertNumber('graph', 'vuln-lib');
  });

  it('answers the paths from each direct dependency to the vulnerable package, shortest first, ties by package URL, cycles cut', async () => {
    const res = await pathsOf('graph', vulnLib);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.map(route)).toEqual([
      'app-a@1.0.0 > mid@1.0.0 > vuln-lib@1.5.0',
      'app-a@1.0.0 > long1@1.0.0 > long2@1.0.0 > vuln-lib@1.5.0',
      'app-b@1.0.0 > x@1.0.0 > y@1.0.0 > vuln-lib@1.5.0',
    ]);
    expect(res.body[1]).toEqual({
      manifest_path: 'package-lock.json',
      packages: [
        { package_url: npm('app-a', '1.0.0'), ecosystem: 'npm', name: 'app-a', version: '1.0.0', relationship: 'direct', scope: 'runtime' },
        { package_url: 'pkg:generic/long1@1.0.0', ecosystem: null, name: 'long1', version: '1.0.0', relationship: 'indirect', scope: 'runtime' },
        { package_url: npm('long2', '1.0.0'), ecosystem: 'npm', name: 'long2', version: '1.0.0', relationship: 'indirect', scope: 'runtime' },
        { package_url: npm('vuln-lib', '1.5.0'), ecosystem: 'npm', name: 'vuln-lib', version: '1.5.0', relationship: 'indirect', scope: 'runtime' },
      ],
    });
  });

  it('answers the same under the original\'s `dependabot` segment', async () => {
    const res = await t.http().get(`/repos/${ORG}/graph/dependabot/alerts/${vulnLib}/paths`).set(bearer(OWNER));
    expect(res.status).toBe(200);
    expect(res.body).toEqual((await pathsOf('graph', vulnLib)).body);
  });

  it('ends a path at a vulnerable direct dependency itself', async () => {
    expect((await pathsOf('graph', await alertNumber('graph', 'mid'))).body.map(route)).toEqual(['app-a@1.0.0 > mid@1.0.0']);
  });

  it('answers at most `per_page` paths (default 10), the shortest', async () => {
    expect((await pathsOf('graph', vulnLib, '?per_page=2')).body.map(route)).toEqual([
      'app-a@1.0.0 > mid@1.0.0 > vuln-lib@1.5.0', 'app-a@1.0.0 > long1@1.0.0 > long2@1.0.0 > vuln-lib@1.5.0',
    ]);
    expect((await pathsOf('graph', vulnLib, '?per_page=1')).body).toHaveLength(1);
    expect((await pathsOf('graph', vulnLib, '?per_page=100')).body).toHaveLength(3);
  });

  it.each(['0', '101', 'ten', '1.5'])('answers 422 naming per_page for per_page=%s', async (value) => {
    const res = await pathsOf('graph', vulnLib, `?per_page=${value}`);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ resource: 'DependencyAlert', field: 'per_page', code: 'invalid' })]);
  });

  it('answers 404 for an unknown alert as the alert\'s own read does, and for a private repository to an outsider', async () => {
    const unknown = await pathsOf('graph', 9999);
    expect(unknown.status).toBe(404);
    const read = await t.http().get(`${base('graph')}/9999`).set(bearer(OWNER));
    expect(unknown.body.message).toBe(read.body.message);
    expect(unknown.body.status).toBe('404');
    const hidden = await pathsOf('graph', vulnLib, '', OUTSIDER);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(unknown.body.message);
    // Without a token, as the alert's own read.
    const anonymous = await t.http().get(`${base('graph')}/${vulnLib}/paths`);
    expect(anonymous.status).toBe((await t.http().get(`${base('graph')}/${vulnLib}`)).status);
  });

  it('answers an empty list when the snapshot carried no graph', async () => {
    const flat = snapshot([[npm('vuln-lib', '1.0.0'), undefined], [npm('other', '1.0.0'), undefined]]);
    expect((await t.http().post(`/repos/${ORG}/flat/dependency-graph/snapshots`).set(bearer(OWNER)).send(flat)).body.result).toBe('SUCCESS');
    const res = await pathsOf('flat', await alertNumber('flat', 'vuln-lib'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('answers an empty list for an alert with no current dependency (declared by a world file)', async () => {
    const res = await pathsOf('declared', await alertNumber('declared', 'vuln-lib'));
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('follows the graph of an uploaded SBOM', async () => {
    const bom = {
      bomFormat: 'CycloneDX', specVersion: '1.6', version: 1,
      metadata: { component: { type: 'application', name: 'svc', 'bom-ref': 'svc' } },
      components: [
        { type: 'library', name: 'web-framework', version: '4.0.0', purl: npm('web-framework', '4.0.0'), 'bom-ref': 'web' },
        { type: 'library', name: 'vuln-lib', version: '1.2.0', purl: npm('vuln-lib', '1.2.0'), 'bom-ref': 'vuln' },
      ],
      dependencies: [{ ref: 'svc', dependsOn: ['web'] }, { ref: 'web', dependsOn: ['vuln'] }],
    };
    const upload = await t.http().post(`/repos/${ORG}/sbom/dependency-graph/sbom-uploads?manifest=sbom.cdx.json`).set(bearer(OWNER)).send(bom);
    expect(upload.status).toBe(201);
    const res = await pathsOf('sbom', await alertNumber('sbom', 'vuln-lib'));
    expect(res.body).toEqual([{
      manifest_path: 'sbom.cdx.json',
      packages: [
        { package_url: npm('web-framework', '4.0.0'), ecosystem: 'npm', name: 'web-framework', version: '4.0.0', relationship: 'direct', scope: 'runtime' },
        { package_url: npm('vuln-lib', '1.2.0'), ecosystem: 'npm', name: 'vuln-lib', version: '1.2.0', relationship: 'indirect', scope: 'runtime' },
      ],
    }]);
  });

  it('follows the graph of a generator\'s SBOM (cyclonedx-npm of orgsec itself): direct first, debug last, shortest first', async () => {
    const bom = fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'sbom', 'orgsec.cdx.json'), 'utf8');
    const upload = await t.http().post(`/repos/${ORG}/generated/dependency-graph/sbom-uploads?manifest=package-lock.json`)
      .set(bearer(OWNER)).set('Content-Type', 'application/vnd.cyclonedx+json').send(bom);
    expect(upload.status).toBe(201);
    const res = await pathsOf('generated', await alertNumber('generated', 'debug'), '?per_page=100');
    expect(res.status).toBe(200);
    expect(res.body.length).toBeGreaterThan(1);
    const lengths = res.body.map((p: { packages: unknown[] }) => p.packages.length);
    expect(lengths).toEqual([...lengths].sort((a, b) => a - b));
    for (const p of res.body) {
      expect(p.packages[0].relationship).toBe('direct');
      expect(p.packages.at(-1).name).toBe('debug');
      expect(p.packages.slice(0, -1).map((x: { name: string }) => x.name)).not.toContain('debug');
      expect(new Set(p.packages.map((x: { package_url: string }) => x.package_url)).size).toBe(p.packages.length);
    }
  });
});

describe('DependencyAlert.dependencyPaths', () => {
  const PATHS = 'dependencyPaths(first: $first) { manifestPath packages { packageUrl ecosystem name version relationship scope } }';
  const ONE = `query($number: Int!, $first: Int) { repository(owner: "${ORG}", name: "graph") { dependencyAlert(number: $number) { ${PATHS} } } }`;

  it('answers what REST answers, in GraphQL\'s names', async () => {
    const number = await alertNumber('graph', 'vuln-lib');
    const res = await gql(t, ONE, { token: OWNER, variables: { number, first: 2 } });
    expect(res.errors).toBeUndefined();
    const rest = (await pathsOf('graph', number, '?per_page=2')).body;
    expect(res.data.repository.dependencyAlert.dependencyPaths).toEqual(rest.map((p: any) => ({
      manifestPath: p.manifest_path,
      packages: p.packages.map((x: any) => ({ packageUrl: x.package_url, ecosystem: x.ecosystem, name: x.name, version: x.version, relationship: x.relationship, scope: x.scope })),
    })));
  });

  it('answers up to ten paths when `first` is not given', async () => {
    const number = await alertNumber('graph', 'vuln-lib');
    const res = await gql(t, `{ repository(owner: "${ORG}", name: "graph") { dependencyAlert(number: ${number}) { dependencyPaths { manifestPath } } } }`, { token: OWNER });
    expect(res.data.repository.dependencyAlert.dependencyPaths).toHaveLength(3);
  });

  it.each([0, 101])('refuses first: %s with a clear error', async (first) => {
    const res = await gql(t, ONE, { token: OWNER, variables: { number: await alertNumber('graph', 'vuln-lib'), first } });
    expect(res.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('first'), path: ['repository', 'dependencyAlert', 'dependencyPaths'] })]);
    expect(res.errors![0]!.message).toContain('1 to 100');
  });

  it('reads each repository\'s current dependencies once for all its alerts', async () => {
    const alerts = (repo: string) => `${repo}: repository(owner: "${ORG}", name: "${repo}") { dependencyAlerts(first: 10) { edges { node { dependencyPaths { packages { name } } } } } }`;
    const statements: Array<{ sql: string; bindings: unknown[] }> = [];
    const listen = (query: { sql: string; bindings: unknown[] }) => statements.push(query);
    t.db.knex.on('query', listen);
    try {
      const res = await gql(t, `{ ${alerts('graph')} ${alerts('sbom')} }`, { token: OWNER });
      expect(res.errors).toBeUndefined();
      const routes = (repo: string) => res.data[repo].dependencyAlerts.edges.map((e: any) => e.node.dependencyPaths.map((p: any) => p.packages.map((x: any) => x.name).join(' > '))).sort();
      expect(routes('graph')).toEqual([['app-a > mid'], ['app-a > mid > vuln-lib', 'app-a > long1 > long2 > vuln-lib', 'app-b > x > y > vuln-lib']]);
      expect(routes('sbom')).toEqual([['web-framework > vuln-lib']]);
    } finally {
      t.db.knex.off('query', listen);
    }
    // The loader batches what one tick asks for: the two repositories may come in one statement or two, never an alert's own.
    const repoIdsRead = statements.filter((q) => q.sql.includes('dependency_snapshot_manifests')).flatMap((q) => q.bindings);
    expect(repoIdsRead).toHaveLength(2);
    expect(new Set(repoIdsRead).size).toBe(2);
  });
});
