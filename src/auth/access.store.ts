import type { Executor } from '../database/transaction';
import { parseJsonColumn } from '../shared/json';
import { satisfiesOrgRule, type OrgStanding } from './caller-rules';

export type RepoPermission = 'read' | 'triage' | 'write' | 'maintain' | 'admin';
const REPO_PERMISSION_RANK: Record<RepoPermission, number> = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

export function repoPermissionAtLeast(granted: RepoPermission | null, needed: RepoPermission): boolean {
  return granted !== null && REPO_PERMISSION_RANK[granted] >= REPO_PERMISSION_RANK[needed];
}

function highest(permissions: Iterable<string | null | undefined>): RepoPermission | null {
  let best: RepoPermission | null = null;
  for (const p of permissions) {
    if (p && p in REPO_PERMISSION_RANK && (best === null || REPO_PERMISSION_RANK[p as RepoPermission] > REPO_PERMISSION_RANK[best])) {
      best = p as RepoPermission;
    }
  }
  return best;
}

export interface HeldRole {
  id: number;
  name: string;
  permissions: string[];
  baseRole: RepoPermission | null;
}

// The teams a user belongs to in an organization, directly or as a member of a
// child team (child teams inherit their parent's access and roles).
const EFFECTIVE_TEAMS_SQL = `
  WITH RECURSIVE effective_teams(id) AS (
    SELECT t.id FROM teams t JOIN team_members m ON m.team_id = t.id WHERE m.user_id = ? AND t.org_id = ?
    UNION
    SELECT t.parent_id FROM teams t JOIN effective_teams e ON t.id = e.id WHERE t.parent_id IS NOT NULL
  )
  SELECT id FROM effective_teams`;

/** Facts about who a user is to an organization, enterprise or repository. */
export class AccessStore {
  async orgMembership(db: Executor, orgId: number, userId: number): Promise<'admin' | 'member' | null> {
    const row = await db('organization_members').where({ org_id: orgId, user_id: userId }).first('role');
    return row ? row.role : null;
  }

  async effectiveTeamIds(db: Executor, orgId: number, userId: number): Promise<number[]> {
    const rows = (await db.raw(EFFECTIVE_TEAMS_SQL, [userId, orgId])) as unknown;
    return rowsOf(rows).map((r) => Number(r.id));
  }

  /** Roles a user holds in an organization, directly or through any of its teams. */
  async heldRoles(db: Executor, orgId: number, userId: number): Promise<HeldRole[]> {
    const teamIds = await this.effectiveTeamIds(db, orgId, userId);
    const rows = await db('organization_roles as r')
      .whereIn('r.id', (q) => {
        q.select('role_id').from('organization_role_users').where({ org_id: orgId, user_id: userId });
        if (teamIds.length > 0) {
          q.union((u) => u.select('role_id').from('organization_role_teams').where('org_id', orgId).whereIn('team_id', teamIds));
        }
      })
      .select('r.id', 'r.name', 'r.permissions', 'r.base_role');
    return rows.map(heldRoleOf);
  }

  /** 'owner', 'member' (also through membership of one of its organizations), or null. */
  async enterpriseRole(db: Executor, enterpriseId: number, userId: number): Promise<'owner' | 'member' | null> {
    const row = await db('enterprise_members').where({ enterprise_id: enterpriseId, user_id: userId }).first('role');
    if (row) return row.role;
    const viaOrg = await db('organization_members as m')
      .join('organizations as o', 'o.account_id', 'm.org_id')
      .where({ 'o.enterprise_id': enterpriseId, 'm.user_id': userId })
      .first('m.user_id');
    return viaOrg ? 'member' : null;
  }

  /**
   * Organizations of an enterprise where the user is an owner or a security manager: the
   * authorizer's orgSecurityManager rule (caller-rules.ts), over the standings of all of them
   * read at once (five statements, however many organizations).
   */
  async alertManagedOrgIds(db: Executor, enterpriseId: number, userId: number): Promise<number[]> {
    const orgIds = (await db('organizations').where('enterprise_id', enterpriseId).orderBy('account_id').select('account_id')).map((r) => Number(r.account_id));
    const standings = await this.orgStandings(db, orgIds, userId);
    return orgIds.filter((orgId) => satisfiesOrgRule('orgSecurityManager', standings.get(orgId)!));
  }

