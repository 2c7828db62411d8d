import type { PermissionKey, PermissionLevel, Scope } from './grants';

/** Who the caller must be, besides what the token grants (spec §5 "Who may call"). */
export type CallerRule =
  | 'orgAdmin' // an organization owner
  | 'orgRoleReader' // an owner, or holding a role with read_organization_custom_org_role
  | 'orgSecurityManager' // an owner or security manager
  | 'orgOidcAdmin' // an owner, or holding a role with write_organization_oidc_settings (ci_cd_admin)
  | 'enterpriseOwner'
  | 'enterpriseMember'
  | 'repoReader'
  | 'repoWriter'
  | 'repoAlertManager'; // may see and triage security alerts of the repository

export type TargetKind = 'org' | 'enterprise' | 'repo';

export interface Requirement {
  spec: string;
  operationId: string;
  target: TargetKind;
  /** Classic/OAuth scopes, any one of which suffices. */
  scopes: readonly Scope[];
  /** Scopes that suffice only when every repository touched is public. */
  publicScopes?: readonly Scope[];
  /** Fine-grained permission; null: fine-grained and app tokens are not accepted. */
  permission: readonly [PermissionKey, PermissionLevel] | null;
  caller: CallerRule;
  /** Callable without a token (and without the grant) on a public repository. */
  publicRead?: boolean;
}

// One entry per operation of the spec (§4 numbering, §5 grants). assertAllowed reads
// this table and nothing else; routes and resolvers name their entry.
export const REQUIREMENTS = {
  listOrgRoles: { spec: '#1', operationId: 'orgs/list-org-roles', target: 'org', scopes: ['admin:org'], permission: ['organization_custom_roles', 'read'], caller: 'orgRoleReader' },
  revokeAllOrgRolesTeam: { spec: '#2', operationId: 'orgs/revoke-all-org-roles-team', target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
  assignTeamToOrgRole: { spec: '#3', operationId: 'orgs/assign-team-to-org-role', target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
  revokeOrgRoleTeam: { spec: '#4', operationId: 'orgs/revoke-org-role-team', target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
  revokeAllOrgRolesUser: { spec: '#5', operationId: 'orgs/revoke-all-org-roles-user', target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
  assignUserToOrgRole: { spec: '#6', operationId: 'orgs/assign-user-to-org-role', target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
  revokeOrgRoleUser: { spec: '#7', operationId: 'orgs/revoke-org-role-user', target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
  getOrgRole: { spec: '#8', operationId: 'orgs/get-org-role', target: 'org', scopes: ['admin:org'], permission: ['organization_custom_roles', 'read'], caller: 'orgRoleReader' },
  listOrgRoleTeams: { spec: '#9', operationId: 'orgs/list-org-role-teams', target: 'org', scopes: ['admin:org'], permission: ['members', 'read'], caller: 'orgAdmin' },
  listOrgRoleUsers: { spec: '#10', operationId: 'orgs/list-org-role-users', target: 'org', scopes: ['admin:org'], permission: ['members', 'read'], caller: 'orgAdmin' },

  listEnterpriseOidcInclusions: { spec: '#11', operationId: 'oidc/list-enterprise-custom-property-inclusions', target: 'enterprise', scopes: ['admin:enterprise'], permission: ['enterprise_administration', 'read'], caller: 'enterpriseOwner' },
  createEnterpriseOidcInclusion: { spec: '#12', operationId: 'oidc/create-enterprise-custom-property-inclusion', target: 'enterprise', scopes: ['admin:enterprise'], permission: ['enterprise_administration', 'write'], caller: 'enterpriseOwner' },
  deleteEnterpriseOidcInclusion: { spec: '#13', operationId: 'oidc/delete-enterprise-custom-property-inclusion', target: 'enterprise', scopes: ['admin:enterprise'], permission: ['enterprise_administration', 'write'], caller: 'enterpriseOwner' },
  listOrgOidcInclusions: { spec: '#14', operationId: 'oidc/list-org-custom-property-inclusions', target: 'org', scopes: ['read:org'], permission: ['organization_administration', 'read'], caller: 'orgOidcAdmin' },
  createOrgOidcInclusion: { spec: '#15', operationId: 'oidc/create-org-custom-property-inclusion', target: 'org', scopes: ['admin:org'], permission: ['organization_administration', 'write'], caller: 'orgOidcAdmin' },
  deleteOrgOidcInclusion: { spec: '#16', operationId: 'oidc/delete-org-custom-property-inclusion', target: 'org', scopes: ['admin:org'], permission: ['organization_administration', 'write'], caller: 'orgOidcAdmin' },
  getOrgOidcSubjectTemplate: { spec: '#17', operationId: 'oidc/get-oidc-custom-sub-template-for-org', target: 'org', scopes: ['read:org'], permission: ['organization_administration', 'read'], caller: 'orgOidcAdmin' },
  setOrgOidcSubjectTemplate: { spec: '#18', operationId: 'oidc/update-oidc-custom-sub-template-for-org', target: 'org', scopes: ['write:org'], permission: ['organization_administration', 'write'], caller: 'orgOidcAdmin' },
  getRepoOidcSubjectTemplate: { spec: '#19', operationId: 'actions/get-custom-oidc-sub-claim-for-repo', target: 'repo', scopes: ['repo'], permission: ['actions', 'read'], caller: 'repoReader', publicRead: true },
  setRepoOidcSubjectTemplate: { spec: '#20', operationId: 'actions/set-custom-oidc-sub-claim-for-repo', target: 'repo', scopes: ['repo'], permission: ['actions', 'write'], caller: 'repoWriter' },

  createAttestation: { spec: '#21', operationId: 'repos/create-attestation', target: 'repo', scopes: ['repo'], permission: ['attestations', 'write'], caller: 'repoWriter' },
  listAttestations: { spec: '#22', operationId: 'repos/list-attestations', target: 'repo', scopes: ['repo'], permission: ['attestations', 'read'], caller: 'repoReader', publicRead: true },

  listEnterpriseDependencyAlerts: { spec: '#23', operationId: 'dependency-bot/list-alerts-for-enterprise', target: 'enterprise', scopes: ['repo', 'security_events'], permission: null, caller: 'enterpriseMember' },
  listOrgDependencyAlerts: { spec: '#24', operationId: 'dependency-bot/list-alerts-for-org', target: 'org', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'orgSecurityManager' },
  listRepoDependencyAlerts: { spec: '#25', operationId: 'dependency-bot/list-alerts-for-repo', target: 'repo', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'repoAlertManager' },
  getDependencyAlert: { spec: '#26', operationId: 'dependency-bot/get-alert', target: 'repo', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'repoAlertManager' },
  updateDependencyAlert: { spec: '#27', operationId: 'dependency-bot/update-alert', target: 'repo', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'write'], caller: 'repoAlertManager' },
} as const satisfies Record<string, Requirement>;

export type OperationName = keyof typeof REQUIREMENTS;

export function requirementOf(operation: OperationName): Requirement {
  return REQUIREMENTS[operation];
}
