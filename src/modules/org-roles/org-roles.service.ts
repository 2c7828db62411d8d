import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import { withTransaction, type Executor } from '../../database/transaction';
import { AuthenticationError, ForbiddenError, NotFoundError, ValidationError } from '../../errors/domain';
import { nowTimestamp } from '../../shared/time';
import type { AccountsStore } from '../accounts/accounts.store';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import type { OrganizationRecord, TeamRecord } from '../accounts/accounts.types';
import type { AccessStore } from '../../auth/access.store';
import type { OrgRolesStore } from './org-roles.store';
import { actorOf } from '../audit-log/audit-actors';
import type { AuditChange } from '../audit-log/audit-log.types';
import type { AuditRecorder } from '../audit-log/audit-recorder';
import { assignmentOf, type Page, type RoleRecord, type RoleTeam, type RoleUser, type TeamRoleAssignment, type TeamWithParent, type UserRoleAssignment } from './org-roles.types';

export interface OrgRolesDeps {
  db: Knex;
  accounts: AccountsStore;
  access: AccessStore;
  roles: OrgRolesStore;
  lookups: AuthorizedLookups;
  audit: AuditRecorder;
}

export interface PageRequest {
  page: number;
  perPage: number;
  /** Where the page starts, when not at a page boundary (GraphQL offset cursors). */
  offset?: number | undefined;
}

const RESOURCE = 'OrganizationRole';

/** Spec §4.1: organization roles, their assignment to teams and users, and their holders. */
export class OrgRolesService {
  constructor(private readonly deps: OrgRolesDeps) {}

  async listRoles(principal: Principal, orgLogin: string): Promise<{ org: OrganizationRecord; roles: RoleRecord[] }> {
    const { db, roles } = this.deps;
    const org = await this.deps.lookups.org(db, principal, 'listOrgRoles', orgLogin);
    return { org, roles: await roles.listRoles(db, org.id) };
  }

  async getRole(principal: Principal, orgLogin: string, roleId: number): Promise<{ org: OrganizationRecord; role: RoleRecord }> {
    const { db } = this.deps;
    const org = await this.deps.lookups.org(db, principal, 'getOrgRole', orgLogin);
    return { org, role: await this.existingRole(db, org, roleId) };
  }

  /** A role as an owner managing assignments sees it (the check of #3–#7, not of #8). */
  /** Whether the caller sees the organization's teams as #9 shows them (GraphQL node(id:) of a team). */
  async maySeeTeams(principal: Principal, orgLogin: string): Promise<boolean> {
    try {
      await this.deps.lookups.org(this.deps.db, principal, 'listOrgRoleTeams', orgLogin);
      return true;
    } catch (error) {
      if (error instanceof ForbiddenError || error instanceof AuthenticationError) return false;
      throw error;
    }
  }

  async getRoleForAdmin(principal: Principal, orgLogin: string, roleId: number): Promise<{ org: OrganizationRecord; role: RoleRecord }> {
    const { db } = this.deps;
    const org = await this.deps.lookups.org(db, principal, 'assignTeamToOrgRole', orgLogin);
    return { org, role: await this.existingRole(db, org, roleId) };
  }

  async assignToTeam(principal: Principal, assignment: TeamRoleAssignment): Promise<void> {
    const { org: orgLogin, teamSlug, roleId } = assignment;
    await withTransaction(this.deps.db, async (trx) => {
      const org = await this.deps.lookups.org(trx, principal, 'assignTeamToOrgRole', orgLogin);
      assertRolesEnabled(org); // spec #3: 422 when the feature is off
      const team = await this.existingTeam(trx, org, teamSlug);
      const role = await this.existingRole(trx, org, roleId);
      if (await this.deps.roles.assignTeam(trx, org.id, role.id, team.id, nowTimestamp())) {
        await this.deps.audit.record(trx, actorOf(principal), [teamChange('organization_role.assign_team', 'create', org, team, role)]);
      }
    });
  }

