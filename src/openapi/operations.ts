import type { z } from 'zod';
import type { OperationName } from '../auth/requirements';
import * as attestations from '../modules/attestations/attestations.schemas';
import * as alerts from '../modules/dependency-alerts/alerts.schemas';
import * as oidc from '../modules/oidc/oidc.schemas';
import * as roles from '../modules/org-roles/org-roles.schemas';

// The 27 operations of the spec as the OpenAPI description presents them: the route, the
// request schemas the route parses with (the same objects, never copies), and what it answers.

export type ComponentName =
  | 'RoleList' | 'Role' | 'RoleTeam' | 'RoleUser'
  | 'EnterpriseInclusion' | 'OrgInclusion' | 'OrgSubjectTemplate' | 'RepoSubjectTemplate'
  | 'AttestationCreated' | 'AttestationList'
  | 'DependencyAlert' | 'DependencyAlertWithRepository';

export interface OperationDoc {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  tag: string;
  summary: string;
  params: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  success: 200 | 201 | 204;
  /** The success body: a component, or an array of one; none for an empty answer. */
  returns?: { component: ComponentName; array?: boolean };
  pagination?: 'page' | 'cursor';
  /** Statuses of this operation beyond the ones every operation can answer (spec §4, §7). */
  statuses?: readonly number[];
}

const ROLES = '/orgs/{org}/organization-roles';
const ENTERPRISE_INCLUSIONS = '/enterprises/{enterprise}/actions/oidc/customization/properties/repo';
const ORG_INCLUSIONS = '/orgs/{org}/actions/oidc/customization/properties/repo';
const ROLE_TAG = 'organization-roles';
const OIDC_TAG = 'oidc';
const ATTESTATION_TAG = 'attestations';
const ALERT_TAG = 'dependency-alerts';

