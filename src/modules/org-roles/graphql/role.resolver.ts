import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Resolver, Root, UseMiddleware } from 'type-graphql';
import { callersOf } from '../../../operations';
import type { GraphQLContext } from '../../../graphql/context';
import { clearLoadersAfter } from '../../../graphql/loaders';
import { ConnectionArgs, windowOf, type Connection } from '../../../graphql/relay';
import { offsetCursor, offsetOf, roleHoldersList } from '../org-roles.cursors';
import { encodeNodeId } from '../../../shared/node-id';
import { Organization, Team, User, toOrganization, toTeam, toUser } from '../../accounts/graphql/account.types';
import type { OrganizationRecord } from '../../accounts/accounts.types';
import { objectOf } from '../../accounts/graphql/node';
import type { RoleRecord, TeamRoleAssignment, UserRoleAssignment } from '../org-roles.types';
import {
  BaseRole, OrganizationRole, RoleAssignment, RoleSource, RoleTeamConnection, RoleUserConnection, TeamInput, TeamRoleInput, TeamRolePayload, UserInput, UserRoleInput, UserRolePayload,
} from './role.types';

export function toRole(base: string, org: OrganizationRecord, role: RoleRecord): OrganizationRole {
  return objectOf(OrganizationRole, {
    id: encodeNodeId('OrganizationRole', role.id, org.id), databaseId: role.id, name: role.name, description: role.description,
    permissions: role.permissions, baseRole: role.baseRole as BaseRole | null, source: role.source as RoleSource, createdAt: new Date(role.createdAt), updatedAt: new Date(role.updatedAt),
    organization: toOrganization(base, org), role, org,
  });
}

/** Whether the window counts from the end of the list, so the list's size must be known first. */
function needsTotal(args: ConnectionArgs): boolean {
  return args.last != null && args.before == null;
}

/** Offset windows over the holder lists (REST pages them by number); `total` places `last`. */
function offsetWindow(list: string, args: ConnectionArgs, total: number): { offset: number; limit: number } {
  const window = windowOf(args);
  const after = offsetOf(list, window.after);
  const before = offsetOf(list, window.before);
  if (window.fromEnd) {
    const end = before ?? total;
    return { offset: Math.max(0, end - window.perPage), limit: Math.min(window.perPage, end) };
  }
  return { offset: after === undefined ? 0 : after + 1, limit: window.perPage };
}

function holdersConnection<T, E extends { node: unknown }>(list: string, total: number, offset: number, items: T[], edgeOf: (item: T, cursor: string) => E): Connection<never> {
  const edges = items.map((item, i) => edgeOf(item, offsetCursor(list, offset + i)));
  return {
    edges: edges as never,
    nodes: edges.map((edge) => edge.node) as never,
    totalCount: total,
    pageInfo: {
      hasNextPage: offset + items.length < total, hasPreviousPage: offset > 0,
      startCursor: items.length ? offsetCursor(list, offset) : null, endCursor: items.length ? offsetCursor(list, offset + items.length - 1) : null,
    },
  };
}

@Resolver(() => Organization)
export class OrganizationRoles {
  @FieldResolver(() => [OrganizationRole], { nullable: true, description: `Predefined and custom roles (${callersOf('listOrgRoles')}).` })
  async organizationRoles(@Root() org: Organization, @Ctx() ctx: GraphQLContext): Promise<OrganizationRole[]> {
    const result = await ctx.services.orgRoles.listRoles(ctx.principal, org.login);
    return result.roles.map((role) => toRole(ctx.apiBase, result.org, role));
  }

  @FieldResolver(() => OrganizationRole, { nullable: true, description: 'One role by its numeric id.' })
  async organizationRole(@Root() org: Organization, @Arg('databaseId', () => Int, { description: 'The role\'s numeric id.' }) roleId: number, @Ctx() ctx: GraphQLContext): Promise<OrganizationRole> {
    const result = await ctx.services.orgRoles.getRole(ctx.principal, org.login, roleId);
    return toRole(ctx.apiBase, result.org, result.role);
  }
}