  /**
   * The user's standing in each of the organizations, in four statements: membership, the
   * effective teams of all of them, the roles held directly and through those teams. Roles are
   * read for the organizations the user is a member of (only a member's roles count).
   */
  async orgStandings(db: Executor, orgIds: readonly number[], userId: number): Promise<Map<number, OrgStanding>> {
    const standings = new Map<number, OrgStanding>(orgIds.map((orgId) => [orgId, { membership: null, roles: [] }]));
    if (orgIds.length === 0) return standings;
    const memberships = await db('organization_members').where('user_id', userId).whereIn('org_id', [...orgIds]).select('org_id', 'role');
    const memberOrgIds = memberships.map((r) => Number(r.org_id));
    if (memberOrgIds.length === 0) return standings;
    const teams = await db.withRecursive('effective_teams', ['id', 'org_id'], (q) => q
      .select('t.id', 't.org_id').from('teams as t').join('team_members as m', 'm.team_id', 't.id').where('m.user_id', userId).whereIn('t.org_id', memberOrgIds)
      .union((u) => u.select('t.parent_id', 'e.org_id').from('teams as t').join('effective_teams as e', 't.id', 'e.id').whereNotNull('t.parent_id')))
      .from('effective_teams').select('id', 'org_id');
    // A team's role counts in the organization the user reached the team through (as heldRoles).
    const teamOrgs = new Set(teams.map((r) => `${Number(r.org_id)}:${Number(r.id)}`));
    const roleColumns = ['a.org_id', 'r.id', 'r.name', 'r.permissions', 'r.base_role'];
    const direct = await db('organization_role_users as a').join('organization_roles as r', 'r.id', 'a.role_id')
      .where('a.user_id', userId).whereIn('a.org_id', memberOrgIds).select(roleColumns);
    const viaTeams = teams.length === 0 ? [] : await db('organization_role_teams as a').join('organization_roles as r', 'r.id', 'a.role_id')
      .whereIn('a.org_id', memberOrgIds).whereIn('a.team_id', [...new Set(teams.map((r) => Number(r.id)))]).select([...roleColumns, 'a.team_id']);
    const rolesByOrg = new Map<number, Map<number, HeldRole>>(memberOrgIds.map((orgId) => [orgId, new Map()]));
    for (const row of [...direct, ...viaTeams.filter((r) => teamOrgs.has(`${Number(r.org_id)}:${Number(r.team_id)}`))]) {
      const role = heldRoleOf(row);
      rolesByOrg.get(Number(row.org_id))!.set(role.id, role);
    }
    for (const { org_id: orgId, role } of memberships) {
      standings.set(Number(orgId), { membership: role, roles: [...rolesByOrg.get(Number(orgId))!.values()] });
    }
    return standings;
  }

  /** The highest repository role a user has, from every source. */
  async repoPermission(db: Executor, repo: { id: number; ownerId: number; ownerIsOrg: boolean }, userId: number): Promise<RepoPermission | null> {
    if (!repo.ownerIsOrg) {
      if (repo.ownerId === userId) return 'admin';
      const collaborator = await db('repository_collaborators').where({ repo_id: repo.id, user_id: userId }).first('permission');
      return collaborator ? collaborator.permission : null;
    }
    const membership = await this.orgMembership(db, repo.ownerId, userId);
    if (membership === 'admin') return 'admin';
    const collaborator = await db('repository_collaborators').where({ repo_id: repo.id, user_id: userId }).first('permission');
    if (membership === null) return collaborator ? collaborator.permission : null;
    const teamIds = await this.effectiveTeamIds(db, repo.ownerId, userId);
    const teamGrants = teamIds.length === 0 ? [] : await db('team_repositories').where('repo_id', repo.id).whereIn('team_id', teamIds).select('permission');
    const roles = await this.heldRoles(db, repo.ownerId, userId);
    return highest([collaborator?.permission, ...teamGrants.map((g) => g.permission), ...roles.map((r) => r.baseRole)]);
  }
}

function heldRoleOf(row: { id: unknown; name: string; permissions: unknown; base_role: RepoPermission | null }): HeldRole {
  return { id: Number(row.id), name: row.name, permissions: parseJsonColumn<string[]>(row.permissions, []), baseRole: row.base_role };
}

/** knex.raw answers differ by driver: an array (better-sqlite3) or a result with rows (pg). */
export function rowsOf(result: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(result)) return result as Array<Record<string, unknown>>;
  return ((result as { rows?: Array<Record<string, unknown>> }).rows ?? []);
}