  async revokeFromTeam(principal: Principal, assignment: TeamRoleAssignment): Promise<void> {
    const { org: orgLogin, teamSlug, roleId } = assignment;
    await withTransaction(this.deps.db, async (trx) => {
      const org = await this.deps.lookups.org(trx, principal, 'revokeOrgRoleTeam', orgLogin);
      const team = await this.existingTeam(trx, org, teamSlug);
      const role = await this.existingRole(trx, org, roleId);
      if (await this.deps.roles.revokeTeam(trx, org.id, role.id, team.id)) {
        await this.deps.audit.record(trx, actorOf(principal), [teamChange('organization_role.unassign_team', 'remove', org, team, role)]);
      }
    });
  }

  async revokeAllFromTeam(principal: Principal, orgLogin: string, teamSlug: string): Promise<void> {
    await withTransaction(this.deps.db, async (trx) => {
      const org = await this.deps.lookups.org(trx, principal, 'revokeAllOrgRolesTeam', orgLogin);
      const team = await this.existingTeam(trx, org, teamSlug);
      const revoked = await this.deps.roles.revokeAllTeam(trx, org.id, team.id);
      const roles = await this.rolesByIds(trx, org, revoked);
      await this.deps.audit.record(trx, actorOf(principal), roles.map((role) => teamChange('organization_role.unassign_team', 'remove', org, team, role)));
    });
  }

  async assignToUser(principal: Principal, assignment: UserRoleAssignment): Promise<void> {
    const { org: orgLogin, username, roleId } = assignment;
    await withTransaction(this.deps.db, async (trx) => {
      const org = await this.deps.lookups.org(trx, principal, 'assignUserToOrgRole', orgLogin);
      assertRolesEnabled(org); // spec #6: 422 when the feature is off
      const user = await this.existingUser(trx, username);
      const role = await this.existingRole(trx, org, roleId);
      if ((await this.deps.access.orgMembership(trx, org.id, user.id)) === null) {
        // spec #6: 422 when the user is not an organization member
        throw new ValidationError(`User ${user.login} is not a member of the organization ${org.login}.`, [
          { resource: RESOURCE, field: 'username', code: 'invalid', message: 'The user is not a member of the organization.' },
        ]);
      }
      if (await this.deps.roles.assignUser(trx, org.id, role.id, user.id, nowTimestamp())) {
        await this.deps.audit.record(trx, actorOf(principal), [userChange('organization_role.assign_user', 'create', org, user, role)]);
      }
    });
  }

  async revokeFromUser(principal: Principal, assignment: UserRoleAssignment): Promise<void> {
    const { org: orgLogin, username, roleId } = assignment;
    await withTransaction(this.deps.db, async (trx) => {
      const org = await this.deps.lookups.org(trx, principal, 'revokeOrgRoleUser', orgLogin);
      const user = await this.existingUser(trx, username);
      const role = await this.existingRole(trx, org, roleId);
      if (await this.deps.roles.revokeUser(trx, org.id, role.id, user.id)) {
        await this.deps.audit.record(trx, actorOf(principal), [userChange('organization_role.unassign_user', 'remove', org, user, role)]);
      }
    });
  }

  async revokeAllFromUser(principal: Principal, orgLogin: string, username: string): Promise<void> {
    await withTransaction(this.deps.db, async (trx) => {
      const org = await this.deps.lookups.org(trx, principal, 'revokeAllOrgRolesUser', orgLogin);
      const user = await this.existingUser(trx, username);
      const revoked = await this.deps.roles.revokeAllUser(trx, org.id, user.id);
      const roles = await this.rolesByIds(trx, org, revoked);
      await this.deps.audit.record(trx, actorOf(principal), roles.map((role) => userChange('organization_role.unassign_user', 'remove', org, user, role)));
    });
  }

  /** #9: teams holding the role, directly or as a child of a team that does. */
  async listTeams(principal: Principal, orgLogin: string, roleId: number, page: PageRequest): Promise<{ org: OrganizationRecord } & Page<RoleTeam>> {
    const { db, roles, accounts } = this.deps;
    const org = await this.deps.lookups.org(db, principal, 'listOrgRoleTeams', orgLogin);
    assertRolesEnabled(org);
    const role = await this.existingRole(db, org, roleId);
    const holders = await roles.teamHolders(db, org.id, role.id);
    const slice = pageOf(holders, page);
    const teams = await this.withParents(db, await accounts.findTeamsByIds(db, slice.map((h) => h.id)));
    return {
      org,
      total: holders.length,
      items: slice.map((h, i) => ({ ...teams[i]!, assignment: assignmentOf(h) })),
    };
  }

