import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { hashTables } from '../helpers/table-hash';
import { PRIVATE, PUBLIC, S, snapshot, snapshotsWorld } from '../helpers/snapshots-world';

// Interfaces.md Part 2, S1–S2: dependency snapshots in, the current dependencies out as SPDX.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(snapshotsWorld());
});
afterAll(() => t.close());

const owner = bearer(S.owner);
const submit = (repo: string, body: unknown, auth: Record<string, string> = owner) =>
  t.http().post(`/repos/${repo}/dependency-graph/snapshots`).set(auth).send(body as object);
const sbom = (repo: string, auth: Record<string, string> = owner) => t.http().get(`/repos/${repo}/dependency-graph/sbom`).set(auth);
/** The SBOM's packages as `name@version` (the repository itself left out). */
const packagesOf = (doc: any) => doc.packages.filter((p: any) => p.SPDXID !== 'SPDXRef-Repository').map((p: any) => `${p.name}@${p.versionInfo ?? ''}`).sort();

describe('S1 POST /repos/{owner}/{repo}/dependency-graph/snapshots', () => {
  it('applies a snapshot of the default branch: 201 SUCCESS, and the SBOM lists its packages', async () => {
    const res = await submit(PRIVATE, snapshot());
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.any(Number), created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/), result: 'SUCCESS', message: expect.any(String) });
    expect(packagesOf((await sbom(PRIVATE)).body.sbom)).toEqual(['@babel/core@7.0.0', 'left-pad@1.3.0']);
  });

  it('stores a snapshot of another ref without applying it: ACCEPTED', async () => {
    const res = await submit(PRIVATE, snapshot({ ref: 'refs/heads/feature', job: { id: 'run-x', correlator: 'ci-feature' } }));
    expect(res.status).toBe(201);
    expect(res.body.result).toBe('ACCEPTED');
    expect(res.body.message).toContain('refs/heads/trunk');
    const row = await t.db.knex('dependency_snapshots').where('id', res.body.id).first('ref', 'result');
    expect(row).toEqual({ ref: 'refs/heads/feature', result: 'ACCEPTED' });
    expect(await t.db.knex('repository_current_snapshots').where('snapshot_id', res.body.id)).toEqual([]);
  });

  it('keeps the newer scan current: an older scan of the same correlator and detector is ACCEPTED, a newer one replaces it whole', async () => {
    const base = { job: { id: 'r', correlator: 'ci-order' }, detector: { name: 'order-detector', version: '1', url: 'https://example.com/d' } };
    const manifest = (purl: string) => ({ 'go.mod': { name: 'go.mod', resolved: { x: { package_url: purl } } } });
    const newer = await submit(PUBLIC, snapshot({ ...base, ref: 'refs/heads/main', scanned: '2026-03-02T00:00:00Z', manifests: manifest('pkg:golang/github.com/gin-gonic/gin@v1.9.0') }));
    expect(newer.body.result).toBe('SUCCESS');
    const older = await submit(PUBLIC, snapshot({ ...base, ref: 'refs/heads/main', scanned: '2026-03-01T23:59:59+00:00', manifests: manifest('pkg:golang/github.com/gin-gonic/gin@v1.8.0') }));
    expect(older.status).toBe(201);
    expect(older.body.result).toBe('ACCEPTED');
    expect(packagesOf((await sbom(PUBLIC)).body.sbom)).toEqual(['github.com/gin-gonic/gin@v1.9.0']);
    const newest = await submit(PUBLIC, snapshot({ ...base, ref: 'refs/heads/main', scanned: '2026-03-03T00:00:00+02:00', manifests: manifest('pkg:golang/github.com/gin-gonic/gin@v1.9.1') }));
    expect(newest.body.result).toBe('SUCCESS');
    expect(packagesOf((await sbom(PUBLIC)).body.sbom)).toEqual(['github.com/gin-gonic/gin@v1.9.1']);
  });

  it('merges manifests across correlators and detectors as the reference says', async () => {
    const repo = 'dg-org/dg-merge';
    await t.load({ repositories: [{ owner: 'dg-org', name: 'dg-merge', private: true }] });
    const send = (correlator: string, detector: string, resolved: Record<string, string>) => submit(repo, snapshot({
      ref: 'refs/heads/main', job: { id: correlator, correlator }, detector: { name: detector, version: '1', url: 'https://example.com/d' },
      manifests: { lock: { name: 'package-lock.json', resolved: Object.fromEntries(Object.entries(resolved).map(([k, purl]) => [k, { package_url: purl }])) } },
    }));
    // The same detector under two correlators: its packages are merged into the manifest.
    expect((await send('b-job', 'npm', { a: 'pkg:npm/a@1.0.0', b: 'pkg:npm/b@1.0.0' })).body.result).toBe('SUCCESS');
    expect((await send('c-job', 'npm', { b: 'pkg:npm/b@1.0.0', c: 'pkg:npm/c@2.0.0' })).body.result).toBe('SUCCESS');
    // Another detector describing the same manifest under a later correlator: the first correlator's wins.
    expect((await send('z-job', 'other', { z: 'pkg:npm/z@9.9.9' })).body.result).toBe('SUCCESS');
    expect(packagesOf((await sbom(repo)).body.sbom)).toEqual(['a@1.0.0', 'b@1.0.0', 'c@2.0.0']);
    // ... and under an earlier correlator, the other detector's manifest wins.
    await send('a-job', 'other', { y: 'pkg:npm/y@0.1.0' });
    expect(packagesOf((await sbom(repo)).body.sbom)).toEqual(['y@0.1.0', 'z@9.9.9']);
  });

  it('reads packages from their purls per ecosystem, stores other types, and defaults scope and relationship', async () => {
    const res = await submit(PUBLIC, snapshot({
      ref: 'refs/heads/main', job: { id: 'eco', correlator: 'ci-eco' },
      manifests: { pom: { name: 'pom.xml', resolved: {
        m: { package_url: 'pkg:maven/org.apache.commons/commons-text@1.9', scope: 'development', relationship: 'indirect' },
        p: { package_url: 'pkg:pypi/Django@4.2.0' },
        c: { package_url: 'pkg:composer/laravel/framework@10.0.0' },
        g: { package_url: 'pkg:gem/rails@7.0.0' },
        r: { package_url: 'pkg:cargo/serde@1.0.0' },
        d: { package_url: 'pkg:docker/alpine@3.18' },
        n: { package_url: 'pkg:npm/no-version' },
      } } },
    }));
    expect(res.body.result).toBe('SUCCESS');
    const [manifest] = await t.db.knex('dependency_snapshot_manifests').where('snapshot_id', res.body.id).select('packages');
    const rows = JSON.parse(manifest.packages).map(([, , , ecosystem, name, version, scope, relationship]: unknown[]) => ({ ecosystem, package_name: name, version, scope, relationship }));
    expect(rows).toEqual([
      { ecosystem: 'maven', package_name: 'org.apache.commons:commons-text', version: '1.9', scope: 'development', relationship: 'indirect' },
      { ecosystem: 'pip', package_name: 'django', version: '4.2.0', scope: 'runtime', relationship: 'unknown' },
      { ecosystem: 'composer', package_name: 'laravel/framework', version: '10.0.0', scope: 'runtime', relationship: 'unknown' },
      { ecosystem: 'rubygems', package_name: 'rails', version: '7.0.0', scope: 'runtime', relationship: 'unknown' },
      { ecosystem: 'rust', package_name: 'serde', version: '1.0.0', scope: 'runtime', relationship: 'unknown' },
      { ecosystem: null, package_name: 'alpine', version: '3.18', scope: 'runtime', relationship: 'unknown' },
      { ecosystem: 'npm', package_name: 'no-version', version: null, scope: 'runtime', relationship: 'unknown' },
    ]);
  });

  describe('refuses bad input with a 422 naming the field, storing nothing', () => {
    const lock = (resolved: unknown) => ({ lock: { name: 'package-lock.json', resolved: { x: resolved } } });
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a package_url without pkg:', { manifests: lock({ package_url: 'npm/left-pad@1.0.0' }) }, 'manifests.lock.resolved.x.package_url'],
      ['a package_url the purl grammar refuses', { manifests: lock({ package_url: 'pkg:/left-pad@1.0.0' }) }, 'manifests.lock.resolved.x.package_url'],
      ['a bad purl among dependencies', { manifests: lock({ package_url: 'pkg:npm/a@1', dependencies: ['nope'] }) }, 'manifests.lock.resolved.x.dependencies.0'],
      ['a sha that is not 40 hex digits', { sha: 'abc123' }, 'sha'],
      ['a ref not under refs/', { ref: 'main' }, 'ref'],
      ['a scanned that is not a timestamp', { scanned: 'yesterday' }, 'scanned'],
      ['a missing job correlator', { job: { id: '1' } }, 'job.correlator'],
      ['a detector url that is not a URL', { detector: { name: 'd', version: '1', url: 'not a url' } }, 'detector.url'],
      ['a negative version', { version: -1 }, 'version'],
      ['an unknown scope', { manifests: lock({ package_url: 'pkg:npm/a@1', scope: 'test' }) }, 'manifests.lock.resolved.x.scope'],
      ['an unknown relationship', { manifests: lock({ package_url: 'pkg:npm/a@1', relationship: 'direct-ish' }) }, 'manifests.lock.resolved.x.relationship'],
      ['metadata with a non-scalar value', { metadata: { a: { b: 1 } } }, 'metadata.a'],
      ['metadata with more than 8 keys', { metadata: Object.fromEntries([...Array(9).keys()].map((i) => [`k${i}`, i])) }, 'metadata'],
      ['more than 100 manifests', { manifests: Object.fromEntries([...Array(101).keys()].map((i) => [`m${i}`, { name: `m${i}` }])) }, 'manifests'],
      ['more than 5,000 resolved packages in a manifest', {
        manifests: { big: { name: 'big', resolved: Object.fromEntries([...Array(5001).keys()].map((i) => [`p${i}`, { package_url: `pkg:npm/p${i}@1.0.0` }])) } },
      }, 'manifests.big.resolved'],
      ['an unknown key', { surprise: true }, 'surprise'],
    ];
    it.each(cases)('%s', async (_label, override, field) => {
      const before = await hashTables(t.db.knex);
      const res = await submit(PRIVATE, snapshot(override));
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect(res.body.message).toContain(field);
      expect(await hashTables(t.db.knex)).toEqual(before);
    });
  });

  it('answers 400 for JSON that does not parse, storing nothing', async () => {
    const before = await hashTables(t.db.knex);
    const res = await t.http().post(`/repos/${PRIVATE}/dependency-graph/snapshots`).set(owner).set('Content-Type', 'application/json').send('{"version": 0,');
    expect(res.status).toBe(400);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('answers 404 for a repository the caller cannot see, and for a missing one', async () => {
    expect((await submit(PRIVATE, snapshot(), bearer(S.outsider))).status).toBe(404);
    expect((await submit('dg-org/nope', snapshot())).status).toBe(404);
  });

  it('answers 403 with the accepted scopes or permission to a caller without them, storing nothing', async () => {
    const before = await hashTables(t.db.knex);
    const reader = await submit(PRIVATE, snapshot(), bearer(S.reader));
    expect(reader.status).toBe(403);
    const noScope = await submit(PRIVATE, snapshot(), bearer(S.noScope));
    expect(noScope.status).toBe(403);
    expect(noScope.headers['x-accepted-oauth-scopes']).toBe('repo, public_repo');
    const publicRepoOnPrivate = await submit(PRIVATE, snapshot(), bearer(S.publicRepoOnly));
    expect(publicRepoOnPrivate.status).toBe(403);
    const fineRead = await submit(PRIVATE, snapshot(), bearer(S.fineRead));
    expect(fineRead.status).toBe(403);
    expect(fineRead.headers['x-accepted-service-permissions']).toBe('contents=write');
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('accepts public_repo on a public repository and contents: write', async () => {
    expect((await submit(PUBLIC, snapshot({ ref: 'refs/heads/x' }), bearer(S.publicRepoOnly))).status).toBe(201);
    expect((await submit(PRIVATE, snapshot({ ref: 'refs/heads/x' }), bearer(S.fineWrite))).status).toBe(201);
  });
});

describe('S2 GET /repos/{owner}/{repo}/dependency-graph/sbom', () => {
  it('answers an SPDX 2.3 document: packages with name, versionInfo and purl, and their relationships', async () => {
    const repo = 'dg-org/dg-sbom';
    await t.load({ repositories: [{ owner: 'dg-org', name: 'dg-sbom', private: true }] });
    await submit(repo, snapshot({ ref: 'refs/heads/main' }));
    const res = await sbom(repo);
    expect(res.status).toBe(200);
    const doc = res.body.sbom;
    expect(doc).toMatchObject({ spdxVersion: 'SPDX-2.3', dataLicense: 'CC0-1.0', SPDXID: 'SPDXRef-DOCUMENT', name: repo, documentDescribes: ['SPDXRef-Repository'] });
    expect(doc.documentNamespace).toMatch(/\/repos\/dg-org\/dg-sbom\/dependency-graph\/sbom-[0-9a-f]{32}$/);
    expect(doc.packages).toEqual([
      expect.objectContaining({ SPDXID: 'SPDXRef-Repository', name: repo, versionInfo: 'main' }),
      { SPDXID: 'SPDXRef-npm-left-pad-1.3.0', name: 'left-pad', versionInfo: '1.3.0', downloadLocation: 'NOASSERTION', filesAnalyzed: false,
        externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:npm/left-pad@1.3.0' }] },
      { SPDXID: 'SPDXRef-npm-babel-core-7.0.0', name: '@babel/core', versionInfo: '7.0.0', downloadLocation: 'NOASSERTION', filesAnalyzed: false,
        externalRefs: [{ referenceCategory: 'PACKAGE-MANAGER', referenceType: 'purl', referenceLocator: 'pkg:npm/%40babel/core@7.0.0' }] },
    ]);
    expect(doc.relationships).toEqual([
      { spdxElementId: 'SPDXRef-DOCUMENT', relationshipType: 'DESCRIBES', relatedSpdxElement: 'SPDXRef-Repository' },
      { spdxElementId: 'SPDXRef-Repository', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-npm-left-pad-1.3.0' },
      { spdxElementId: 'SPDXRef-Repository', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-npm-babel-core-7.0.0' },
      { spdxElementId: 'SPDXRef-npm-left-pad-1.3.0', relationshipType: 'DEPENDS_ON', relatedSpdxElement: 'SPDXRef-npm-babel-core-7.0.0' },
    ]);
  });

  it('answers an empty document for a repository without snapshots, and 404 for an invisible one', async () => {
    await t.load({ repositories: [{ owner: 'dg-org', name: 'dg-empty', private: true }] });
    const res = await sbom('dg-org/dg-empty');
    expect(res.status).toBe(200);
    expect(res.body.sbom.packages).toHaveLength(1);
    // Created now: a second later the document says so, under its own ETag (never a 304 for other bytes).
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const again = await sbom('dg-org/dg-empty');
    expect(again.body.sbom.creationInfo.created > res.body.sbom.creationInfo.created).toBe(true);
    expect(again.headers.etag).not.toBe(res.headers.etag);
    expect((await sbom('dg-org/dg-empty').set('If-None-Match', String(res.headers.etag))).status).toBe(200);
    expect((await sbom(PRIVATE, bearer(S.outsider))).status).toBe(404);
    expect((await t.http().get(`/repos/${PRIVATE}/dependency-graph/sbom`)).status).toBe(404);
  });

  it('is readable without a token on a public repository, and with contents: read', async () => {
    expect((await t.http().get(`/repos/${PUBLIC}/dependency-graph/sbom`)).status).toBe(200);
    expect((await sbom(PRIVATE, bearer(S.fineRead))).status).toBe(200);
    expect((await sbom(PRIVATE, bearer(S.reader))).status).toBe(200);
  });
});

describe('world files', () => {
  it('apply dependency_snapshots in order through S1\'s recording; loading the same file again changes nothing', async () => {
    const world = {
      repositories: [{ owner: 'dg-org', name: 'dg-world', private: true, default_branch: 'develop' }],
      dependency_snapshots: [
        { repository: 'dg-org/dg-world', ...snapshot({ ref: 'refs/heads/develop', scanned: '2026-03-01T00:00:00Z' }) },
        { repository: 'dg-org/dg-world', ...snapshot({ ref: 'refs/heads/develop', scanned: '2026-03-02T00:00:00Z', manifests: { g: { name: 'go.sum', resolved: { x: { package_url: 'pkg:golang/golang.org/x/net@v0.1.0' } } } } }) },
        { repository: 'dg-org/dg-world', ...snapshot({ ref: 'refs/heads/main' }) },
      ],
    };
    await t.load(world);
    expect(packagesOf((await sbom('dg-org/dg-world')).body.sbom)).toEqual(['golang.org/x/net@v0.1.0']);
    const before = await hashTables(t.db.knex);
    await t.load(world);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('refuse a snapshot S1 would refuse, naming the entry and field, and write nothing', async () => {
    const before = await hashTables(t.db.knex);
    await expect(t.load({ dependency_snapshots: [{ repository: PRIVATE, ...snapshot({ sha: 'xyz' }) }] })).rejects.toThrow(/dependency_snapshots.*sha/s);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });
});
