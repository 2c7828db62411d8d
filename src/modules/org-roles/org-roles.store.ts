import { lockForUpdate } from '../../database/dialect';
import { rowsOf } from '../../auth/access.store';
import type { Executor } from '../../database/transaction';
import { parseJsonColumn, toJsonColumn } from '../../shared/json';
import type { RoleHolder, RoleRecord } from './org-roles.types';

type Row = Record<string, any>;
const ROLE_COLUMNS = ['id', 'org_id', 'name', 'description', 'permissions', 'base_role', 'source', 'created_at', 'updated_at'];

const toRole = (r: Row): RoleRecord => ({
  id: Number(r.id),
  orgId: r.org_id === null ? null : Number(r.org_id),
  name: r.name,
  description: r.description ?? null,
  permissions: parseJsonColumn<string[]>(r.permissions, []),
  baseRole: r.base_role ?? null,
  source: r.source,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

// Teams assigned a role and, recursively, their child teams (which inherit it),
// each with the assigned team it descends from.
const ROLE_TEAMS_CTE = `
  WITH RECURSIVE role_teams(team_id, via_team_id) AS (
    SELECT team_id, team_id FROM organization_role_teams WHERE org_id = ? AND role_id = ?
    UNION
    SELECT t.id, rt.via_team_id FROM teams t JOIN role_teams rt ON t.parent_id = rt.team_id
  )`;

function mergeHolders(direct: number[], viaTeams: Array<{ id: number; via: number }>): RoleHolder[] {
  const holders = new Map<number, RoleHolder>();
  const holder = (id: number) => {
    let h = holders.get(id);
    if (!h) holders.set(id, (h = { id, direct: false, viaTeamIds: [] }));
    return h;
  };
  for (const id of direct) holder(id).direct = true;
  for (const { id, via } of viaTeams) {
    const h = holder(id);
    if (!h.viaTeamIds.includes(via)) h.viaTeamIds.push(via);
  }
  for (const h of holders.values()) h.viaTeamIds.sort((a, b) => a - b);
  return [...holders.values()].sort((a, b) => a.id - b.id);
}

export class OrgRolesStore {
  /** Predefined and custom roles of an organization, by id. */
  async listRoles(db: Executor, orgId: number): Promise<RoleRecord[]> {
    const rows = await db('organization_roles')
      .where((q) => q.whereNull('org_id').orWhere('org_id', orgId))
      .orderBy('id')
      .select(ROLE_COLUMNS);
    return rows.map(toRole);
  }

  async findRole(db: Executor, orgId: number, roleId: number): Promise<RoleRecord | undefined> {
    const row = await db('organization_roles')
      .where('id', roleId)
      .andWhere((q) => q.whereNull('org_id').orWhere('org_id', orgId))
      .first(ROLE_COLUMNS);
    return row ? toRole(row) : undefined;
  }

  async findRoleByName(db: Executor, orgId: number, name: string): Promise<RoleRecord | undefined> {
    const row = await db('organization_roles')
      .where('name', name)
      .andWhere((q) => q.whereNull('org_id').orWhere('org_id', orgId))
      .orderBy('id')
      .first(ROLE_COLUMNS);
    return row ? toRole(row) : undefined;
  }

  /** Creates or updates a custom role by (organization, name); returns its id. */
  async upsertCustomRole(
    db: Executor,
    role: { orgId: number; name: string; description: string | null; permissions: string[]; baseRole: string | null; now: string },
  ): Promise<number> {
    const values = { description: role.description, permissions: toJsonColumn(role.permissions), base_role: role.baseRole };
    const existing = await db('organization_roles').where({ org_id: role.orgId, name: role.name }).first('id', ...Object.keys(values));
    if (!existing) {
      const [row] = await db('organization_roles')
        .insert({ org_id: role.orgId, name: role.name, ...values, source: 'Organization', created_at: role.now, updated_at: role.now })
        .returning('id');
      return Number(row.id ?? row);
    }
    const changed = (Object.keys(values) as Array<keyof typeof values>).some((k) => (existing[k] ?? null) !== values[k]);
    if (changed) await db('organization_roles').where('id', existing.id).update({ ...values, updated_at: role.now });
    return Number(existing.id);
  }

  /** Whether the team did not hold the role before (a role held already changes nothing). */
  async assignTeam(db: Executor, orgId: number, roleId: number, teamId: number, now: string): Promise<boolean> {
    return assign(db, HOLDERS.team, orgId, roleId, teamId, now);
  }

  /** Whether the team held the role. */
  async revokeTeam(db: Executor, orgId: number, roleId: number, teamId: number): Promise<boolean> {
    return revoke(db, HOLDERS.team, orgId, roleId, teamId);
  }

  /** The roles the team held. */
  async revokeAllTeam(db: Executor, orgId: number, teamId: number): Promise<number[]> {
    return revokeAll(db, HOLDERS.team, orgId, teamId);
  }

  /** Whether the user did not hold the role directly before. */
  async assignUser(db: Executor, orgId: number, roleId: number, userId: number, now: string): Promise<boolean> {
    return assign(db, HOLDERS.user, orgId, roleId, userId, now);
  }

  /** Whether the user held the role directly. */
  async revokeUser(db: Executor, orgId: number, roleId: number, userId: number): Promise<boolean> {
    return revoke(db, HOLDERS.user, orgId, roleId, userId);
  }

  /** The roles the user held directly. */
  async revokeAllUser(db: Executor, orgId: number, userId: number): Promise<number[]> {
    return revokeAll(db, HOLDERS.user, orgId, userId);
  }

  /** Teams holding a role: assigned (direct) or child of an assigned team (indirect). */
  async teamHolders(db: Executor, orgId: number, roleId: number): Promise<RoleHolder[]> {
    const rows = rowsOf(await db.raw(`${ROLE_TEAMS_CTE} SELECT team_id, via_team_id FROM role_teams`, [orgId, roleId]));
    const direct = rows.filter((r) => r.team_id === r.via_team_id).map((r) => Number(r.team_id));
    const inherited = rows.filter((r) => r.team_id !== r.via_team_id).map((r) => ({ id: Number(r.team_id), via: Number(r.via_team_id) }));
    return mergeHolders(direct, inherited);
  }

  /** Users holding a role: assigned directly, or members of a team holding it. */
  async userHolders(db: Executor, orgId: number, roleId: number): Promise<RoleHolder[]> {
    const direct = await db('organization_role_users').where({ org_id: orgId, role_id: roleId }).select('user_id');
    const viaTeams = rowsOf(
      await db.raw(`${ROLE_TEAMS_CTE} SELECT DISTINCT m.user_id, rt.via_team_id FROM team_members m JOIN role_teams rt ON rt.team_id = m.team_id`, [orgId, roleId]),
    );
    return mergeHolders(
      direct.map((r) => Number(r.user_id)),
      viaTeams.map((r) => ({ id: Number(r.user_id), via: Number(r.via_team_id) })),
    );
  }
}

/** Where each kind of holder's direct assignments are kept. */
const HOLDERS = {
  team: { table: 'organization_role_teams', holder: 'team_id' },
  user: { table: 'organization_role_users', holder: 'user_id' },
} as const;
type Holders = (typeof HOLDERS)[keyof typeof HOLDERS];

async function assign(db: Executor, { table, holder }: Holders, orgId: number, roleId: number, holderId: number, now: string): Promise<boolean> {
  const inserted = await db(table).insert({ org_id: orgId, role_id: roleId, [holder]: holderId, created_at: now }).onConflict(['org_id', 'role_id', holder]).ignore().returning('role_id');
  return inserted.length > 0;
}

async function revoke(db: Executor, { table, holder }: Holders, orgId: number, roleId: number, holderId: number): Promise<boolean> {
  return (await db(table).where({ org_id: orgId, role_id: roleId, [holder]: holderId }).delete()) > 0;
}

/** The roles the holder held, then removed. Read first: SQLite's knex answers a DELETE with a count, never RETURNING rows (locked on PostgreSQL meanwhile). */
async function revokeAll(db: Executor, { table, holder }: Holders, orgId: number, holderId: number): Promise<number[]> {
  const held: Array<{ role_id: number }> = await lockForUpdate(db(table).where({ org_id: orgId, [holder]: holderId }).select('role_id'));
  await db(table).where({ org_id: orgId, [holder]: holderId }).delete();
  return held.map((r) => Number(r.role_id)).sort((a, b) => a - b);
}
