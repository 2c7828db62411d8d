import { currentDependencies } from '../../src/modules/dependency-graph/current-dependencies';
import type { SnapshotContribution, StoredPackage } from '../../src/modules/dependency-graph/dependency-snapshots.store';
import { packageOfPurl, purlOfPackage, purlProblem } from '../../src/modules/dependency-graph/package-url';

describe('packageOfPurl: the package alerts would name, per ecosystem (interfaces.md Part 2)', () => {
  it.each([
    ['pkg:npm/%40babel/core@7.0.0', { purlType: 'npm', ecosystem: 'npm', name: '@babel/core', version: '7.0.0' }],
    ['pkg:maven/org.apache.commons/commons-text@1.9', { purlType: 'maven', ecosystem: 'maven', name: 'org.apache.commons:commons-text', version: '1.9' }],
    ['pkg:golang/github.com/gin-gonic/gin@v1.9.0', { purlType: 'golang', ecosystem: 'go', name: 'github.com/gin-gonic/gin', version: 'v1.9.0' }],
    ['pkg:composer/laravel/framework@10.0.0', { purlType: 'composer', ecosystem: 'composer', name: 'laravel/framework', version: '10.0.0' }],
    ['pkg:nuget/Newtonsoft.Json@13.0.1', { purlType: 'nuget', ecosystem: 'nuget', name: 'Newtonsoft.Json', version: '13.0.1' }],
    ['pkg:pub/http@1.0.0', { purlType: 'pub', ecosystem: 'pub', name: 'http', version: '1.0.0' }],
    ['pkg:docker/library/alpine@3.18', { purlType: 'docker', ecosystem: null, name: 'library/alpine', version: '3.18' }],
    ['pkg:cargo/serde', { purlType: 'cargo', ecosystem: 'rust', name: 'serde', version: null }],
  ])('%s', (purl, expected) => {
    expect(purlProblem(purl)).toBeUndefined();
    expect(packageOfPurl(purl)).toEqual(expected);
  });

  it('names the grammar\'s reason for a purl it refuses', () => {
    expect(purlProblem('pkg:/nameless@1')).toEqual(expect.any(String));
    expect(purlProblem('left-pad@1.0.0')).toMatch(/pkg/);
    // A Go version of "v" without semver: the parser slips (a ReferenceError), still a clear refusal.
    expect(purlProblem('pkg:golang/x/y@v1')).toBe('its components are not valid for its type');
  });

  it('purlOfPackage reverses it: every purl above from its package, none for a name its type refuses or an ecosystem without a type', () => {
    for (const purl of ['pkg:npm/%40babel/core@7.0.0', 'pkg:maven/org.apache.commons/commons-text@1.9', 'pkg:golang/github.com/gin-gonic/gin@v1.9.0', 'pkg:composer/laravel/framework@10.0.0', 'pkg:pub/http@1.0.0', 'pkg:cargo/serde']) {
      const { ecosystem, name, version } = packageOfPurl(purl);
      expect(purlOfPackage(ecosystem!, name, version)).toBe(purl);
    }
    // A world file may name a maven package without its group, which maven purls require.
    expect(purlOfPackage('maven', 'commons-text', null)).toBeUndefined();
    expect(purlOfPackage('actions', 'actions/checkout', null)).toBeUndefined();
  });
});

describe('currentDependencies: manifests merged as reference.md Part 2 says', () => {
  let nextId = 1;
  const pkg = (purl: string): StoredPackage => ({ id: nextId++, packageUrl: purl, package: packageOfPurl(purl), scope: 'runtime', relationship: 'unknown', dependencies: [] });
  const contribution = (correlator: string, detectorName: string, manifests: Record<string, string[]>, sourceLocation: string | null = null): SnapshotContribution => ({
    snapshotId: nextId++, correlator, detectorName, createdAt: '2026-03-01T00:00:00Z',
    manifests: Object.entries(manifests).map(([name, purls]) => ({ name, sourceLocation, packages: purls.map(pkg) })),
  });
  const listed = (contributions: SnapshotContribution[]) => currentDependencies(contributions).map((d) => `${d.manifestPath} ${d.packageUrl}`);

  it('merges the same detector under two correlators, each package once; leaves another detector\'s manifest of that name out', () => {
    expect(listed([
      contribution('a', 'npm', { lock: ['pkg:npm/a@1', 'pkg:npm/b@1'] }, 'web/package-lock.json'),
      contribution('b', 'npm', { lock: ['pkg:npm/b@1', 'pkg:npm/c@1'] }),
      contribution('c', 'other', { lock: ['pkg:npm/z@1'], 'go.mod': ['pkg:golang/x/y@v1.0.0'] }),
    ])).toEqual([
      'web/package-lock.json pkg:npm/a@1', 'web/package-lock.json pkg:npm/b@1', 'web/package-lock.json pkg:npm/c@1', 'go.mod pkg:golang/x/y@v1.0.0',
    ]);
  });
});
