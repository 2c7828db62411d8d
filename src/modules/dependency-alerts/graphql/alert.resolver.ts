import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Resolver, Root } from 'type-graphql';
import type { z } from 'zod';
import { BadRequestError } from '../../../errors/domain';
import type { GraphQLContext } from '../../../graphql/context';
import { toConnection, windowOf, type Connection } from '../../../graphql/relay';
import { parseArgs } from '../../../graphql/arguments';
import { encodeNodeId } from '../../../shared/node-id';
import { Enterprise, Organization, Repository, toRepository, toUser } from '../../accounts/graphql/account.types';
import { objectOf } from '../../accounts/graphql/node';
import { ALERT_INPUT, ALERT_QUERY_INPUT, enterpriseListQuery, filtersOf, orgListQuery, repoListQuery, updateBody } from '../alerts.schemas';
import { serializeAlert } from '../alerts.serializers';
import type { AlertPage, AlertView } from '../alerts.service';
import { alertCursor } from '../alerts.store';
import type { AdvisoryRecord, AdvisoryVulnerability, AlertListRequest } from '../alerts.types';
import type { DismissedReason } from './alert.enums';
import {
  DependencyAlert, DependencyAlertArgs, DependencyAlertConnection, OrganizationDependencyAlertArgs, RepositoryDependencyAlertArgs,
  SecurityAdvisory, SecurityVulnerability, UpdateDependencyAlertInput, UpdateDependencyAlertPayload,
} from './alert.types';

const date = (value: string | null) => (value === null ? null : new Date(value));

function toVulnerability(v: AdvisoryVulnerability) {
  return {
    package: { ecosystem: v.ecosystem, name: v.packageName }, severity: v.severity, vulnerableVersionRange: v.vulnerableVersionRange,
    firstPatchedVersion: v.firstPatchedVersion,
  } as SecurityVulnerability;
}

export function toSecurityAdvisory(advisory: AdvisoryRecord): SecurityAdvisory {
  return objectOf(SecurityAdvisory, {
    id: encodeNodeId('Advisory', advisory.id), svcsaId: advisory.svcsaId, cveId: advisory.cveId, summary: advisory.summary, description: advisory.description,
    severity: advisory.severity, classification: advisory.classification,
    cvss: { vectorString: advisory.cvssVectorString, score: advisory.cvssScore ?? 0 }, cvssSeverities: advisory.cvssSeverities,
    epss: advisory.epssPercentage === null ? null : { percentage: advisory.epssPercentage, percentile: advisory.epssPercentile },
    cwes: advisory.cwes.map((c) => ({ cweId: c.cwe_id, name: c.name })), identifiers: advisory.identifiers, references: advisory.references.map((r) => r.url),
    publishedAt: new Date(advisory.publishedAt), updatedAt: new Date(advisory.updatedAt), withdrawnAt: date(advisory.withdrawnAt),
    vulnerabilities: advisory.vulnerabilities.map(toVulnerability),
  } as SecurityAdvisory);
}

/** The GraphQL shape of an alert, from the same view REST serializes. */
export function toDependencyAlert(base: string, view: AlertView): DependencyAlert {
  const rest = serializeAlert(base, view, { withRepository: false });
  const { alert, advisory } = view;
  return objectOf(DependencyAlert, {
    id: encodeNodeId('DependencyAlert', alert.id),
    number: alert.number,
    state: alert.state,
    dependency: { package: { ecosystem: alert.ecosystem, name: alert.packageName }, manifestPath: alert.manifestPath, scope: alert.scope, relationship: alert.relationship },
    securityAdvisory: toSecurityAdvisory(advisory),
    securityVulnerability: view.vulnerability === null ? null : toVulnerability(view.vulnerability),
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
  } as DependencyAlert);
}

/** A number in plain decimal notation (1e-7 → 0.0000001), as the REST expression takes it. */
function plain(n: number): string {
  return Number.isFinite(n) && Math.abs(n) < 1e21 ? n.toFixed(20).replace(/\.?0+$/, '') : String(n);
}

function epssExpression(filter: NonNullable<DependencyAlertArgs['epssPercentage']>): string {
  const given = Object.entries(filter).filter(([, v]) => v !== undefined && v !== null) as Array<[string, number]>;
  const value = Object.fromEntries(given);
  if (given.length === 2 && value.atLeast !== undefined && value.atMost !== undefined) return `${plain(value.atLeast)}..${plain(value.atMost)}`;
  if (given.length !== 1) throw new BadRequestError('epssPercentage takes one comparison, or atLeast and atMost together.');
  const [[op, n]] = given as [[string, number]];
  return `${{ equals: '', greaterThan: '>', lessThan: '<', atLeast: '>=', atMost: '<=' }[op]}${plain(n)}`;
}

/**
 * The arguments as the REST query they mean, validated by the same schema, so both doors
 * accept and refuse exactly the same lists.
 */
