import { alertSchema, alertWithRepositorySchema } from '../modules/dependency-alerts/alerts.responses';
import { alertPath, enterpriseListQuery, enterprisePath, orgListQuery, orgPath, repoListQuery, repoPath, updateBody } from '../modules/dependency-alerts/alerts.schemas';
import type { Operation } from './operation';

// Spec §4.4, #23–#27.

const TAG = 'dependency-alerts';

/**
 * The original's segment `dependabot` is an alias of `dependency-bot`, so its clients'
 * generated methods (`octokit.rest.dependabot.*`) reach #23–#27 with only the base URL
 * changed. Link headers and the response cache keep the segment the request used.
 */
function bothSegments(path: string): { path: string; aliases: string[] } {
  return { path, aliases: [path.replace('/dependency-bot/', '/dependabot/')] };
}

export const DEPENDENCY_ALERT_OPERATIONS = {
  listEnterpriseDependencyAlerts: {
    number: 23, operationId: 'dependency-bot/list-alerts-for-enterprise', method: 'get', ...bothSegments('/enterprises/{enterprise}/dependency-bot/alerts'), success: 200,
    request: { params: enterprisePath, query: enterpriseListQuery },
    response: { schema: alertWithRepositorySchema, array: true },
    requirement: { target: 'enterprise', scopes: ['repo', 'security_events'], permission: null, caller: 'enterpriseMember' },
    docs: { tag: TAG, summary: 'List dependency alerts for an enterprise', pagination: 'cursor' },
  },
  listOrgDependencyAlerts: {
    number: 24, operationId: 'dependency-bot/list-alerts-for-org', method: 'get', ...bothSegments('/orgs/{org}/dependency-bot/alerts'), success: 200,
    request: { params: orgPath, query: orgListQuery },
    response: { schema: alertWithRepositorySchema, array: true },
    requirement: { target: 'org', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'orgSecurityManager' },
    docs: { tag: TAG, summary: 'List dependency alerts for an organization', pagination: 'cursor' },
  },
  listRepoDependencyAlerts: {
    number: 25, operationId: 'dependency-bot/list-alerts-for-repo', method: 'get', ...bothSegments('/repos/{owner}/{repo}/dependency-bot/alerts'), success: 200,
    request: { params: repoPath, query: repoListQuery },
    response: { schema: alertSchema, array: true },
    requirement: { target: 'repo', scopes: ['security_events'], publicScopes: ['public_repo'], permission: ['dependency_alerts', 'read'], caller: 'repoAlertManager' },
    docs: { tag: TAG, summary: 'List dependency alerts for a repository', pagination: 'cursor' },
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
    docs: { tag: TAG, summary: 'Update a dependency alert', statuses: [409] },
  },
} satisfies Record<string, Operation>;
