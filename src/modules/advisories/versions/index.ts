// The version engine of the advisory database: per-ecosystem version order, package-name
// normalization, OSV range evaluation, and the original's range syntax both ways. Pure code.
export type { Ecosystem, ParsedVersion, VersionScheme } from './version-scheme';
export { compareVersions, parseVersion, type VersionComparison } from './version-schemes';
export { normalizePackageName } from './package-names';
export type { OsvAffectedVersions, OsvEvent, OsvRange, OsvRangeType } from './osv-range.types';
export { compileAffected, isVersionAffected, matchVersion, type CompiledAffected, type SkippedRange, type VersionMatch } from './range-evaluation';
export { intervalsOf, renderAffected, renderInterval, type RenderedVulnerability, type VulnerableInterval } from './range-rendering';
export { parseVulnerableVersionRange, type RangeParsing } from './range-parsing';
