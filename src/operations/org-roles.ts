import { roleListSchema, roleSchema, roleTeamSchema, roleUserSchema } from '../modules/org-roles/org-roles.responses';
import { orgPath, roleMembersQuery, rolePath, teamPath, teamRolePath, userPath, userRolePath } from '../modules/org-roles/org-roles.schemas';
import type { Operation } from './operation';

// Spec §4.1, #1–#10.

const TAG = 'organization-roles';

export const ORG_ROLE_OPERATIONS = {
  listOrgRoles: {
    number: 1, operationId: 'orgs/list-org-roles', method: 'get', path: '/orgs/{org}/organization-roles', success: 200,
    request: { params: orgPath },
    response: { schema: roleListSchema },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['organization_custom_roles', 'read'], caller: 'orgRoleReader' },
    docs: { tag: TAG, summary: 'Get all organization roles for an organization' },
  },
  revokeAllOrgRolesTeam: {
    number: 2, operationId: 'orgs/revoke-all-org-roles-team', method: 'delete', path: '/orgs/{org}/organization-roles/teams/{team_slug}', success: 204,
    request: { params: teamPath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Remove all organization roles for a team' },
  },
  assignTeamToOrgRole: {
    number: 3, operationId: 'orgs/assign-team-to-org-role', method: 'put', path: '/orgs/{org}/organization-roles/teams/{team_slug}/{role_id}', success: 204,
    request: { params: teamRolePath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Assign an organization role to a team' },
  },
  revokeOrgRoleTeam: {
    number: 4, operationId: 'orgs/revoke-org-role-team', method: 'delete', path: '/orgs/{org}/organization-roles/teams/{team_slug}/{role_id}', success: 204,
    request: { params: teamRolePath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Remove an organization role from a team' },
  },
  revokeAllOrgRolesUser: {
    number: 5, operationId: 'orgs/revoke-all-org-roles-user', method: 'delete', path: '/orgs/{org}/organization-roles/users/{username}', success: 204,
    request: { params: userPath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Remove all organization roles for a user' },
  },
  assignUserToOrgRole: {
    number: 6, operationId: 'orgs/assign-user-to-org-role', method: 'put', path: '/orgs/{org}/organization-roles/users/{username}/{role_id}', success: 204,
    request: { params: userRolePath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Assign an organization role to a user' },
  },
  revokeOrgRoleUser: {
    number: 7, operationId: 'orgs/revoke-org-role-user', method: 'delete', path: '/orgs/{org}/organization-roles/users/{username}/{role_id}', success: 204,
    request: { params: userRolePath },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'write'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Remove an organization role from a user' },
  },
  getOrgRole: {
    number: 8, operationId: 'orgs/get-org-role', method: 'get', path: '/orgs/{org}/organization-roles/{role_id}', success: 200,
    request: { params: rolePath },
    response: { schema: roleSchema },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['organization_custom_roles', 'read'], caller: 'orgRoleReader' },
    docs: { tag: TAG, summary: 'Get an organization role' },
  },
  listOrgRoleTeams: {
    number: 9, operationId: 'orgs/list-org-role-teams', method: 'get', path: '/orgs/{org}/organization-roles/{role_id}/teams', success: 200,
    request: { params: rolePath, query: roleMembersQuery },
    response: { schema: roleTeamSchema, array: true },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'read'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'List teams that are assigned to an organization role', pagination: 'page' },
  },
  listOrgRoleUsers: {
    number: 10, operationId: 'orgs/list-org-role-users', method: 'get', path: '/orgs/{org}/organization-roles/{role_id}/users', success: 200,
    request: { params: rolePath, query: roleMembersQuery },
    response: { schema: roleUserSchema, array: true },
    requirement: { target: 'org', scopes: ['admin:org'], permission: ['members', 'read'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'List users that are assigned to an organization role', pagination: 'page' },
  },
} satisfies Record<string, Operation>;
