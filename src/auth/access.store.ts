import type { Executor } from '../database/transaction';
import { parseJsonColumn } from '../shared/json';

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
    return rows.map((r) => ({
      id: Number(r.id),
      name: r.name,
      permissions: parseJsonColumn<string[]>(r.permissions, []),
      baseRole: r.base_role,
    }));
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

  /** Organizations of an enterprise where the user is an owner or a security manager. */
  async alertManagedOrgIds(db: Executor, enterpriseId: number, userId: number): Promise<number[]> {
    const orgIds = (await db('organizations').where('enterprise_id', enterpriseId).orderBy('account_id').select('account_id')).map((r) => Number(r.account_id));
    const managed: number[] = [];
    for (const orgId of orgIds) {
      const membership = await this.orgMembership(db, orgId, userId);
      if (membership === 'admin' || (membership !== null && (await this.heldRoles(db, orgId, userId)).some((r) => r.name === 'security_manager'))) {
        managed.push(orgId);
      }
    }
    return managed;
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

/** knex.raw answers differ by driver: an array (better-sqlite3) or a result with rows (pg). */
export function rowsOf(result: unknown): Array<Record<string, unknown>> {
  if (Array.isArray(result)) return result as Array<Record<string, unknown>>;
  return ((result as { rows?: Array<Record<string, unknown>> }).rows ?? []);
}
