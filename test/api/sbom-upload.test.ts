import fs from 'node:fs';
import path from 'node:path';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { hashTables } from '../helpers/table-hash';

// Issue 39: SBOMs in. Documents made by real generators (test/fixtures/sbom: cyclonedx-npm's
// CycloneDX 1.6 and npm's SPDX 2.3 of orgsec itself) uploaded to one repository, and the same
// dependencies submitted through #30 to another: the alerts are the same.

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'sbom');
const CDX_TEXT = fs.readFileSync(path.join(FIXTURES, 'orgsec.cdx.json'), 'utf8');
const SPDX_TEXT = fs.readFileSync(path.join(FIXTURES, 'orgsec.spdx.json'), 'utf8');
const ORG = 'sb-org';
const OWNER = 'sb_owner_token';
const READER = 'sb_reader_token';
const OUTSIDER = 'sb_outsider_token';
const FINE_WRITE = 'sb_fine_write';
const REPOS = ['cdx-upload', 'cdx-snapshot', 'spdx-upload', 'spdx-snapshot', 'scratch'];
/** Packages of orgsec's runtime tree, direct (express, knex) and not (body-parser, debug), each with an advisory over every version. */
const VULNERABLE = ['express', 'knex', 'body-parser', 'debug'];

const world = {
  users: [{ login: 'sb-owner' }, { login: 'sb-reader' }, { login: 'sb-outsider' }],
  organizations: [{ login: ORG, owners: ['sb-owner'] }],
  repositories: REPOS.map((name) => ({ owner: ORG, name, private: true, collaborators: [{ login: 'sb-reader', permission: 'read' }] })),
  advisories: VULNERABLE.map((name, i) => ({
    svcsa_id: `SVCSA-SBOM-000${i}`, classification: 'general', severity: 'high', summary: `${name} is vulnerable`, description: 'A test advisory.',
    published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z', identifiers: [{ type: 'SVCSA', value: `SVCSA-SBOM-000${i}` }],
    vulnerabilities: [{ package: { ecosystem: 'npm', name }, severity: 'high', vulnerable_version_range: '< 999.0.0', first_patched_version: { identifier: '999.0.0' } }],
  })),
  tokens: [
    { token: OWNER, type: 'classic', user: 'sb-owner', scopes: ['repo'] },
    { token: READER, type: 'classic', user: 'sb-reader', scopes: ['repo'] },
    { token: OUTSIDER, type: 'classic', user: 'sb-outsider', scopes: ['repo'] },
    { token: FINE_WRITE, type: 'fine_grained', user: 'sb-owner', resource_owner: ORG, permissions: { contents: 'write' } },
  ],
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
});
afterAll(() => t.close());

const upload = (repo: string, body: string, { token = OWNER, query = '' }: { token?: string; query?: string } = {}) =>
  t.http().post(`/repos/${ORG}/${repo}/dependency-graph/sbom-uploads${query}`).set(bearer(token)).set('Content-Type', 'application/vnd.cyclonedx+json').send(body);

/** The alerts of a repository as what they are about: advisory, package, manifest, scope, relationship, state. */
async function alertsOf(repo: string): Promise<string[]> {
  const res = await t.http().get(`/repos/${ORG}/${repo}/dependency-bot/alerts?per_page=100`).set(bearer(OWNER));
  expect(res.status).toBe(200);
  return (res.body as any[]).map((a) => [
    a.security_advisory.svcsa_id, a.dependency.package.name, a.dependency.manifest_path, a.dependency.scope, a.dependency.relationship, a.state,
  ].join(' ')).sort();
}

interface Resolved { package_url: string; relationship: 'direct' | 'indirect'; scope: 'runtime' | 'development'; dependencies: string[] }