function listRequest<S extends z.ZodType>(schema: S, args: DependencyAlertArgs & Partial<OrganizationDependencyAlertArgs & RepositoryDependencyAlertArgs>): AlertListRequest {
  if (args.assignees && args.hasAssignee !== undefined && args.hasAssignee !== null) throw new BadRequestError('Give either assignees or hasAssignee, not both.');
  const window = windowOf(args);
  const list = (values: string[] | undefined | null) => (values && values.length > 0 ? values.join(',') : undefined);
  const has = [...(args.hasPatch ? ['patch'] : []), ...(args.hasDeployment ? ['deployment'] : [])];
  const query = Object.fromEntries(Object.entries({
    state: list(args.states), severity: list(args.severities), classification: list(args.classifications), ecosystem: list(args.ecosystems),
    package: list(args.packages), relationship: list(args.relationships), manifest: list(args.manifests),
    epss_percentage: args.epssPercentage ? epssExpression(args.epssPercentage) : undefined,
    has: has.length > 0 ? has : undefined,
    assignee: args.hasAssignee === true ? '*' : args.hasAssignee === false ? 'none' : list(args.assignees),
    scope: args.scope ?? undefined,
    artifact_registry_url: list(args.artifactRegistryUrls), artifact_registry: list(args.artifactRegistries), runtime_risk: list(args.runtimeRisks),
    sort: args.sort, direction: args.direction, per_page: String(Math.max(window.perPage, 1)),
    after: window.after, before: window.before,
  }).filter(([, v]) => v !== undefined));
  const q = parseArgs(schema, query, ALERT_QUERY_INPUT) as Parameters<typeof filtersOf>[0];
  return { filters: filtersOf(q), sort: q.sort, direction: q.direction, perPage: window.perPage, after: q.after, before: q.before, fromEnd: window.fromEnd, withTotal: true };
}

function connection(base: string, page: AlertPage, request: AlertListRequest, perPage: number): Connection<DependencyAlert> {
  const items = perPage === 0 ? [] : page.items;
  return toConnection({ ...page, items }, (view) => alertCursor(view.alert, request.sort, request.direction), (view) => toDependencyAlert(base, view), page.total ?? items.length);
}

@Resolver(() => Organization)
export class OrganizationAlerts {
  @FieldResolver(() => DependencyAlertConnection, { nullable: true, description: 'Dependency alerts of the organization\'s repositories (owners and security managers).' })
  async dependencyAlerts(@Root() org: Organization, @Args() args: OrganizationDependencyAlertArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<DependencyAlert>> {
    const request = listRequest(orgListQuery, args);
    return connection(ctx.apiBase, await ctx.services.dependencyAlerts.listForOrg(ctx.principal, org.login, request, ctx.dataVersions), request, windowOf(args).perPage);
  }
}

@Resolver(() => Enterprise)
export class EnterpriseAlerts {
  @FieldResolver(() => DependencyAlertConnection, { nullable: true, description: 'Dependency alerts of the organizations where the caller is an owner or security manager.' })
  async dependencyAlerts(@Root() enterprise: Enterprise, @Args() args: DependencyAlertArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<DependencyAlert>> {
    const request = listRequest(enterpriseListQuery, args);
    return connection(ctx.apiBase, await ctx.services.dependencyAlerts.listForEnterprise(ctx.principal, enterprise.slug, request, ctx.dataVersions), request, windowOf(args).perPage);
  }
}

@Resolver(() => Repository)
export class RepositoryAlerts {
  @FieldResolver(() => DependencyAlertConnection, { nullable: true, description: 'Dependency alerts of the repository.' })
  async dependencyAlerts(@Root() repo: Repository, @Args() args: RepositoryDependencyAlertArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<DependencyAlert>> {
    const request = listRequest(repoListQuery, args);
    const page = await ctx.services.dependencyAlerts.listForRepo(ctx.principal, repo.record.ownerLogin, repo.name, request, ctx.dataVersions);
    return connection(ctx.apiBase, page, request, windowOf(args).perPage);
  }

  @FieldResolver(() => DependencyAlert, { nullable: true, description: 'One dependency alert by number.' })
  async dependencyAlert(@Root() repo: Repository, @Arg('number', () => Int, { description: 'The alert number.' }) number: number, @Ctx() ctx: GraphQLContext): Promise<DependencyAlert> {
    return toDependencyAlert(ctx.apiBase, await ctx.services.dependencyAlerts.get(ctx.principal, repo.record.ownerLogin, repo.name, number));
  }
}

@Resolver()
export class DependencyAlertMutations {
  @Mutation(() => UpdateDependencyAlertPayload, { nullable: true, description: 'Dismisses or reopens a dependency alert, and/or replaces its assignees.' })
  async updateDependencyAlert(@Arg('input', { description: 'What to change.' }) input: UpdateDependencyAlertInput, @Ctx() ctx: GraphQLContext): Promise<UpdateDependencyAlertPayload> {
    const body = parseArgs(updateBody, Object.fromEntries(Object.entries({
      state: input.state, dismissed_reason: input.dismissedReason, dismissed_comment: input.dismissedComment, assignees: input.assignees,
    }).filter(([, v]) => v !== undefined && v !== null)), ALERT_INPUT);
    const view = await ctx.services.dependencyAlerts.update(ctx.principal, input.owner, input.repository, input.number, body);
    return { dependencyAlert: toDependencyAlert(ctx.apiBase, view) };
  }
}
