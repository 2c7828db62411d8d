// A world for the OIDC tests: an enterprise with two organizations, a third organization
// outside it, public and private repositories, and callers of every kind the rules tell apart.

export const ENTERPRISE = 'oidc-ent';
export const ORG = 'oidc-org';
export const SIBLING_ORG = 'sibling-org';
export const OTHER_ORG = 'other-org';
export const PRIVATE_REPO = `${ORG}/private-repo`;
export const PUBLIC_REPO = `${ORG}/public-repo`;

export const T = {
  entOwner: 'oidc_ent_owner',
  entOwnerNoScope: 'oidc_ent_owner_no_scope',
  entMember: 'oidc_ent_member',
  orgOwner: 'oidc_org_owner',
  orgOwnerReadOrg: 'oidc_org_owner_read_org',
  orgOwnerWriteOrg: 'oidc_org_owner_write_org',
  ciAdmin: 'oidc_ci_admin',
  member: 'oidc_member',
  writer: 'oidc_writer',
  reader: 'oidc_reader',
  outsider: 'oidc_outsider',
  fineOrg: 'oidc_fine_org',
  fineOrgReadOnly: 'oidc_fine_org_read_only',
  fineOtherRepos: 'oidc_fine_other_repos',
  fineEnterprise: 'oidc_fine_enterprise',
  fineEnterpriseReadOnly: 'oidc_fine_enterprise_read_only',
  installation: 'oidc_installation',
  installationReadOnly: 'oidc_installation_read_only',
  installationOtherOrg: 'oidc_installation_other_org',
  expired: 'oidc_expired',
} as const;

const orgWrite = { organization_administration: 'write', actions: 'write', id_token: 'write' } as const;
const orgRead = { organization_administration: 'read', actions: 'read' } as const;

export function oidcWorld() {
  return {
    users: ['ent-owner', 'ent-member', 'org-owner', 'ci-admin', 'member', 'writer', 'reader', 'outsider'].map((login) => ({ login })),
    enterprises: [{ slug: ENTERPRISE, name: 'OIDC Enterprise', owners: ['ent-owner'], members: ['ent-member'] }],
    organizations: [
      { login: ORG, enterprise: ENTERPRISE, owners: ['org-owner', 'ent-owner'], members: ['ci-admin', 'member', 'writer'],
        custom_properties: [{ name: 'environment' }, { name: 'team' }, { name: 'cost.center' }] },
      { login: SIBLING_ORG, enterprise: ENTERPRISE, owners: ['ent-owner'], custom_properties: [{ name: 'region' }] },
      { login: OTHER_ORG, owners: ['outsider'], custom_properties: [{ name: 'secret' }] },
    ],
    teams: [{ org: ORG, slug: 'writers', members: ['writer'], repositories: [{ name: 'private-repo', permission: 'write' }, { name: 'public-repo', permission: 'write' }] }],
    role_assignments: [{ org: ORG, role: 'ci_cd_admin', user: 'ci-admin' }],
    repositories: [
      { owner: ORG, name: 'private-repo', private: true, collaborators: [{ login: 'reader', permission: 'read' }] },
      { owner: ORG, name: 'public-repo', private: false },
      { owner: OTHER_ORG, name: 'elsewhere', private: true },
      { owner: 'member', name: 'personal', private: false },
    ],
    tokens: [
      { token: T.entOwner, type: 'classic', user: 'ent-owner', scopes: ['admin:enterprise', 'admin:org', 'repo'] },
      { token: T.entOwnerNoScope, type: 'classic', user: 'ent-owner', scopes: ['admin:org', 'repo'] },
      { token: T.entMember, type: 'classic', user: 'ent-member', scopes: ['admin:enterprise', 'admin:org', 'repo'] },
      { token: T.orgOwner, type: 'classic', user: 'org-owner', scopes: ['admin:org', 'repo'] },
      { token: T.orgOwnerReadOrg, type: 'classic', user: 'org-owner', scopes: ['read:org'] },
      { token: T.orgOwnerWriteOrg, type: 'classic', user: 'org-owner', scopes: ['write:org'] },
      { token: T.ciAdmin, type: 'classic', user: 'ci-admin', scopes: ['admin:org', 'repo'] },
      { token: T.member, type: 'classic', user: 'member', scopes: ['admin:org', 'repo'] },
      { token: T.writer, type: 'classic', user: 'writer', scopes: ['repo'] },
      { token: T.reader, type: 'classic', user: 'reader', scopes: ['repo'] },
      { token: T.outsider, type: 'classic', user: 'outsider', scopes: ['admin:enterprise', 'admin:org', 'repo'] },
      { token: T.fineOrg, type: 'fine_grained', user: 'org-owner', resource_owner: ORG, permissions: orgWrite },
      { token: T.fineOrgReadOnly, type: 'fine_grained', user: 'org-owner', resource_owner: ORG, permissions: orgRead },
      { token: T.fineOtherRepos, type: 'fine_grained', user: 'org-owner', resource_owner: ORG, repositories: ['public-repo'], permissions: orgWrite },
      { token: T.fineEnterprise, type: 'fine_grained', user: 'ent-owner', resource_owner: ENTERPRISE, permissions: { enterprise_administration: 'write' } },
      { token: T.fineEnterpriseReadOnly, type: 'fine_grained', user: 'ent-owner', resource_owner: ENTERPRISE, permissions: { enterprise_administration: 'read' } },
      { token: T.installation, type: 'installation', app: 'deployer', resource_owner: ORG, permissions: orgWrite },
      { token: T.installationReadOnly, type: 'installation', app: 'deployer', resource_owner: ORG, permissions: orgRead },
      { token: T.installationOtherOrg, type: 'installation', app: 'deployer', resource_owner: OTHER_ORG, permissions: orgWrite },
      { token: T.expired, type: 'classic', user: 'ent-owner', scopes: ['admin:enterprise', 'admin:org', 'repo'], expires_at: '2021-01-01T00:00:00Z' },
    ],
  };
}