/** #30's body for the same dependencies as a CycloneDX BOM: what its producer would have submitted. */
function snapshotOfCycloneDx(bom: any): Record<string, Resolved> {
  const purlOf = new Map<string, string>();
  const components: any[] = [];
  const walk = (list: any[] = []) => list.forEach((c) => { components.push(c); if (c.purl) purlOf.set(c['bom-ref'], c.purl); walk(c.components); });
  walk(bom.components);
  const edges = new Map<string, string[]>(bom.dependencies.map((d: any) => [d.ref, d.dependsOn ?? []]));
  const direct = new Set(edges.get(bom.metadata.component['bom-ref']));
  const resolved: Record<string, Resolved> = {};
  for (const c of components.filter((x) => x.purl)) {
    const known = resolved[c.purl];
    const entry: Resolved = {
      package_url: c.purl, relationship: direct.has(c['bom-ref']) ? 'direct' : 'indirect', scope: c.scope === 'optional' ? 'development' : 'runtime',
      dependencies: (edges.get(c['bom-ref']) ?? []).flatMap((ref) => purlOf.get(ref) ?? []),
    };
    resolved[c.purl] = known ? {
      ...known, relationship: known.relationship === 'direct' || entry.relationship === 'direct' ? 'direct' : 'indirect',
      scope: known.scope === 'runtime' || entry.scope === 'runtime' ? 'runtime' : 'development', dependencies: [...new Set([...known.dependencies, ...entry.dependencies])],
    } : entry;
  }
  return resolved;
}

/** #30's body for the same dependencies as npm's SPDX document (DEPENDENCY_OF edges, the described package the root). */
function snapshotOfSpdx(doc: any): Record<string, Resolved> {
  const purlOf = new Map<string, string>(doc.packages.flatMap((p: any) => (p.externalRefs ?? []).filter((r: any) => r.referenceType === 'purl').map((r: any) => [p.SPDXID, r.referenceLocator])));
  const root = doc.documentDescribes[0];
  const children = new Map<string, string[]>();
  for (const r of doc.relationships) {
    if (!/(^|_)DEPENDENCY_OF$|^PREREQUISITE_FOR$/.test(r.relationshipType)) continue;
    children.set(r.relatedSpdxElement, [...(children.get(r.relatedSpdxElement) ?? []), r.spdxElementId]);
  }
  const direct = new Set(children.get(root));
  const resolved: Record<string, Resolved> = {};
  for (const p of doc.packages) {
    const purl = purlOf.get(p.SPDXID);
    if (!purl || p.SPDXID === root) continue;
    resolved[purl] = { package_url: purl, relationship: direct.has(p.SPDXID) ? 'direct' : 'indirect', scope: 'runtime', dependencies: (children.get(p.SPDXID) ?? []).flatMap((id) => purlOf.get(id) ?? []) };
  }
  return resolved;
}

const snapshotBody = (resolved: Record<string, Resolved>) => ({
  version: 0, sha: 'ce587453ced02b1526dfb4cb910479d431683101', ref: 'refs/heads/main', scanned: '2026-03-01T10:00:00Z',
  job: { id: 'run-1', correlator: 'equivalent' }, detector: { name: 'test', version: '1', url: 'https://example.com/test' },
  manifests: { 'package-lock.json': { name: 'package-lock.json', resolved } },
});

