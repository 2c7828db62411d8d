import { BadRequestError } from '../../../errors/domain';
import { givenArgs, parseArgs } from '../../../graphql/arguments';
import { windowOf } from '../../../graphql/relay';
import { ALERT_INPUT, ALERT_QUERY_INPUT, alertListChecks, alertPatch } from '../alerts.schemas';
import { epssFilterOf } from '../../advisories/graphql/advisory.args';
import type { AlertFilters, AlertListRequest, AlertPatch } from '../alerts.types';
import type {
  DependencyAlertArgs, OrganizationDependencyAlertArgs, RepositoryDependencyAlertArgs, UpdateDependencyAlertInput,
} from './alert.types';

type AnyAlertListArgs = DependencyAlertArgs & Partial<OrganizationDependencyAlertArgs & RepositoryDependencyAlertArgs>;

/** Lists GraphQL was given empty filter nothing, as an absent REST parameter. */
const values = <T>(list: T[] | undefined | null): T[] | undefined => (list && list.length > 0 ? list : undefined);

function filtersOf(args: AnyAlertListArgs): Record<keyof AlertFilters, unknown> {
  if (args.assignees && args.hasAssignee !== undefined && args.hasAssignee !== null) throw new BadRequestError('Give either assignees or hasAssignee, not both.');
  const logins = values(args.assignees);
  return {
    state: values(args.states), severity: values(args.severities), classification: values(args.classifications), ecosystem: values(args.ecosystems),
    package: values(args.packages), relationship: values(args.relationships), manifest: values(args.manifests),
    epssPercentage: args.epssPercentage ? epssFilterOf(args.epssPercentage) : undefined,
    hasPatch: args.hasPatch ? true : undefined, hasDeployment: args.hasDeployment ? true : undefined,
    assignee: args.hasAssignee === true ? { kind: 'any' } : args.hasAssignee === false ? { kind: 'none' } : logins ? { kind: 'logins', logins } : undefined,
    scope: args.scope ?? undefined,
    artifactRegistryUrl: values(args.artifactRegistryUrls), artifactRegistry: values(args.artifactRegistries), runtimeRisk: values(args.runtimeRisks),
  };
}

/** An alert list's arguments as the domain's list request, checked by the same rules as REST's query. */
export function alertListRequestOf(args: AnyAlertListArgs): AlertListRequest {
  const window = windowOf(args);
  const { after, before, ...filters } = parseArgs(alertListChecks, givenArgs({ ...filtersOf(args), after: window.after, before: window.before }), ALERT_QUERY_INPUT);
  return { filters: givenArgs(filters), sort: args.sort, direction: args.direction, perPage: window.perPage, after, before, fromEnd: window.fromEnd, withTotal: true };
}

/** updateDependencyAlert's input as the domain's patch, checked by the same rules as REST's body. */
export function alertPatchOf(input: UpdateDependencyAlertInput): AlertPatch {
  const { state, dismissedReason, dismissedComment, assignees } = input;
  return givenArgs(parseArgs(alertPatch, givenArgs({ state, dismissedReason, dismissedComment, assignees }), ALERT_INPUT));
}