export const OPERATION_DOCS: Record<OperationName, OperationDoc> = {
  listOrgRoles: { method: 'get', path: ROLES, tag: ROLE_TAG, summary: 'Get all organization roles for an organization', params: roles.orgPath, success: 200, returns: { component: 'RoleList' } },
  revokeAllOrgRolesTeam: { method: 'delete', path: `${ROLES}/teams/{team_slug}`, tag: ROLE_TAG, summary: 'Remove all organization roles for a team', params: roles.teamPath, success: 204 },
  assignTeamToOrgRole: { method: 'put', path: `${ROLES}/teams/{team_slug}/{role_id}`, tag: ROLE_TAG, summary: 'Assign an organization role to a team', params: roles.teamRolePath, success: 204 },
  revokeOrgRoleTeam: { method: 'delete', path: `${ROLES}/teams/{team_slug}/{role_id}`, tag: ROLE_TAG, summary: 'Remove an organization role from a team', params: roles.teamRolePath, success: 204 },
  revokeAllOrgRolesUser: { method: 'delete', path: `${ROLES}/users/{username}`, tag: ROLE_TAG, summary: 'Remove all organization roles for a user', params: roles.userPath, success: 204 },
  assignUserToOrgRole: { method: 'put', path: `${ROLES}/users/{username}/{role_id}`, tag: ROLE_TAG, summary: 'Assign an organization role to a user', params: roles.userRolePath, success: 204 },
  revokeOrgRoleUser: { method: 'delete', path: `${ROLES}/users/{username}/{role_id}`, tag: ROLE_TAG, summary: 'Remove an organization role from a user', params: roles.userRolePath, success: 204 },
  getOrgRole: { method: 'get', path: `${ROLES}/{role_id}`, tag: ROLE_TAG, summary: 'Get an organization role', params: roles.rolePath, success: 200, returns: { component: 'Role' } },
  listOrgRoleTeams: { method: 'get', path: `${ROLES}/{role_id}/teams`, tag: ROLE_TAG, summary: 'List teams that are assigned to an organization role', params: roles.rolePath, query: roles.roleMembersQuery, success: 200, returns: { component: 'RoleTeam', array: true }, pagination: 'page' },
  listOrgRoleUsers: { method: 'get', path: `${ROLES}/{role_id}/users`, tag: ROLE_TAG, summary: 'List users that are assigned to an organization role', params: roles.rolePath, query: roles.roleMembersQuery, success: 200, returns: { component: 'RoleUser', array: true }, pagination: 'page' },

  listEnterpriseOidcInclusions: { method: 'get', path: ENTERPRISE_INCLUSIONS, tag: OIDC_TAG, summary: 'List OIDC custom property inclusions for an enterprise', params: oidc.enterprisePath, success: 200, returns: { component: 'EnterpriseInclusion', array: true } },
  createEnterpriseOidcInclusion: { method: 'post', path: ENTERPRISE_INCLUSIONS, tag: OIDC_TAG, summary: 'Create an OIDC custom property inclusion for an enterprise', params: oidc.enterprisePath, body: oidc.inclusionBody, success: 201, returns: { component: 'EnterpriseInclusion' } },
  deleteEnterpriseOidcInclusion: { method: 'delete', path: `${ENTERPRISE_INCLUSIONS}/{custom_property_name}`, tag: OIDC_TAG, summary: 'Delete an OIDC custom property inclusion for an enterprise', params: oidc.enterpriseInclusionPath, success: 204 },
  listOrgOidcInclusions: { method: 'get', path: ORG_INCLUSIONS, tag: OIDC_TAG, summary: 'List OIDC custom property inclusions for an organization', params: oidc.orgPath, success: 200, returns: { component: 'OrgInclusion', array: true } },
  createOrgOidcInclusion: { method: 'post', path: ORG_INCLUSIONS, tag: OIDC_TAG, summary: 'Create an OIDC custom property inclusion for an organization', params: oidc.orgPath, body: oidc.inclusionBody, success: 201, returns: { component: 'EnterpriseInclusion' } },
  deleteOrgOidcInclusion: { method: 'delete', path: `${ORG_INCLUSIONS}/{custom_property_name}`, tag: OIDC_TAG, summary: 'Delete an OIDC custom property inclusion for an organization', params: oidc.orgInclusionPath, success: 204 },
  getOrgOidcSubjectTemplate: { method: 'get', path: '/orgs/{org}/actions/oidc/customization/sub', tag: OIDC_TAG, summary: 'Get the customization template for an OIDC subject claim for an organization', params: oidc.orgPath, success: 200, returns: { component: 'OrgSubjectTemplate' } },
  setOrgOidcSubjectTemplate: { method: 'put', path: '/orgs/{org}/actions/oidc/customization/sub', tag: OIDC_TAG, summary: 'Set the customization template for an OIDC subject claim for an organization', params: oidc.orgPath, body: oidc.orgTemplateBody, success: 201 },
  getRepoOidcSubjectTemplate: { method: 'get', path: '/repos/{owner}/{repo}/actions/oidc/customization/sub', tag: OIDC_TAG, summary: 'Get the customization template for an OIDC subject claim for a repository', params: oidc.repoPath, success: 200, returns: { component: 'RepoSubjectTemplate' } },
  setRepoOidcSubjectTemplate: { method: 'put', path: '/repos/{owner}/{repo}/actions/oidc/customization/sub', tag: OIDC_TAG, summary: 'Set the customization template for an OIDC subject claim for a repository', params: oidc.repoPath, body: oidc.repoTemplateBody, success: 201 },

  createAttestation: { method: 'post', path: '/repos/{owner}/{repo}/attestations', tag: ATTESTATION_TAG, summary: 'Create an attestation', params: attestations.repoPath, body: attestations.createBody, success: 201, returns: { component: 'AttestationCreated' } },
  listAttestations: { method: 'get', path: '/repos/{owner}/{repo}/attestations/{subject_digest}', tag: ATTESTATION_TAG, summary: 'List attestations', params: attestations.subjectPath, query: attestations.listQuery, success: 200, returns: { component: 'AttestationList' }, pagination: 'cursor' },

  listEnterpriseDependencyAlerts: { method: 'get', path: '/enterprises/{enterprise}/dependency-bot/alerts', tag: ALERT_TAG, summary: 'List dependency alerts for an enterprise', params: alerts.enterprisePath, query: alerts.enterpriseListQuery, success: 200, returns: { component: 'DependencyAlertWithRepository', array: true }, pagination: 'cursor' },
  listOrgDependencyAlerts: { method: 'get', path: '/orgs/{org}/dependency-bot/alerts', tag: ALERT_TAG, summary: 'List dependency alerts for an organization', params: alerts.orgPath, query: alerts.orgListQuery, success: 200, returns: { component: 'DependencyAlertWithRepository', array: true }, pagination: 'cursor' },
  listRepoDependencyAlerts: { method: 'get', path: '/repos/{owner}/{repo}/dependency-bot/alerts', tag: ALERT_TAG, summary: 'List dependency alerts for a repository', params: alerts.repoPath, query: alerts.repoListQuery, success: 200, returns: { component: 'DependencyAlert', array: true }, pagination: 'cursor' },
  getDependencyAlert: { method: 'get', path: '/repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}', tag: ALERT_TAG, summary: 'Get a dependency alert', params: alerts.alertPath, success: 200, returns: { component: 'DependencyAlert' } },
  updateDependencyAlert: { method: 'patch', path: '/repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}', tag: ALERT_TAG, summary: 'Update a dependency alert', params: alerts.alertPath, body: alerts.updateBody, success: 200, returns: { component: 'DependencyAlert' }, statuses: [409] },
};
