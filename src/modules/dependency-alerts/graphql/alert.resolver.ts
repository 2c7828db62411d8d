import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Resolver, Root, UseMiddleware } from 'type-graphql';
import { callersOf } from '../../../operations';
import type { GraphQLContext } from '../../../graphql/context';
import { clearLoadersAfter } from '../../../graphql/loaders';
import { toConnection, type Connection } from '../../../graphql/relay';
import { encodeNodeId } from '../../../shared/node-id';
import { Enterprise, Organization, Repository, toRepository, toUser } from '../../accounts/graphql/account.types';
import { objectOf } from '../../accounts/graphql/node';
import { toSecurityAdvisory, toSecurityVulnerability } from '../../advisories/graphql/advisory.types';
import { alertUrls } from '../alerts.serializers';
import type { AlertPage } from '../alerts.service';
import { alertCursor } from '../alerts.cursors';
import type { AlertListRequest, AlertView } from '../alerts.types';
import { alertListRequestOf, alertPatchOf } from './alert.args';
import type { DismissedReason } from './alert.enums';
import {
  DependencyAlert, DependencyAlertArgs, DependencyAlertConnection, OrganizationDependencyAlertArgs, RepositoryDependencyAlertArgs,
  UpdateDependencyAlertInput, UpdateDependencyAlertPayload,
} from './alert.types';

const date = (value: string | null) => (value === null ? null : new Date(value));

/** The GraphQL shape of an alert, from the same view REST serializes. */
export function toDependencyAlert(base: string, view: AlertView): DependencyAlert {
  const rest = alertUrls(base, view);
  const { alert, advisory } = view;
  return objectOf(DependencyAlert, {
    id: encodeNodeId('DependencyAlert', alert.id),
    number: alert.number,
    state: alert.state,
    dependency: { package: { ecosystem: alert.ecosystem, name: alert.packageName }, manifestPath: alert.manifestPath, scope: alert.scope, relationship: alert.relationship },
    securityAdvisory: toSecurityAdvisory(base, advisory),
    securityVulnerability: view.vulnerability === null ? null : toSecurityVulnerability(view.vulnerability),
    url: rest.url,
    htmlUrl: rest.html_url,
    createdAt: new Date(alert.createdAt),
    updatedAt: new Date(alert.updatedAt),
    dismissedAt: date(alert.dismissedAt),
    dismissedBy: view.dismissedBy === null ? null : toUser(base, view.dismissedBy),
    dismissedReason: alert.dismissedReason as DismissedReason | null,
    dismissedComment: alert.dismissedComment,
    fixedAt: date(alert.fixedAt),
    autoDismissedAt: date(alert.autoDismissedAt),
    assignees: view.assignees.map((u) => toUser(base, u)),
    repository: toRepository(base, view.repository),
    record: alert,
  } as DependencyAlert);
}

function connection(base: string, page: AlertPage, request: AlertListRequest): Connection<DependencyAlert> {
  const items = request.perPage === 0 ? [] : page.items;
  return toConnection({ ...page, items }, (view) => alertCursor(view.alert, request.sort, request.direction), (view) => toDependencyAlert(base, view), page.total ?? items.length);
}

@Resolver(() => Organization)
export class OrganizationAlerts {
  @FieldResolver(() => DependencyAlertConnection, { nullable: true, description: `Dependency alerts of the organization's repositories (${callersOf('listOrgDependencyAlerts')}).` })
  async dependencyAlerts(@Root() org: Organization, @Args() args: OrganizationDependencyAlertArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<DependencyAlert>> {
    const request = alertListRequestOf(args);
    return connection(ctx.apiBase, await ctx.services.dependencyAlerts.listForOrg(ctx.principal, org.login, request, ctx.services.dependencyAlerts.views), request);
  }
}

@Resolver(() => Enterprise)
export class EnterpriseAlerts {
  @FieldResolver(() => DependencyAlertConnection, { nullable: true, description: 'Dependency alerts of the organizations where the caller is an owner or security manager.' })
  async dependencyAlerts(@Root() enterprise: Enterprise, @Args() args: DependencyAlertArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<DependencyAlert>> {
    const request = alertListRequestOf(args);
    return connection(ctx.apiBase, await ctx.services.dependencyAlerts.listForEnterprise(ctx.principal, enterprise.slug, request, ctx.services.dependencyAlerts.views), request);
  }
}

@Resolver(() => Repository)
export class RepositoryAlerts {
  @FieldResolver(() => DependencyAlertConnection, { nullable: true, description: 'Dependency alerts of the repository.' })
  async dependencyAlerts(@Root() repo: Repository, @Args() args: RepositoryDependencyAlertArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<DependencyAlert>> {
    const request = alertListRequestOf(args);
    const page = await ctx.services.dependencyAlerts.listForRepo(ctx.principal, repo.record.ownerLogin, repo.name, request, ctx.services.dependencyAlerts.views);
    return connection(ctx.apiBase, page, request);
  }

  @FieldResolver(() => DependencyAlert, { nullable: true, description: 'One dependency alert by number.' })
  async dependencyAlert(@Root() repo: Repository, @Arg('number', () => Int, { description: 'The alert number.' }) number: number, @Ctx() ctx: GraphQLContext): Promise<DependencyAlert> {
    return toDependencyAlert(ctx.apiBase, await ctx.services.dependencyAlerts.get(ctx.principal, repo.record.ownerLogin, repo.name, number, ctx.services.dependencyAlerts.views));
  }
}

@Resolver()
@UseMiddleware(clearLoadersAfter)
export class DependencyAlertMutations {
  @Mutation(() => UpdateDependencyAlertPayload, { nullable: true, description: 'Dismisses or reopens a dependency alert, and/or replaces its assignees.' })
  async updateDependencyAlert(@Arg('input', { description: 'What to change.' }) input: UpdateDependencyAlertInput, @Ctx() ctx: GraphQLContext): Promise<UpdateDependencyAlertPayload> {
    const patch = alertPatchOf(input);
    const view = await ctx.services.dependencyAlerts.update(ctx.principal, { owner: input.owner, repo: input.repository, number: input.number }, patch, ctx.services.dependencyAlerts.views);
    return { dependencyAlert: toDependencyAlert(ctx.apiBase, view) };
  }
}
