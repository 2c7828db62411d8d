import { registerEnumType } from 'type-graphql';

// GraphQL enums (UPPER_CASE) whose values are the REST vocabulary of spec §3 and §4.4.

export enum DependencyAlertState { AUTO_DISMISSED = 'auto_dismissed', DISMISSED = 'dismissed', FIXED = 'fixed', OPEN = 'open' }
export enum RequestedAlertState { DISMISSED = 'dismissed', OPEN = 'open' }
export enum DismissedReason { FIX_STARTED = 'fix_started', INACCURATE = 'inaccurate', NO_BANDWIDTH = 'no_bandwidth', NOT_USED = 'not_used', TOLERABLE_RISK = 'tolerable_risk' }
export enum DependencyRelationship { UNKNOWN = 'unknown', DIRECT = 'direct', TRANSITIVE = 'transitive', INCONCLUSIVE = 'inconclusive' }
export enum DependencyScope { DEVELOPMENT = 'development', RUNTIME = 'runtime' }
export enum ArtifactRegistry { VENDORX_ARTIFACTORY = 'vendorx-artifactory' }
export enum RuntimeRisk { CRITICAL_RESOURCE = 'critical-resource', INTERNET_EXPOSED = 'internet-exposed', SENSITIVE_DATA = 'sensitive-data', LATERAL_MOVEMENT = 'lateral-movement' }
export enum DependencyAlertSort { CREATED = 'created', UPDATED = 'updated', EPSS_PERCENTAGE = 'epss_percentage' }

registerEnumType(DependencyAlertState, { name: 'DependencyAlertState', description: 'The state of a dependency alert.' });
registerEnumType(RequestedAlertState, { name: 'RequestedDependencyAlertState', description: 'A state an update may ask for.' });
registerEnumType(DismissedReason, { name: 'DependencyAlertDismissedReason', description: 'Why an alert was dismissed.' });
registerEnumType(DependencyRelationship, { name: 'DependencyRelationship', description: 'How the vulnerable package is depended on.' });
registerEnumType(DependencyScope, { name: 'DependencyScope', description: 'Whether the dependency is used at runtime or in development.' });
registerEnumType(ArtifactRegistry, { name: 'ArtifactRegistry', description: 'An artifact registry repositories have storage records in.' });
registerEnumType(RuntimeRisk, { name: 'RuntimeRisk', description: 'A runtime risk of a repository\'s deployments.' });
registerEnumType(DependencyAlertSort, { name: 'DependencyAlertSort', description: 'What dependency alert lists are ordered by.' });

export enum DependencyAlertEventAction {
  CREATED = 'created', DISMISSED = 'dismissed', REOPENED = 'reopened', FIXED = 'fixed', REINTRODUCED = 'reintroduced',
  AUTO_DISMISSED = 'auto_dismissed', AUTO_REOPENED = 'auto_reopened', ASSIGNEES_CHANGED = 'assignees_changed',
}
registerEnumType(DependencyAlertEventAction, { name: 'DependencyAlertEventAction', description: 'What happened to a dependency alert (the action of its dependency_bot_alert webhook event).' });
