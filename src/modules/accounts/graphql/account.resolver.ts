import { Arg, Ctx, FieldResolver, Query, Resolver, Root } from 'type-graphql';
import { NotFoundError } from '../../../errors/domain';
import type { GraphQLContext } from '../../../graphql/context';
import { Enterprise, Organization, Repository, RepositoryOwner, Team, User, toEnterprise, toOrganization, toRepository, toTeam, toUser } from './account.types';

@Resolver()
export class AccountQueries {
  @Query(() => User, { nullable: true, description: 'The user the token acts for; null without a token or for an app.' })
  async viewer(@Ctx() ctx: GraphQLContext): Promise<User | null> {
    if (ctx.principal.kind !== 'user') return null;
    const user = await ctx.loaders.accountById.load(ctx.principal.userId);
    return user ? toUser(ctx.apiBase, user) : null;
  }

  @Query(() => Organization, { nullable: true, description: 'An organization by login; null with NOT_FOUND when there is none the caller may see.' })
  async organization(@Arg('login', { description: 'The organization\'s login (any case).' }) login: string, @Ctx() ctx: GraphQLContext): Promise<Organization | null> {
    const org = await ctx.services.accounts.visibleOrganization(ctx.principal, login);
    if (!org) throw new NotFoundError();
    // Its repositories' `owner` is this organization: the row is at hand, not a statement more.
    ctx.loaders.organizationById.prime(org.id, org);
    return toOrganization(ctx.apiBase, org);
  }

  @Query(() => Enterprise, { nullable: true, description: 'An enterprise by slug; null with NOT_FOUND when there is none the caller may see.' })
  async enterprise(@Arg('slug', { description: 'The enterprise\'s slug (any case).' }) slug: string, @Ctx() ctx: GraphQLContext): Promise<Enterprise | null> {
    const enterprise = await ctx.services.accounts.visibleEnterprise(ctx.principal, slug);
    if (!enterprise) throw new NotFoundError();
    return toEnterprise(enterprise);
  }

  @Query(() => Repository, { nullable: true, description: 'A repository by owner and name; null with NOT_FOUND when there is none the caller may see.' })
  async repository(
    @Arg('owner', { description: 'The owner\'s login (any case).' }) owner: string,
    @Arg('name', { description: 'The repository\'s name (any case; a .git suffix is dropped).' }) name: string,
    @Ctx() ctx: GraphQLContext,
  ): Promise<Repository | null> {
    const repo = await ctx.services.accounts.visibleRepository(ctx.principal, owner, name);
    if (!repo) throw new NotFoundError();
    return toRepository(ctx.apiBase, repo);
  }
}

@Resolver(() => Organization)
export class OrganizationRelations {
  @FieldResolver(() => Enterprise, { nullable: true, description: 'The enterprise the organization belongs to, if any (and visible).' })
  async enterprise(@Root() org: Organization, @Ctx() ctx: GraphQLContext): Promise<Enterprise | null> {
    if (org.record.enterpriseId === null) return null;
    const enterprise = await ctx.services.accounts.visibleEnterpriseById(ctx.principal, org.record.enterpriseId);
    return enterprise ? toEnterprise(enterprise) : null;
  }
}

@Resolver(() => Team)
export class TeamRelations {
  @FieldResolver(() => Team, { nullable: true, description: 'The parent team, if any.' })
  async parent(@Root() team: Team, @Ctx() ctx: GraphQLContext): Promise<Team | null> {
    if (team.record.parentId === null) return null;
    const parent = await ctx.loaders.teamById.load(team.record.parentId);
    return parent ? toTeam(parent) : null;
  }
}

@Resolver(() => Repository)
export class RepositoryRelations {
  @FieldResolver(() => RepositoryOwner, { description: 'The user or organization owning the repository.' })
  async owner(@Root() repo: Repository, @Ctx() ctx: GraphQLContext): Promise<typeof RepositoryOwner> {
    if (repo.record.ownerType === 'Organization') return toOrganization(ctx.apiBase, (await ctx.loaders.organizationById.load(repo.record.ownerId))!);
    return toUser(ctx.apiBase, (await ctx.loaders.accountById.load(repo.record.ownerId))!);
  }
}
