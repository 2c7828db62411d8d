import { registerEnumType } from 'type-graphql';

// The advisory's GraphQL enums (UPPER_CASE), whose values are the REST vocabulary of spec §3 and the global list's.

export enum Severity { UNKNOWN = 'unknown', LOW = 'low', MEDIUM = 'medium', HIGH = 'high', CRITICAL = 'critical' }
export enum Ecosystem { COMPOSER = 'composer', GO = 'go', MAVEN = 'maven', NPM = 'npm', NUGET = 'nuget', PIP = 'pip', PUB = 'pub', RUBYGEMS = 'rubygems', RUST = 'rust' }
export enum AdvisoryClassification { GENERAL = 'general', MALWARE = 'malware' }
export enum AdvisoryType { REVIEWED = 'reviewed', UNREVIEWED = 'unreviewed', MALWARE = 'malware' }
export enum SecurityAdvisorySort { PUBLISHED = 'published', UPDATED = 'updated', EPSS_PERCENTAGE = 'epss_percentage', EPSS_PERCENTILE = 'epss_percentile' }

registerEnumType(Severity, { name: 'AdvisorySeverity', description: 'The severity of an advisory.' });
registerEnumType(Ecosystem, { name: 'PackageEcosystem', description: 'A package ecosystem.' });
registerEnumType(AdvisoryClassification, { name: 'AdvisoryClassification', description: 'The kind of advisory.' });
registerEnumType(AdvisoryType, { name: 'SecurityAdvisoryType', description: 'Reviewed, unreviewed or malware: the global advisory list\'s types.' });
registerEnumType(SecurityAdvisorySort, { name: 'SecurityAdvisorySort', description: 'What the global advisory list is ordered by.' });
