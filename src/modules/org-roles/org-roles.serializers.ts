import { encodeNodeId } from '../../shared/node-id';
import { serializeOrganizationFull, serializeTeamSummary, serializeUserSummary } from '../accounts/accounts.serializers';
import type { OrganizationRecord } from '../accounts/accounts.types';
import type { RoleRecord, RoleTeam, RoleUser } from './org-roles.types';

/** §2.1 organization role, with reference.md's base_role and source. */
export function serializeRole(base: string, org: OrganizationRecord, role: RoleRecord) {
  return {
    id: role.id,
    node_id: encodeNodeId('OrganizationRole', role.id, org.id),
    name: role.name,
    description: role.description,
    permissions: role.permissions,
    organization: serializeOrganizationFull(base, org),
    created_at: role.createdAt,
    updated_at: role.updatedAt,
    base_role: role.baseRole,
    source: role.source,
  };
}

/** #9 item: a team summary and how it holds the role. */
export function serializeRoleTeam(base: string, org: OrganizationRecord, item: RoleTeam) {
  return { ...serializeTeamSummary(base, org.login, item.team, item.parent), assignment: item.assignment };
}

/** #10 item: a user summary, how they hold the role, and through which teams. */
export function serializeRoleUser(base: string, org: OrganizationRecord, item: RoleUser) {
  return {
    ...serializeUserSummary(base, item.user),
    assignment: item.assignment,
    inherited_from: item.inheritedFrom.map((t) => serializeTeamSummary(base, org.login, t.team, t.parent)),
  };
}
