// A world for the dependency snapshot tests: an organization with a private repository whose
// default branch is `trunk`, a public one on `main`, and callers the access rules tell apart.
export const ORG = 'dg-org';
export const PRIVATE = `${ORG}/dg-private`;
export const PUBLIC = `${ORG}/dg-public`;

export const S = {
  owner: 'dg_owner',
  publicRepoOnly: 'dg_owner_public_repo',
  noScope: 'dg_owner_read_org',
  reader: 'dg_reader',
  outsider: 'dg_outsider',
  fineWrite: 'dg_fine_write',
  fineRead: 'dg_fine_read',
} as const;

export function snapshotsWorld() {
  return {
    users: ['dg-owner', 'dg-reader', 'dg-outsider'].map((login) => ({ login })),
    organizations: [{ login: ORG, owners: ['dg-owner'] }, { login: 'dg-elsewhere', owners: ['dg-outsider'] }],
    repositories: [
      { owner: ORG, name: 'dg-private', private: true, default_branch: 'trunk', collaborators: [{ login: 'dg-reader', permission: 'read' }] },
      { owner: ORG, name: 'dg-public', private: false },
    ],
    tokens: [
      { token: S.owner, type: 'classic', user: 'dg-owner', scopes: ['repo'] },
      { token: S.publicRepoOnly, type: 'classic', user: 'dg-owner', scopes: ['public_repo'] },
      { token: S.noScope, type: 'classic', user: 'dg-owner', scopes: ['read:org'] },
      { token: S.reader, type: 'classic', user: 'dg-reader', scopes: ['repo'] },
      { token: S.outsider, type: 'classic', user: 'dg-outsider', scopes: ['repo'] },
      { token: S.fineWrite, type: 'fine_grained', user: 'dg-owner', resource_owner: ORG, permissions: { contents: 'write' } },
      { token: S.fineRead, type: 'fine_grained', user: 'dg-owner', resource_owner: ORG, permissions: { contents: 'read' } },
    ],
  };
}

/** A valid submission; `overrides` replace top-level keys. */
export function snapshot(overrides: Record<string, unknown> = {}): Record<string, any> {
  return {
    version: 0,
    sha: 'ce587453ced02b1526dfb4cb910479d431683101',
    ref: 'refs/heads/trunk',
    job: { id: 'run-1', correlator: 'ci-npm', html_url: 'https://ci.example.com/run/1' },
    detector: { name: 'npm-detector', version: '1.0.0', url: 'https://example.com/npm-detector' },
    scanned: '2026-03-01T10:00:00Z',
    manifests: {
      'package-lock.json': {
        name: 'package-lock.json',
        file: { source_location: 'app/package-lock.json' },
        resolved: {
          'left-pad': { package_url: 'pkg:npm/left-pad@1.3.0', relationship: 'direct', scope: 'runtime', dependencies: ['pkg:npm/%40babel/core@7.0.0'] },
          '@babel/core': { package_url: 'pkg:npm/%40babel/core@7.0.0', relationship: 'indirect', scope: 'development' },
        },
      },
    },
    ...overrides,
  };
}
