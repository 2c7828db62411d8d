// A world for the organization-role tests: one organization with roles enabled, one without,
// a team hierarchy, and callers of every kind the authorization rules distinguish.

export const ORG = 'octo-org';
export const DISABLED_ORG = 'quiet-org';
export const OTHER_ORG = 'other-org';

export const TOKENS = {
  ownerClassic: 'tok_owner_classic',
  ownerWithoutScope: 'tok_owner_read_org',
  ownerOauth: 'tok_owner_oauth',
  ownerFineGrained: 'tok_owner_fine_grained',
  ownerFineGrainedNoPermission: 'tok_owner_fine_no_permission',
  ownerFineGrainedOtherOrg: 'tok_owner_fine_other_org',
  ownerFineGrainedEnterprise: 'tok_owner_fine_enterprise',
  ownerAppUser: 'tok_owner_app_user',
  memberClassic: 'tok_member_classic',
  roleReaderClassic: 'tok_role_reader_classic',
  teamRoleReaderClassic: 'tok_team_role_reader_classic',
  outsiderClassic: 'tok_outsider_classic',
  otherOwnerClassic: 'tok_other_owner_classic',
  installation: 'tok_installation',
  installationNoPermission: 'tok_installation_no_permission',
  installationOtherOrg: 'tok_installation_other_org',
  expired: 'tok_expired_owner',
  revoked: 'tok_revoked_owner',
} as const;

const allPermissions = { organization_custom_roles: 'read', members: 'write' } as const;

export function rolesWorld() {
  return {
    users: ['owner', 'member', 'role-reader', 'team-reader', 'child-reader', 'outsider', 'newcomer', 'other-owner']
      .map((login) => ({ login, name: login })),
    enterprises: [{ slug: 'octo-ent', name: 'Octo Enterprise', owners: ['owner'] }],
    organizations: [
      { login: ORG, name: 'Octo Org', enterprise: 'octo-ent', description: 'roles enabled', organization_roles_enabled: true, owners: ['owner'],
        members: ['member', 'role-reader', 'team-reader', 'child-reader', 'newcomer'] },
      { login: DISABLED_ORG, description: null, organization_roles_enabled: false, owners: ['owner'], members: ['member'] },
      { login: OTHER_ORG, organization_roles_enabled: true, owners: ['other-owner'] },
    ],
    teams: [
      { org: ORG, slug: 'readers', name: 'Readers', description: 'holds the reader role', privacy: 'closed', members: ['team-reader'] },
      { org: ORG, slug: 'child-readers', name: 'Child readers', parent: 'readers', members: ['child-reader'] },
      { org: ORG, slug: 'plain', name: 'Plain', privacy: 'secret', members: ['member'] },
      { org: DISABLED_ORG, slug: 'quiet-team', name: 'Quiet team' },
      { org: OTHER_ORG, slug: 'readers', name: 'Other readers' },
    ],
    organization_roles: [
      { org: ORG, name: 'Role reader', description: 'views roles', permissions: ['read_organization_custom_org_role'] },
      { org: ORG, name: 'Deployer', description: null, permissions: ['write_organization_actions_settings'], base_role: 'write' },
      { org: OTHER_ORG, name: 'Foreign role', permissions: ['read_organization_custom_org_role'] },
    ],
    role_assignments: [
      { org: ORG, role: 'Role reader', user: 'role-reader' },
      { org: ORG, role: 'Role reader', team: 'readers' },
      { org: ORG, role: 'Role reader', user: 'child-reader' },
      { org: ORG, role: 'all_repo_read', team: 'plain' },
    ],
    tokens: [
      { token: TOKENS.ownerClassic, type: 'classic', user: 'owner', scopes: ['admin:org'] },
      { token: TOKENS.ownerWithoutScope, type: 'classic', user: 'owner', scopes: ['read:org', 'repo'] },
      { token: TOKENS.ownerOauth, type: 'oauth', user: 'owner', scopes: ['admin:org'] },
      { token: TOKENS.ownerFineGrained, type: 'fine_grained', user: 'owner', resource_owner: ORG, permissions: allPermissions },
      { token: TOKENS.ownerFineGrainedNoPermission, type: 'fine_grained', user: 'owner', resource_owner: ORG, permissions: { actions: 'write' } },
      { token: TOKENS.ownerFineGrainedOtherOrg, type: 'fine_grained', user: 'owner', resource_owner: OTHER_ORG, permissions: allPermissions },
      { token: TOKENS.ownerFineGrainedEnterprise, type: 'fine_grained', user: 'owner', resource_owner: 'octo-ent', permissions: { ...allPermissions, enterprise_administration: 'write' } },
      { token: TOKENS.ownerAppUser, type: 'app_user', user: 'owner', app: 'dashboard', resource_owner: ORG, permissions: allPermissions },
      { token: TOKENS.memberClassic, type: 'classic', user: 'member', scopes: ['admin:org'] },
      { token: TOKENS.roleReaderClassic, type: 'classic', user: 'role-reader', scopes: ['admin:org'] },
      { token: TOKENS.teamRoleReaderClassic, type: 'classic', user: 'team-reader', scopes: ['admin:org'] },
      { token: TOKENS.outsiderClassic, type: 'classic', user: 'outsider', scopes: ['admin:org'] },
      { token: TOKENS.otherOwnerClassic, type: 'classic', user: 'other-owner', scopes: ['admin:org'] },
      { token: TOKENS.installation, type: 'installation', app: 'auditor', resource_owner: ORG, permissions: allPermissions },
      { token: TOKENS.installationNoPermission, type: 'installation', app: 'auditor', resource_owner: ORG, permissions: { members: 'read' } },
      { token: TOKENS.installationOtherOrg, type: 'installation', app: 'auditor', resource_owner: OTHER_ORG, permissions: allPermissions },
      { token: TOKENS.expired, type: 'classic', user: 'owner', scopes: ['admin:org'], expires_at: '2020-01-01T00:00:00Z' },
      { token: TOKENS.revoked, type: 'classic', user: 'owner', scopes: ['admin:org'], revoked: true },
    ],
  };
}
