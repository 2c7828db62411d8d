import type { MatchableRange } from '../advisories/affects-matching';
import { matchVersion, normalizePackageName } from '../advisories/versions';
import { isEcosystem } from '../alert-engine/alert-findings';
import type { AlertRecord } from '../dependency-alerts/alerts.types';
import type { CurrentDependency } from '../dependency-graph/dependency-graph.types';
import { shortestPaths } from './shortest-paths';

// An alert's paths: from its manifest's direct dependencies to its vulnerable package, through
// the graph the repository's current snapshots carry.

/** A package on a path, as its manifest lists it. */
export type PathPackage = Pick<CurrentDependency, 'packageUrl' | 'package' | 'relationship' | 'scope'>;

/** One path through a manifest: a direct dependency first, the vulnerable package last. */
export interface DependencyPath {
  manifestPath: string;
  packages: PathPackage[];
}

/**
 * Where an alert's paths read its repository's current dependencies and its vulnerability
 * row's range: the stores (REST), or a request's loaders (GraphQL: each repository's
 * dependencies read once for all its alerts).
 */
export interface PathSources {
  currentDependencies(repoId: number): Promise<CurrentDependency[]>;
  vulnerableRange(vulnerabilityId: number): Promise<MatchableRange | undefined>;
}

/** What an alert's paths are found by: its package and its manifest. */
export type PathsAlert = Pick<AlertRecord, 'ecosystem' | 'packageName' | 'manifestPath'>;

/**
 * Whether a dependency is the alert's package as the alert engine matches them (ecosystem and
 * normalized name) at a version in its vulnerability row's range; any version of it when the
 * row is not known (an alert a world file declared).
 */
export function isAlertPackage(alert: PathsAlert, range: MatchableRange | undefined): (dependency: Pick<CurrentDependency, 'package'>) => boolean {
  const { ecosystem } = alert;
  if (!isEcosystem(ecosystem)) return () => false;
  const name = normalizePackageName(ecosystem, alert.packageName);
  return ({ package: p }) => {
    if (p.ecosystem !== ecosystem || normalizePackageName(ecosystem, p.name) !== name) return false;
    if (range === undefined) return true;
    // A version that does not parse in its ecosystem matches nothing, as for the engine.
    const match = p.version === null ? undefined : matchVersion(range.compiled, p.version);
    return match?.ok === true && match.isAffected;
  };
}

/** The dependencies of the alert's manifest that are its vulnerable package (the ends of its paths; a VEX statement's packages). */
export function alertDependencies(alert: PathsAlert, range: MatchableRange | undefined, dependencies: readonly CurrentDependency[]): CurrentDependency[] {
  const isVulnerable = isAlertPackage(alert, range);
  return dependencies.filter((d) => d.manifestPath === alert.manifestPath && isVulnerable(d));
}

/** Up to `limit` of the alert's paths, shortest first (shortest-paths.ts), from the repository's current dependencies. */
export function alertDependencyPaths(alert: PathsAlert, range: MatchableRange | undefined, dependencies: readonly CurrentDependency[], limit: number): DependencyPath[] {
  const manifest = dependencies.filter((d) => d.manifestPath === alert.manifestPath);
  return shortestPaths(manifest, isAlertPackage(alert, range), limit).map((packages) => ({ manifestPath: alert.manifestPath, packages }));
}
