import { Arg, Ctx, ID, Query, Resolver } from 'type-graphql';
import { AuthenticationError, ForbiddenError, NotFoundError } from '../errors/domain';
import { decodeNodeId } from '../shared/node-id';
import { Node } from '../modules/accounts/graphql/node';
import { toEnterprise, toOrganization, toRepository, toTeam, toUser } from '../modules/accounts/graphql/account.types';
import { toAttestation } from '../modules/attestations/graphql/attestation.resolver';
import { toSecurityAdvisory } from '../modules/advisories/graphql/advisory.types';
import { toDependencyAlert } from '../modules/dependency-alerts/graphql/alert.resolver';
import { toRole } from '../modules/org-roles/graphql/role.resolver';
import type { GraphQLContext } from './context';

@Resolver()
export class NodeQuery {
  @Query(() => Node, {
    nullable: true,
    description: 'Any object by its global id. Something that does not exist and something the caller may not see answer alike: null with a NOT_FOUND error.',
  })
  async node(@Arg('id', () => ID, { description: 'A global id from an `id` field (or a REST `node_id`).' }) id: string, @Ctx() ctx: GraphQLContext): Promise<Node> {
    const decoded = decodeNodeId(id);
    let found: Node | undefined;
    try {
      found = decoded ? await resolveNode(ctx, decoded.type, decoded.id, decoded.scope) : undefined;
    } catch (error) {
      // An object the caller may not see or read answers exactly like one that does not
      // exist: a FORBIDDEN here would tell which ids exist (issue 8).
      if (!(error instanceof AuthenticationError || error instanceof ForbiddenError)) throw error;
    }
    if (!found) throw new NotFoundError();
    return found;
  }
}

/** The object a global id names, as the caller may see it; undefined when there is none (or it is hidden, for most types). */
export async function resolveNode(ctx: GraphQLContext, type: string, id: number, scope: number | undefined): Promise<Node | undefined> {
  const { accounts } = ctx.services;
  switch (type) {
    case 'User': {
      const user = await ctx.loaders.accountById.load(id);
      return user?.type === 'User' ? toUser(ctx.apiBase, user) : undefined;
    }
    case 'Organization': {
      const org = await ctx.loaders.organizationById.load(id);
      const visible = org ? await accounts.visibleOrganization(ctx.principal, org.login) : undefined;
      return visible ? toOrganization(ctx.apiBase, visible) : undefined;
    }
    case 'Enterprise': {
      const enterprise = await accounts.visibleEnterpriseById(ctx.principal, id);
      return enterprise ? toEnterprise(enterprise) : undefined;
    }
    case 'Team': {
      // REST shows teams to those who may list a role's teams (#9): so does node().
      const team = await ctx.loaders.teamById.load(id);
      const org = team ? await ctx.loaders.organizationById.load(team.orgId) : null;
      if (!team || !org || !(await accounts.visibleOrganization(ctx.principal, org.login))) return undefined;
      return (await ctx.services.orgRoles.maySeeTeams(ctx.principal, org.login)) ? toTeam(team) : undefined;
    }
    case 'Repository': {
      const repo = await ctx.loaders.repositoryById.load(id);
      const visible = repo ? await accounts.visibleRepository(ctx.principal, repo.ownerLogin, repo.name) : undefined;
      return visible ? toRepository(ctx.apiBase, visible) : undefined;
    }
    case 'OrganizationRole': {
      const org = scope === undefined ? null : await ctx.loaders.organizationById.load(scope);
      if (!org || !(await accounts.visibleOrganization(ctx.principal, org.login))) return undefined;
      const result = await ctx.services.orgRoles.getRole(ctx.principal, org.login, id);
      return toRole(ctx.apiBase, result.org, result.role);
    }
    case 'DependencyAlert':
      return toDependencyAlert(ctx.apiBase, await ctx.services.dependencyAlerts.getById(ctx.principal, id));
    case 'Attestation': {
      const { repo, attestation } = await ctx.services.attestations.getById(ctx.principal, id);
      return toAttestation(ctx.apiBase, repo, attestation);
    }
    case 'Advisory': {
      const advisory = await ctx.services.dependencyAlerts.findAdvisory(ctx.principal, id);
      return advisory ? toSecurityAdvisory(ctx.apiBase, advisory) : undefined;
    }
    default:
      return undefined;
  }
}
