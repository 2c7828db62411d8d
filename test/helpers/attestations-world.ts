// A world for the attestation tests: one organization with a private and a public
// repository, and callers of every kind the rules tell apart.
export const ORG = 'att-org';
export const PRIVATE = `${ORG}/secret-app`;
export const PUBLIC = `${ORG}/open-app`;

export const A = {
  owner: 'att_owner',
  ownerNoRepoScope: 'att_owner_read_org',
  writer: 'att_writer',
  reader: 'att_reader',
  member: 'att_member',
  outsider: 'att_outsider',
  fine: 'att_fine',
  fineReadOnly: 'att_fine_read_only',
  fineOtherRepos: 'att_fine_other_repos',
  installation: 'att_installation',
  installationReadOnly: 'att_installation_read_only',
  installationOtherOrg: 'att_installation_other_org',
  revoked: 'att_revoked',
} as const;

export function attestationsWorld() {
  return {
    users: ['att-owner', 'att-writer', 'att-reader', 'att-member', 'att-outsider'].map((login) => ({ login })),
    organizations: [
      { login: ORG, owners: ['att-owner'], members: ['att-writer', 'att-member'] },
      { login: 'att-elsewhere', owners: ['att-outsider'] },
    ],
    teams: [{ org: ORG, slug: 'builders', members: ['att-writer'], repositories: [{ name: 'secret-app', permission: 'write' }, { name: 'open-app', permission: 'write' }] }],
    repositories: [
      { owner: ORG, name: 'secret-app', private: true, collaborators: [{ login: 'att-reader', permission: 'read' }] },
      { owner: ORG, name: 'open-app', private: false },
      { owner: ORG, name: 'other-app', private: true },
    ],
    tokens: [
      { token: A.owner, type: 'classic', user: 'att-owner', scopes: ['repo'] },
      { token: A.ownerNoRepoScope, type: 'classic', user: 'att-owner', scopes: ['read:org'] },
      { token: A.writer, type: 'classic', user: 'att-writer', scopes: ['repo'] },
      { token: A.reader, type: 'classic', user: 'att-reader', scopes: ['repo'] },
      { token: A.member, type: 'classic', user: 'att-member', scopes: ['repo'] },
      { token: A.outsider, type: 'classic', user: 'att-outsider', scopes: ['repo'] },
      { token: A.fine, type: 'fine_grained', user: 'att-owner', resource_owner: ORG, permissions: { attestations: 'write' } },
      { token: A.fineReadOnly, type: 'fine_grained', user: 'att-owner', resource_owner: ORG, permissions: { attestations: 'read' } },
      { token: A.fineOtherRepos, type: 'fine_grained', user: 'att-owner', resource_owner: ORG, repositories: ['other-app'], permissions: { attestations: 'write' } },
      { token: A.installation, type: 'installation', app: 'ci', resource_owner: ORG, permissions: { attestations: 'write' } },
      { token: A.installationReadOnly, type: 'installation', app: 'ci', resource_owner: ORG, permissions: { attestations: 'read' } },
      { token: A.installationOtherOrg, type: 'installation', app: 'ci', resource_owner: 'att-elsewhere', permissions: { attestations: 'write' } },
      { token: A.revoked, type: 'classic', user: 'att-owner', scopes: ['repo'], revoked: true },
    ],
  };
}
