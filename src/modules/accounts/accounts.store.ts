import type { Executor } from '../../database/transaction';
import { toBoolean } from '../../database/dialect';
import type { EnterpriseRecord, OrganizationRecord, RepositoryRecord, TeamRecord, UserRecord } from './accounts.types';

// Names match case-insensitively (spec §1): lookups go through the lower-cased *_key columns.
export function nameKey(name: string): string {
  return name.toLowerCase();
}

type Row = Record<string, any>;

const toUser = (r: Row): UserRecord => ({ id: Number(r.id), login: r.login, type: r.type, siteAdmin: toBoolean(r.site_admin) });
const toOrganization = (r: Row): OrganizationRecord => ({
  id: Number(r.id), login: r.login, description: r.description ?? null,
  enterpriseId: r.enterprise_id === null ? null : Number(r.enterprise_id),
  rolesEnabled: toBoolean(r.organization_roles_enabled),
});
const toTeam = (r: Row): TeamRecord => ({
  id: Number(r.id), orgId: Number(r.org_id), slug: r.slug, name: r.name, description: r.description ?? null,
  privacy: r.privacy, notificationSetting: r.notification_setting, permission: r.permission,
  parentId: r.parent_id === null ? null : Number(r.parent_id),
});
const toRepository = (r: Row): RepositoryRecord => ({
  id: Number(r.id), ownerId: Number(r.owner_id), ownerLogin: r.owner_login, ownerType: r.owner_type,
  ownerSiteAdmin: toBoolean(r.owner_site_admin), name: r.name, isPrivate: toBoolean(r.private),
  description: r.description ?? null, fork: toBoolean(r.fork),
});

const TEAM_COLUMNS = ['id', 'org_id', 'slug', 'name', 'description', 'privacy', 'notification_setting', 'permission', 'parent_id'];

export class AccountsStore {
  async findUserByLogin(db: Executor, login: string): Promise<UserRecord | undefined> {
    const row = await db('accounts').where({ login_key: nameKey(login), type: 'User' }).first('id', 'login', 'type', 'site_admin');
    return row ? toUser(row) : undefined;
  }

  /** A user or an organization. */
  async findAccountByLogin(db: Executor, login: string): Promise<UserRecord | undefined> {
    const row = await db('accounts').where({ login_key: nameKey(login) }).first('id', 'login', 'type', 'site_admin');
    return row ? toUser(row) : undefined;
  }

  /** Users (or organizations) by id, in the order of `ids`. */
  async findAccountsByIds(db: Executor, ids: readonly number[]): Promise<UserRecord[]> {
    if (ids.length === 0) return [];
    const rows = await db('accounts').whereIn('id', ids).select('id', 'login', 'type', 'site_admin');
    const byId = new Map(rows.map((r) => [Number(r.id), toUser(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async findOrganizationByLogin(db: Executor, login: string): Promise<OrganizationRecord | undefined> {
    const row = await db('accounts as a')
      .join('organizations as o', 'o.account_id', 'a.id')
      .where('a.login_key', nameKey(login))
      .first('a.id', 'a.login', 'a.description', 'o.enterprise_id', 'o.organization_roles_enabled');
    return row ? toOrganization(row) : undefined;
  }

  /** Organizations by id, in the order of `ids`. */
  async findOrganizationsByIds(db: Executor, ids: readonly number[]): Promise<OrganizationRecord[]> {
    if (ids.length === 0) return [];
    const rows = await db('accounts as a')
      .join('organizations as o', 'o.account_id', 'a.id')
      .whereIn('a.id', ids)
      .select('a.id', 'a.login', 'a.description', 'o.enterprise_id', 'o.organization_roles_enabled');
    const byId = new Map(rows.map((r) => [Number(r.id), toOrganization(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async findEnterpriseById(db: Executor, id: number): Promise<EnterpriseRecord | undefined> {
    const row = await db('enterprises').where('id', id).first('id', 'slug', 'name');
    return row ? { id: Number(row.id), slug: row.slug, name: row.name } : undefined;
  }

  async findEnterpriseBySlug(db: Executor, slug: string): Promise<EnterpriseRecord | undefined> {
    const row = await db('enterprises').where('slug_key', nameKey(slug)).first('id', 'slug', 'name');
    return row ? { id: Number(row.id), slug: row.slug, name: row.name } : undefined;
  }

  async findTeamBySlug(db: Executor, orgId: number, slug: string): Promise<TeamRecord | undefined> {
    const row = await db('teams').where({ org_id: orgId, slug: slug.toLowerCase() }).first(TEAM_COLUMNS);
    return row ? toTeam(row) : undefined;
  }

  /** Teams by id, in the order of `ids`. */
  async findTeamsByIds(db: Executor, ids: readonly number[]): Promise<TeamRecord[]> {
    if (ids.length === 0) return [];
    const rows = await db('teams').whereIn('id', ids).select(TEAM_COLUMNS);
    const byId = new Map(rows.map((r) => [Number(r.id), toTeam(r)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** Repositories by id, with their owners. */
  async findRepositoriesByIds(db: Executor, ids: readonly number[]): Promise<Map<number, RepositoryRecord>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    const rows = await db('repositories as r')
      .join('accounts as o', 'o.id', 'r.owner_id')
      .whereIn('r.id', unique)
      .select('r.id', 'r.owner_id', 'o.login as owner_login', 'o.type as owner_type', 'o.site_admin as owner_site_admin',
        'r.name', 'r.private', 'r.description', 'r.fork');
    return new Map(rows.map((r) => [Number(r.id), toRepository(r)]));
  }

  /** `repo` may carry a `.git` suffix, which is dropped (spec §1). */
  async findRepository(db: Executor, owner: string, repo: string): Promise<RepositoryRecord | undefined> {
    const name = repo.replace(/\.git$/i, '');
    const row = await db('repositories as r')
      .join('accounts as o', 'o.id', 'r.owner_id')
      .where({ 'o.login_key': nameKey(owner), 'r.name_key': nameKey(name) })
      .first('r.id', 'r.owner_id', 'o.login as owner_login', 'o.type as owner_type', 'o.site_admin as owner_site_admin',
        'r.name', 'r.private', 'r.description', 'r.fork');
    return row ? toRepository(row) : undefined;
  }
}