describe('POST /repos/{owner}/{repo}/dependency-graph/sbom-uploads', () => {
  it.each([
    ['CycloneDX 1.6 from cyclonedx-npm', CDX_TEXT, 'cdx-upload', 'cdx-snapshot', () => snapshotOfCycloneDx(JSON.parse(CDX_TEXT))],
    ['SPDX 2.3 from npm sbom', SPDX_TEXT, 'spdx-upload', 'spdx-snapshot', () => snapshotOfSpdx(JSON.parse(SPDX_TEXT))],
  ])('%s gives the alerts #30 gives for the same dependencies', async (_name, text, uploaded, submitted, equivalent) => {
    const res = await upload(uploaded, text, { query: '?manifest=package-lock.json' });
    expect(res.status).toBe(201);
    const resolved = equivalent();
    expect(res.body).toMatchObject({ result: 'SUCCESS', manifest: 'package-lock.json', components: { recorded: Object.keys(resolved).length, unmatchable: 0 } });
    const snapshot = await t.http().post(`/repos/${ORG}/${submitted}/dependency-graph/snapshots`).set(bearer(OWNER)).send(snapshotBody(resolved));
    expect(snapshot.status).toBe(201);
    const alerts = await alertsOf(uploaded);
    expect(alerts.length).toBeGreaterThanOrEqual(VULNERABLE.length);
    expect(alerts).toContainEqual(expect.stringContaining(' express package-lock.json runtime direct open'));
    expect(alerts).toContainEqual(expect.stringContaining(' debug package-lock.json runtime transitive open'));
    expect(alerts).toEqual(await alertsOf(submitted));
  });

  it('answers what it read and recorded; the SBOM export lists the packages', async () => {
    const res = await upload('scratch', CDX_TEXT);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number), created_at: expect.any(String), result: 'SUCCESS', message: expect.any(String), format: 'CycloneDX 1.6', manifest: 'orgsec',
      components: { total: expect.any(Number), recorded: Object.keys(snapshotOfCycloneDx(JSON.parse(CDX_TEXT))).length, skipped: 0, unmatchable: 0 }, skipped: [],
    });
    const row = await t.db.knex('dependency_snapshots').where('id', res.body.id).first('detector_name', 'correlator');
    expect(row).toEqual({ detector_name: '@cyclonedx/cyclonedx-npm', correlator: 'sbom-upload orgsec' });
    const spdx = await upload('scratch', SPDX_TEXT);
    expect(spdx.body).toMatchObject({ format: 'SPDX 2.3', manifest: 'orgsec', components: { skipped: 1 }, skipped: [{ name: 'orgsec', path: '/packages/0', reason: 'subject' }] });
  });

  it('skips components without a package URL and says so', async () => {
    const bom = { bomFormat: 'CycloneDX', specVersion: '1.5', version: 1, components: [
      { type: 'library', name: 'left-pad', version: '1.0.0', purl: 'pkg:npm/left-pad@1.0.0', 'bom-ref': 'a' },
      { type: 'library', name: 'vendored-thing', version: '2.0' },
      { type: 'library', name: 'deb-thing', version: '1.0', purl: 'pkg:deb/debian/curl@7.0' },
    ] };
    const res = await upload('scratch', JSON.stringify(bom), { query: '?manifest=mixed' });
    expect(res.status).toBe(201);
    expect(res.body.components).toEqual({ total: 3, recorded: 2, skipped: 1, unmatchable: 1 });
    expect(res.body.skipped).toEqual([{ name: 'vendored-thing', path: '/components/1', reason: 'no_package_url' }]);
  });

  it('a dependency graph with a cycle is read', async () => {
    const bom = { bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, metadata: { component: { type: 'application', name: 'app', 'bom-ref': 'app' } }, components: [
      { type: 'library', name: 'a', version: '1.0.0', purl: 'pkg:npm/a@1.0.0', 'bom-ref': 'a' },
      { type: 'library', name: 'b', version: '1.0.0', purl: 'pkg:npm/b@1.0.0', 'bom-ref': 'b' },
    ], dependencies: [{ ref: 'app', dependsOn: ['a'] }, { ref: 'a', dependsOn: ['b'] }, { ref: 'b', dependsOn: ['a'] }] };
    const res = await upload('scratch', JSON.stringify(bom), { query: '?manifest=cycle' });
    expect(res.status).toBe(201);
    expect(res.body.components).toMatchObject({ recorded: 2 });
  });
});

