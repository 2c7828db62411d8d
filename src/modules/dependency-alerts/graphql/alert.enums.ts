import { registerEnumType } from 'type-graphql';

// GraphQL enums (UPPER_CASE) whose values are the REST vocabulary of spec §3 and §4.4.

export enum DependencyAlertState { AUTO_DISMISSED = 'auto_dismissed', DISMISSED = 'dismissed', FIXED = 'fixed', OPEN = 'open' }
export enum RequestedAlertState { DISMISSED = 'dismissed', OPEN = 'open' }
export enum DismissedReason { FIX_STARTED = 'fix_started', INACCURATE = 'inaccurate', NO_BANDWIDTH = 'no_bandwidth', NOT_USED = 'not_used', TOLERABLE_RISK = 'tolerable_risk' }
export enum Severity { UNKNOWN = 'unknown', LOW = 'low', MEDIUM = 'medium', HIGH = 'high', CRITICAL = 'critical' }
export enum Ecosystem { COMPOSER = 'composer', GO = 'go', MAVEN = 'maven', NPM = 'npm', NUGET = 'nuget', PIP = 'pip', PUB = 'pub', RUBYGEMS = 'rubygems', RUST = 'rust' }
export enum DependencyRelationship { UNKNOWN = 'unknown', DIRECT = 'direct', TRANSITIVE = 'transitive', INCONCLUSIVE = 'inconclusive' }
export enum DependencyScope { DEVELOPMENT = 'development', RUNTIME = 'runtime' }
export enum AdvisoryClassification { GENERAL = 'general', MALWARE = 'malware' }
export enum AdvisoryType { REVIEWED = 'reviewed', UNREVIEWED = 'unreviewed', MALWARE = 'malware' }
export enum SecurityAdvisorySort { PUBLISHED = 'published', UPDATED = 'updated', EPSS_PERCENTAGE = 'epss_percentage', EPSS_PERCENTILE = 'epss_percentile' }
export enum ArtifactRegistry { VENDORX_ARTIFACTORY = 'vendorx-artifactory' }
export enum RuntimeRisk { CRITICAL_RESOURCE = 'critical-resource', INTERNET_EXPOSED = 'internet-exposed', SENSITIVE_DATA = 'sensitive-data', LATERAL_MOVEMENT = 'lateral-movement' }
export enum DependencyAlertSort { CREATED = 'created', UPDATED = 'updated', EPSS_PERCENTAGE = 'epss_percentage' }
export enum SortDirection { ASC = 'asc', DESC = 'desc' }

registerEnumType(DependencyAlertState, { name: 'DependencyAlertState', description: 'The state of a dependency alert.' });
registerEnumType(RequestedAlertState, { name: 'RequestedDependencyAlertState', description: 'A state an update may ask for.' });
registerEnumType(DismissedReason, { name: 'DependencyAlertDismissedReason', description: 'Why an alert was dismissed.' });
registerEnumType(Severity, { name: 'AdvisorySeverity', description: 'The severity of an advisory.' });
registerEnumType(Ecosystem, { name: 'PackageEcosystem', description: 'A package ecosystem.' });
registerEnumType(DependencyRelationship, { name: 'DependencyRelationship', description: 'How the vulnerable package is depended on.' });
registerEnumType(DependencyScope, { name: 'DependencyScope', description: 'Whether the dependency is used at runtime or in development.' });
registerEnumType(AdvisoryClassification, { name: 'AdvisoryClassification', description: 'The kind of advisory.' });
registerEnumType(AdvisoryType, { name: 'SecurityAdvisoryType', description: 'Reviewed, unreviewed or malware: the global advisory list\'s types.' });
registerEnumType(SecurityAdvisorySort, { name: 'SecurityAdvisorySort', description: 'What the global advisory list is ordered by.' });
registerEnumType(ArtifactRegistry, { name: 'ArtifactRegistry', description: 'An artifact registry repositories have storage records in.' });
registerEnumType(RuntimeRisk, { name: 'RuntimeRisk', description: 'A runtime risk of a repository\'s deployments.' });
registerEnumType(DependencyAlertSort, { name: 'DependencyAlertSort', description: 'What dependency alert lists are ordered by.' });
registerEnumType(SortDirection, { name: 'SortDirection', description: 'Ascending or descending.' });
