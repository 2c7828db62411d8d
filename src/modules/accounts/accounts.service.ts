import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import { NotFoundError } from '../../errors/domain';
import type { AccountsStore } from './accounts.store';
import type { EnterpriseRecord, OrganizationRecord, RepositoryRecord, TeamRecord, UserRecord } from './accounts.types';
import type { AuthorizedLookups } from './authorized-lookups';

/**
 * Users, organizations, enterprises, teams and repositories as the caller may read them:
 * by name (what the caller may not see is absent, like what does not exist) and in batches
 * by id, one `whereIn` each, for GraphQL's per-request loaders.
 *
 * The batches serve references from something the caller already reached (a repository's
 * owner, a team's parent, an alert's assignees) and node(id:), which asks visible* before it
 * answers: user and organization profiles are public; teams and repositories are returned to
 * a caller who reached them through a visible parent, or checked with visibleRepository.
 */
export class AccountsService {
  constructor(private readonly deps: { db: Knex; accounts: AccountsStore; lookups: AuthorizedLookups }) {}

  async visibleOrganization(principal: Principal, login: string): Promise<OrganizationRecord | undefined> {
    return this.deps.lookups.visibleOrg(this.deps.db, principal, login);
  }

  async visibleEnterprise(principal: Principal, slug: string): Promise<EnterpriseRecord | undefined> {
    return this.deps.lookups.visibleEnterprise(this.deps.db, principal, slug);
  }

  async visibleEnterpriseById(principal: Principal, id: number): Promise<EnterpriseRecord | undefined> {
    return this.deps.lookups.visibleEnterpriseById(this.deps.db, principal, id);
  }

  async visibleRepository(principal: Principal, owner: string, name: string): Promise<RepositoryRecord | undefined> {
    return this.deps.lookups.visibleRepo(this.deps.db, principal, owner, name);
  }

  /** A user by login (a mutation's payload names the user it changed). */
  async getUser(_principal: Principal, login: string): Promise<UserRecord> {
    const user = await this.deps.accounts.findUserByLogin(this.deps.db, login);
    if (!user) throw new NotFoundError();
    return user;
  }

  /** A team by organization and slug (a mutation's payload names the team it changed). */
  async getTeam(_principal: Principal, orgLogin: string, slug: string): Promise<TeamRecord> {
    const { db, accounts } = this.deps;
    const org = await accounts.findOrganizationByLogin(db, orgLogin);
    const team = org ? await accounts.findTeamBySlug(db, org.id, slug) : undefined;
    if (!team) throw new NotFoundError();
    return team;
  }

  /**
   * A team's page (src/pages): authorized as the answer that links to it, a role's team list
   * (listOrgRoleTeams), so whoever was given its html_url may open it; missing or hidden: 404.
   */
  async readableTeam(principal: Principal, orgLogin: string, slug: string): Promise<{ org: OrganizationRecord; team: TeamRecord; parent: TeamRecord | undefined }> {
    const { db, accounts, lookups } = this.deps;
    const org = await lookups.org(db, principal, 'listOrgRoleTeams', orgLogin);
    const team = await accounts.findTeamBySlug(db, org.id, slug);
    if (!team) throw new NotFoundError();
    const parent = team.parentId === null ? undefined : (await accounts.findTeamsByIds(db, [team.parentId]))[0];
    return { org, team, parent };
  }

  async usersByIds(_principal: Principal, ids: readonly number[]): Promise<Map<number, UserRecord>> {
    return new Map((await this.deps.accounts.findAccountsByIds(this.deps.db, ids)).map((user) => [user.id, user]));
  }

  async organizationsByIds(_principal: Principal, ids: readonly number[]): Promise<Map<number, OrganizationRecord>> {
    return new Map((await this.deps.accounts.findOrganizationsByIds(this.deps.db, ids)).map((org) => [org.id, org]));
  }

  async teamsByIds(_principal: Principal, ids: readonly number[]): Promise<Map<number, TeamRecord>> {
    return new Map((await this.deps.accounts.findTeamsByIds(this.deps.db, ids)).map((team) => [team.id, team]));
  }

  async repositoriesByIds(_principal: Principal, ids: readonly number[]): Promise<Map<number, RepositoryRecord>> {
    return this.deps.accounts.findRepositoriesByIds(this.deps.db, ids);
  }
}