@Resolver(() => OrganizationRole)
export class OrganizationRoleHolders {
  @FieldResolver(() => RoleTeamConnection, { nullable: true, description: `Teams holding the role, and how (${callersOf('listOrgRoleTeams')}).` })
  async teams(@Root() role: OrganizationRole, @Args() args: ConnectionArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<never>> {
    const list = roleHoldersList('teams', role.org.id, role.databaseId);
    const total = needsTotal(args) ? (await ctx.services.orgRoles.listTeams(ctx.principal, role.org.login, role.databaseId, { page: 1, perPage: 0 })).total : 0;
    const { offset, limit } = offsetWindow(list, args, total);
    const result = await ctx.services.orgRoles.listTeams(ctx.principal, role.org.login, role.databaseId, { page: 1, perPage: limit, offset });
    return holdersConnection(list, result.total, offset, result.items, (item, cursor) => ({ cursor, node: toTeam(item.team), assignment: item.assignment as RoleAssignment }));
  }

  @FieldResolver(() => RoleUserConnection, { nullable: true, description: `Users holding the role, how, and through which teams (${callersOf('listOrgRoleUsers')}).` })
  async users(@Root() role: OrganizationRole, @Args() args: ConnectionArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<never>> {
    const list = roleHoldersList('users', role.org.id, role.databaseId);
    const total = needsTotal(args) ? (await ctx.services.orgRoles.listUsers(ctx.principal, role.org.login, role.databaseId, { page: 1, perPage: 0 })).total : 0;
    const { offset, limit } = offsetWindow(list, args, total);
    const result = await ctx.services.orgRoles.listUsers(ctx.principal, role.org.login, role.databaseId, { page: 1, perPage: limit, offset });
    return holdersConnection(list, result.total, offset, result.items, (item, cursor) => ({
      cursor, node: toUser(ctx.apiBase, item.user), assignment: item.assignment as RoleAssignment, inheritedFrom: item.inheritedFrom.map((t) => toTeam(t.team)),
    }));
  }
}

const teamAssignmentOf = (input: TeamRoleInput): TeamRoleAssignment => ({ org: input.organization, teamSlug: input.team, roleId: input.roleId });
const userAssignmentOf = (input: UserRoleInput): UserRoleAssignment => ({ org: input.organization, username: input.user, roleId: input.roleId });

async function teamOf(ctx: GraphQLContext, orgLogin: string, slug: string): Promise<Team> {
  return toTeam(await ctx.services.accounts.getTeam(ctx.principal, orgLogin, slug));
}

async function userOf(ctx: GraphQLContext, login: string): Promise<User> {
  return toUser(ctx.apiBase, await ctx.services.accounts.getUser(ctx.principal, login));
}

async function roleOf(ctx: GraphQLContext, orgLogin: string, roleId: number): Promise<OrganizationRole | null> {
  const { org, role } = await ctx.services.orgRoles.getRoleForAdmin(ctx.principal, orgLogin, roleId);
  return toRole(ctx.apiBase, org, role);
}

@Resolver()
@UseMiddleware(clearLoadersAfter)
export class OrganizationRoleMutations {
  @Mutation(() => TeamRolePayload, { nullable: true, description: 'Assigns a role to a team (idempotent).' })
  async assignOrganizationRoleToTeam(@Arg('input', { description: 'The role and team.' }) input: TeamRoleInput, @Ctx() ctx: GraphQLContext): Promise<TeamRolePayload> {
    await ctx.services.orgRoles.assignToTeam(ctx.principal, teamAssignmentOf(input));
    return { organizationRole: await roleOf(ctx, input.organization, input.roleId), team: await teamOf(ctx, input.organization, input.team) };
  }

  @Mutation(() => TeamRolePayload, { nullable: true, description: 'Revokes a role from a team.' })
  async revokeOrganizationRoleFromTeam(@Arg('input', { description: 'The role and team.' }) input: TeamRoleInput, @Ctx() ctx: GraphQLContext): Promise<TeamRolePayload> {
    await ctx.services.orgRoles.revokeFromTeam(ctx.principal, teamAssignmentOf(input));
    return { organizationRole: await roleOf(ctx, input.organization, input.roleId), team: await teamOf(ctx, input.organization, input.team) };
  }

  @Mutation(() => TeamRolePayload, { nullable: true, description: 'Revokes every role from a team.' })
  async revokeAllOrganizationRolesFromTeam(@Arg('input', { description: 'The team.' }) input: TeamInput, @Ctx() ctx: GraphQLContext): Promise<TeamRolePayload> {
    await ctx.services.orgRoles.revokeAllFromTeam(ctx.principal, input.organization, input.team);
    return { organizationRole: null, team: await teamOf(ctx, input.organization, input.team) };
  }

  @Mutation(() => UserRolePayload, { nullable: true, description: 'Assigns a role to a member (idempotent).' })
  async assignOrganizationRoleToUser(@Arg('input', { description: 'The role and user.' }) input: UserRoleInput, @Ctx() ctx: GraphQLContext): Promise<UserRolePayload> {
    await ctx.services.orgRoles.assignToUser(ctx.principal, userAssignmentOf(input));
    return { organizationRole: await roleOf(ctx, input.organization, input.roleId), user: await userOf(ctx, input.user) };
  }

  @Mutation(() => UserRolePayload, { nullable: true, description: 'Revokes a role from a user.' })
  async revokeOrganizationRoleFromUser(@Arg('input', { description: 'The role and user.' }) input: UserRoleInput, @Ctx() ctx: GraphQLContext): Promise<UserRolePayload> {
    await ctx.services.orgRoles.revokeFromUser(ctx.principal, userAssignmentOf(input));
    return { organizationRole: await roleOf(ctx, input.organization, input.roleId), user: await userOf(ctx, input.user) };
  }

  @Mutation(() => UserRolePayload, { nullable: true, description: 'Revokes every role from a user.' })
  async revokeAllOrganizationRolesFromUser(@Arg('input', { description: 'The user.' }) input: UserInput, @Ctx() ctx: GraphQLContext): Promise<UserRolePayload> {
    await ctx.services.orgRoles.revokeAllFromUser(ctx.principal, input.organization, input.user);
    return { organizationRole: null, user: await userOf(ctx, input.user) };
  }
}
