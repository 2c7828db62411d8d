import { alertSchema, alertWithRepositorySchema, dependencyPathSchema } from '../modules/dependency-alerts/alerts.responses';
import {
  DEFAULT_DEPENDENCY_PATHS, MAX_DEPENDENCY_PATHS, alertPath, enterpriseListQuery, enterprisePath, orgListQuery, orgPath, pathsQuery, repoListQuery, repoPath, updateBody,
} from '../modules/dependency-alerts/alerts.schemas';
import type { Operation } from './operation';

// Spec §4.4, #23–#27; issue 39's dependency paths, #71.

const TAG = 'dependency-alerts';

// What a caller meets beyond the schemas, shown with each operation in /docs.
const FILTERS = 'A filter given several comma-separated values matches any of them (`scope` takes one); `has` may be repeated and every value must hold; '
  + 'an invalid value answers 422 naming the parameter.';
const LIST_PAGING = 'Paged by cursor: follow the `Link` header. Paging never skips or repeats an alert, even while alerts are added. '
  + 'The `page` parameter answers 400, as does a cursor that was not issued or that belongs to another `sort` or `direction`.';

/**
 * The original's segment `dependabot` is an alias of `dependency-bot`, so its clients'
 * generated methods (`octokit.rest.dependabot.*`) reach #23–#27 with only the base URL
 * changed. Link headers and the response cache keep the segment the request used.
 */
export function bothSegments(path: string): { path: string; aliases: string[] } {
  return { path, aliases: [path.replace('/dependency-bot/', '/dependabot/')] };
}

export const DEPENDENCY_ALERT_OPERATIONS = {
  listEnterpriseDependencyAlerts: {
    number: 23, operationId: 'dependency-bot/list-alerts-for-enterprise', method: 'get', ...bothSegments('/enterprises/{enterprise}/dependency-bot/alerts'), success: 200,
    request: { params: enterprisePath, query: enterpriseListQuery },
    response: { schema: alertWithRepositorySchema, array: true },
    requirement: { target: 'enterprise', scopes: ['repo', 'security_events'], permission: null, caller: 'enterpriseMember' },
    docs: { tag: TAG, summary: 'List dependency alerts for an enterprise', pagination: 'cursor', rules: [
        'Lists the alerts of the enterprise\'s organizations where the caller is an owner or security manager; a caller who manages none gets an empty list.',
        FILTERS, LIST_PAGING,
      ] },
  },
  listOrgDependencyAlerts: {
    number: 24, operationId: 'dependency-bot/list-alerts-for-org', method: 'get', ...bothSegments('/orgs/{org}/dependency-bot/alerts'), success: 200,
    request: { params: orgPath, query: orgListQuery },
    response: { schema: alertWithRepositorySchema, array: true },
    requirement: { target: 'org', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'orgSecurityManager' },
    docs: { tag: TAG, summary: 'List dependency alerts for an organization', pagination: 'cursor', rules: [
        FILTERS,
        'Only here: `artifact_registry_url`, `artifact_registry` and `runtime_risk`, and `has=deployment`, match repositories by the storage and '
        + 'deployment records their world file declares.',
        LIST_PAGING,
        'A `public_repo` token sees only the alerts of public repositories.',
      ] },
  },
  listRepoDependencyAlerts: {
    number: 25, operationId: 'dependency-bot/list-alerts-for-repo', method: 'get', ...bothSegments('/repos/{owner}/{repo}/dependency-bot/alerts'), success: 200,
    request: { params: repoPath, query: repoListQuery },
    response: { schema: alertSchema, array: true },
    requirement: { target: 'repo', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'repoAlertManager' },
    docs: { tag: TAG, summary: 'List dependency alerts for a repository', pagination: 'cursor', rules: [FILTERS, 'Only here: `manifest` (manifest paths).', LIST_PAGING] },
  },
  getDependencyAlert: {
    number: 26, operationId: 'dependency-bot/get-alert', method: 'get', ...bothSegments('/repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}'), success: 200,
    request: { params: alertPath },
    response: { schema: alertSchema },
    requirement: { target: 'repo', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'repoAlertManager' },
    docs: { tag: TAG, summary: 'Get a dependency alert' },
  },
  updateDependencyAlert: {
    number: 27, operationId: 'dependency-bot/update-alert', method: 'patch', ...bothSegments('/repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}'), success: 200,
    request: { params: alertPath, body: updateBody },
    response: { schema: alertSchema },
    requirement: { target: 'repo', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'write'], caller: 'repoAlertManager' },
    docs: { tag: TAG, summary: 'Update a dependency alert', statuses: [409], rules: [
        'Sets `state` (`dismissed` with a `dismissed_reason`, or `open`), `assignees`, or both.',
        'Only an open alert can be dismissed, and a fixed one cannot be reopened (409).',
        'Dismissing records the time, the caller and the reason (and comment); reopening clears them.',
        '`assignees` replaces the whole set (`[]` clears it); each must be a user with access to the repository, else 422 naming the login.',
        'Unknown or read-only keys answer 422. Concurrent updates of one alert are applied one after the other, none lost.',
      ] },
  },
  listDependencyAlertPaths: {
    number: 71, operationId: 'dependency-bot/list-alert-dependency-paths', method: 'get', ...bothSegments('/repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}/paths'), success: 200,
    request: { params: alertPath, query: pathsQuery },
    response: { schema: dependencyPathSchema, array: true },
    // Who may read an alert may read how it is reached: #26's requirement.
    requirement: { target: 'repo', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'repoAlertManager' },
    docs: { tag: TAG, summary: 'List the dependency paths to an alert\'s vulnerable package', rules: [
        'Each path runs through the alert\'s manifest in the repository\'s current dependencies, as its snapshots or SBOMs give their graph: '
        + 'from a direct dependency (first) through the packages each depends on to the vulnerable package (last), no package twice. '
        + 'A vulnerable direct dependency is a path of one package; a path ends at the first vulnerable package it reaches.',
        'The vulnerable package is the alert\'s, at a version in its vulnerable range. Paths come shortest first, '
        + 'those of one length ordered by their package URLs from the first; `per_page` '
        + `(1–${MAX_DEPENDENCY_PATHS}, default ${DEFAULT_DEPENDENCY_PATHS}) bounds how many, and a search through a very dense graph may answer fewer than exist (never longer ones first).`,
        'An empty list when the snapshots carried no graph (no `dependencies`, no direct packages), or when the alert has no current dependency '
        + '(a fixed alert, or one a world file declared with no snapshot behind it). An unknown alert answers 404.',
      ] },
  },
} satisfies Record<string, Operation>;
