import { roleListSchema, roleSchema, roleTeamSchema, roleUserSchema } from '../modules/org-roles/org-roles.responses';
import { orgPath, roleMembersQuery, rolePath, teamPath, teamRolePath, userPath, userRolePath } from '../modules/org-roles/org-roles.schemas';
import type { Operation } from './operation';

// Spec §4.1, #1–#10.

const TAG = 'organization-roles';

// What a caller meets beyond the schemas, shown with each operation in /docs.
const ROLES_DISABLED = 'When organization roles are not enabled for the organization, answers 422.';
const NOT_HELD = 'Revoking a role that is not held answers 204 and changes nothing.';
const TEAM_ROLES_PASS_DOWN = 'A team\'s roles pass to its child teams and to their members.';
const PREDEFINED_ROLES = 'Every organization has the predefined roles `security_manager` (138), `all_repo_read` (8132), `all_repo_triage` (8133), '
  + '`all_repo_write` (8134), `all_repo_maintain` (8135), `all_repo_admin` (8136), `ci_cd_admin` (26237) and `app_manager` (33679).';

export const ORG_ROLE_OPERATIONS = {
  listOrgRoles: {
    number: 1, operationId: 'orgs/list-org-roles', method: 'get', path: '/orgs/{org}/organization-roles', success: 200,
    request: { params: orgPath },
    response: { schema: roleListSchema },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['organization_custom_roles', 'read'], caller: 'orgRoleReader' },
    docs: { tag: TAG, summary: 'Get all organization roles for an organization', rules: [PREDEFINED_ROLES, TEAM_ROLES_PASS_DOWN] },
  },
  revokeAllOrgRolesTeam: {
    number: 2, operationId: 'orgs/revoke-all-org-roles-team', method: 'delete', path: '/orgs/{org}/organization-roles/teams/{team_slug}', success: 204,
    request: { params: teamPath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Remove all organization roles for a team', rules: ['Removes every role assigned to this team; other teams\' assignments stay.'] },
  },
  assignTeamToOrgRole: {
    number: 3, operationId: 'orgs/assign-team-to-org-role', method: 'put', path: '/orgs/{org}/organization-roles/teams/{team_slug}/{role_id}', success: 204,
    request: { params: teamRolePath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Assign an organization role to a team', rules: [ROLES_DISABLED, 'Assigning a role the team already holds changes nothing (204).', TEAM_ROLES_PASS_DOWN] },
  },
  revokeOrgRoleTeam: {
    number: 4, operationId: 'orgs/revoke-org-role-team', method: 'delete', path: '/orgs/{org}/organization-roles/teams/{team_slug}/{role_id}', success: 204,
    request: { params: teamRolePath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Remove an organization role from a team', rules: [NOT_HELD] },
  },
  revokeAllOrgRolesUser: {
    number: 5, operationId: 'orgs/revoke-all-org-roles-user', method: 'delete', path: '/orgs/{org}/organization-roles/users/{username}', success: 204,
    request: { params: userPath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Remove all organization roles for a user', rules: ['Removes the roles the user holds directly; roles held through a team stay.'] },
  },
  assignUserToOrgRole: {
    number: 6, operationId: 'orgs/assign-user-to-org-role', method: 'put', path: '/orgs/{org}/organization-roles/users/{username}/{role_id}', success: 204,
    request: { params: userRolePath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Assign an organization role to a user', rules: [ROLES_DISABLED, 'The user must be a member of the organization, else 422 naming `username`.', 'Assigning a role the user already holds changes nothing (204).'] },
  },
  revokeOrgRoleUser: {
    number: 7, operationId: 'orgs/revoke-org-role-user', method: 'delete', path: '/orgs/{org}/organization-roles/users/{username}/{role_id}', success: 204,
    request: { params: userRolePath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Remove an organization role from a user', rules: [NOT_HELD] },
  },
  getOrgRole: {
    number: 8, operationId: 'orgs/get-org-role', method: 'get', path: '/orgs/{org}/organization-roles/{role_id}', success: 200,
    request: { params: rolePath },
    response: { schema: roleSchema },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['organization_custom_roles', 'read'], caller: 'orgRoleReader' },
    docs: { tag: TAG, summary: 'Get an organization role', rules: [PREDEFINED_ROLES] },
  },
  listOrgRoleTeams: {
    number: 9, operationId: 'orgs/list-org-role-teams', method: 'get', path: '/orgs/{org}/organization-roles/{role_id}/teams', success: 200,
    request: { params: rolePath, query: roleMembersQuery },
    response: { schema: roleTeamSchema, array: true },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'read'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'List teams that are assigned to an organization role', pagination: 'page', rules: [ROLES_DISABLED, '`assignment` is `direct` (the team holds the role), `indirect` (through a parent team) or `mixed` (both).'] },
  },
  listOrgRoleUsers: {
    number: 10, operationId: 'orgs/list-org-role-users', method: 'get', path: '/orgs/{org}/organization-roles/{role_id}/users', success: 200,
    request: { params: rolePath, query: roleMembersQuery },
    response: { schema: roleUserSchema, array: true },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'read'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'List users that are assigned to an organization role', pagination: 'page', rules: [ROLES_DISABLED, '`assignment` is `direct` (the user holds the role), `indirect` (through a team or its parent team) or `mixed` (both); `inherited_from` lists the teams holding the role that it comes through.'] },
  },
} satisfies Record<string, Operation>;