describe('bad input: 422 (413 for the size) naming the problems by JSON pointer, and nothing recorded', () => {
  const cdx = (extra: Record<string, unknown>) => JSON.stringify({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, ...extra });
  const spdx = (extra: Record<string, unknown>) => JSON.stringify({
    spdxVersion: 'SPDX-2.3', dataLicense: 'CC0-1.0', SPDXID: 'SPDXRef-DOCUMENT', name: 'doc', documentNamespace: 'https://example.com/doc',
    creationInfo: { created: '2026-01-01T00:00:00Z', creators: ['Tool: test-1.0'] },
    packages: [{ SPDXID: 'SPDXRef-a', name: 'a', versionInfo: '1.0.0', downloadLocation: 'NOASSERTION', externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:npm/a@1.0.0' }] }],
    ...extra,
  });
  it.each([
    ['not JSON', '{"bomFormat": ', '/'],
    ['neither format', JSON.stringify({ hello: 'world' }), '/'],
    ['a BOM that fails its schema', cdx({ components: [{ type: 'nope', name: 'x' }] }), '/components/0/type'],
    ['an unknown CycloneDX version', cdx({ specVersion: '1.2' }), '/specVersion'],
    ['an unknown SPDX version', spdx({ spdxVersion: 'SPDX-2.2' }), '/spdxVersion'],
    ['an SPDX document missing what the specification requires', JSON.stringify({ spdxVersion: 'SPDX-2.3', SPDXID: 'SPDXRef-DOCUMENT' }), '/name'],
    ['a purl that does not parse', cdx({ components: [{ type: 'library', name: 'x', purl: 'pkg:npm/' }] }), '/components/0/purl'],
    ['components all without purls', cdx({ components: [{ type: 'library', name: 'x' }] }), '/components'],
    ['an SPDX relationship naming an unknown element', spdx({ relationships: [{ spdxElementId: 'SPDXRef-a', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-nowhere' }] }), '/relationships/0/relatedSpdxElement'],
    ['an SPDX relationship of no known type', spdx({ relationships: [{ spdxElementId: 'SPDXRef-a', relationshipType: 'LIKES', relatedSpdxElement: 'SPDXRef-a' }] }), '/relationships/0/relationshipType'],
    ['a CycloneDX dependency naming an unknown component', cdx({ components: [{ type: 'library', name: 'x', purl: 'pkg:npm/x@1.0.0', 'bom-ref': 'x' }], dependencies: [{ ref: 'x', dependsOn: ['ghost'] }] }), '/dependencies/0/dependsOn/0'],
    ['100,000 components', cdx({ components: Array.from({ length: 100_000 }, (_, i) => ({ type: 'library', name: `p${i}`, purl: `pkg:npm/p${i}@1.0.0` })) }), '/components'],
  ])('%s', async (_name, body, field) => {
    const before = await hashTables(t.db.knex);
    const res = await upload('scratch', body);
    expect(res.status).toBe(422);
    expect(res.body.message).toEqual(expect.stringContaining('was not recorded'));
    expect(res.body.errors[0]).toEqual(expect.objectContaining({ resource: 'SbomUpload', field, code: 'invalid' }));
    expect(await hashTables(t.db.knex)).toEqual(before);
  }, 60_000);

  it('a 50 MB BOM: 413, before it is read', async () => {
    const res = await upload('scratch', cdx({ padding: 'x'.repeat(50 * 1024 * 1024) }));
    expect(res.status).toBe(413);
  }, 60_000);
});

describe('access: as #30', () => {
  it.each([
    ['a reader', READER, 403],
    ['an outsider (the repository is private)', OUTSIDER, 404],
  ])('%s: %d, nothing read or recorded', async (_name, token, status) => {
    const before = await hashTables(t.db.knex);
    const res = await upload('scratch', CDX_TEXT, { token });
    expect(res.status).toBe(status);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('a fine-grained token with contents: write uploads', async () => {
    const res = await upload('scratch', CDX_TEXT, { token: FINE_WRITE, query: '?manifest=fine' });
    expect(res.status).toBe(201);
  });
});