  /** #10: users holding the role, directly or through teams (inherited_from names them). */
  async listUsers(principal: Principal, orgLogin: string, roleId: number, page: PageRequest): Promise<{ org: OrganizationRecord } & Page<RoleUser>> {
    const { db, roles, accounts } = this.deps;
    const org = await this.deps.lookups.org(db, principal, 'listOrgRoleUsers', orgLogin);
    assertRolesEnabled(org);
    const role = await this.existingRole(db, org, roleId);
    const holders = await roles.userHolders(db, org.id, role.id);
    const slice = pageOf(holders, page);
    const users = await accounts.findAccountsByIds(db, slice.map((h) => h.id));
    const viaTeamIds = [...new Set(slice.flatMap((h) => h.viaTeamIds))];
    const viaTeams = new Map((await this.withParents(db, await accounts.findTeamsByIds(db, viaTeamIds))).map((t) => [t.team.id, t]));
    return {
      org,
      total: holders.length,
      items: slice.map((h, i) => ({
        user: users[i]!,
        assignment: assignmentOf(h),
        inheritedFrom: h.viaTeamIds.flatMap((id) => viaTeams.get(id) ?? []),
      })),
    };
  }

  private async rolesByIds(db: Executor, org: OrganizationRecord, ids: readonly number[]): Promise<RoleRecord[]> {
    if (ids.length === 0) return [];
    const wanted = new Set(ids);
    return (await this.deps.roles.listRoles(db, org.id)).filter((role) => wanted.has(role.id));
  }

  private async existingRole(db: Executor, org: OrganizationRecord, roleId: number): Promise<RoleRecord> {
    const role = await this.deps.roles.findRole(db, org.id, roleId);
    if (!role) throw new NotFoundError();
    return role;
  }

  private async existingTeam(db: Executor, org: OrganizationRecord, slug: string): Promise<TeamRecord> {
    const team = await this.deps.accounts.findTeamBySlug(db, org.id, slug);
    if (!team) throw new NotFoundError();
    return team;
  }

  private async existingUser(db: Executor, login: string) {
    const user = await this.deps.accounts.findUserByLogin(db, login);
    if (!user) throw new NotFoundError();
    return user;
  }

  private async withParents(db: Executor, teams: TeamRecord[]): Promise<TeamWithParent[]> {
    const parentIds = [...new Set(teams.flatMap((t) => (t.parentId === null ? [] : [t.parentId])))];
    const parents = new Map((await this.deps.accounts.findTeamsByIds(db, parentIds)).map((t) => [t.id, t]));
    return teams.map((team) => ({ team, parent: team.parentId === null ? null : parents.get(team.parentId) ?? null }));
  }
}

function teamChange(action: string, operation: 'create' | 'remove', org: OrganizationRecord, team: TeamRecord, role: RoleRecord): AuditChange {
  return { action, operation, org, team: { id: team.id, name: `${org.login}/${team.slug}` }, data: { role_id: role.id, role_name: role.name } };
}

function userChange(action: string, operation: 'create' | 'remove', org: OrganizationRecord, user: { id: number; login: string }, role: RoleRecord): AuditChange {
  return { action, operation, org, user: { id: user.id, login: user.login }, data: { role_id: role.id, role_name: role.name } };
}

function assertRolesEnabled(org: OrganizationRecord): void {
  if (!org.rolesEnabled) {
    throw new ValidationError(`Organization roles are not enabled for the organization ${org.login}.`, [
      { resource: RESOURCE, field: 'organization', code: 'unprocessable', message: 'Organization roles are not enabled for this organization.' },
    ]);
  }
}

function pageOf<T>(items: T[], page: PageRequest): T[] {
  const start = page.offset ?? (page.page - 1) * page.perPage;
  return items.slice(start, start + page.perPage);
}
