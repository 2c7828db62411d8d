import type { MatchableRange } from '../advisories/affects-matching';
import type { AdvisoryTraits } from '../advisories/advisories.types';
import { ECOSYSTEMS } from '../advisories/ecosystems';
import { matchVersion, normalizePackageName, type Ecosystem } from '../advisories/versions';
import type { CurrentDependency } from '../dependency-graph/dependency-graph.types';
import type { EngineAlert } from './alert-engine.store';
import type { MatchableDependency } from './dependency-index.store';

// The alert engine's findings, as pure functions over plain data: which current dependencies
// fall in a vulnerable range, and which of them raise alerts, one per (advisory, package,
// manifest path).

/** A dependency in a vulnerable range: what an alert is about. */
export interface Finding {
  advisoryId: number;
  vulnerabilityId: number;
  ecosystem: Ecosystem;
  packageName: string;
  manifestPath: string;
  scope: 'runtime' | 'development';
  relationship: 'direct' | 'transitive' | 'unknown';
}

/** What makes two alerts the same finding: advisory, package (normalized), manifest path. */
function findingKey(advisoryId: number, ecosystem: Ecosystem, packageName: string, manifestPath: string): string {
  return [advisoryId, ecosystem, normalizePackageName(ecosystem, packageName), manifestPath].join('\u0000');
}

/** Whether a package's ecosystem is one advisories name (and so can be matched). */
export function isEcosystem(value: string): value is Ecosystem {
  return (ECOSYSTEMS as readonly string[]).includes(value);
}

/** An alert's finding key; '' (no finding's) when its ecosystem is none an advisory names. */
export function alertFindingKey(alert: Pick<EngineAlert, 'advisoryId' | 'ecosystem' | 'packageName' | 'manifestPath'>): string {
  return isEcosystem(alert.ecosystem) ? findingKey(alert.advisoryId, alert.ecosystem, alert.packageName, alert.manifestPath) : '';
}

const RELATIONSHIPS = { direct: 'direct', indirect: 'transitive', unknown: 'unknown' } as const;

const packageKeyOf = (ecosystem: string, normalizedName: string) => `${ecosystem}\u0000${normalizedName}`;

/** Vulnerability row ids by package (ecosystem and normalized name), ascending. */
export function rowIdsByPackage(rows: ReadonlyArray<{ id: number; ecosystem: string; packageKey: string }>): Map<string, number[]> {
  const byPackage = new Map<string, number[]>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    const key = packageKeyOf(row.ecosystem, row.packageKey);
    (byPackage.get(key) ?? byPackage.set(key, []).get(key)!).push(row.id);
  }
  return byPackage;
}

/** The dependencies that can match: an advisory ecosystem and a version. */
export function matchable(dependencies: ReadonlyArray<Omit<CurrentDependency, 'id'>>): MatchableDependency[] {
  return dependencies.flatMap((d) => {
    const { ecosystem, version, name } = d.package;
    return ecosystem !== null && version !== null && isEcosystem(ecosystem)
      ? [{ ecosystem, normalizedName: normalizePackageName(ecosystem, name), packageName: name, version, manifestPath: d.manifestPath, scope: d.scope, relationship: d.relationship }]
      : [];
  });
}

/**
 * The dependencies that fall in a vulnerable range of the rows of their package (`rowsByPackage`,
 * from rowIdsByPackage), in dependency then row order.
 */
export function matchFindings(dependencies: readonly MatchableDependency[], rowsByPackage: ReadonlyMap<string, readonly number[]>, ranges: ReadonlyMap<number, MatchableRange>): Finding[] {
  const found: Finding[] = [];
  for (const d of dependencies) {
    const { ecosystem, version } = d;
    for (const rowId of rowsByPackage.get(packageKeyOf(ecosystem, d.normalizedName)) ?? []) {
      const range = ranges.get(rowId);
      // A version that does not parse in its ecosystem matches nothing.
      const match = range?.compiled === undefined ? undefined : matchVersion(range.compiled, version);
      if (!range || !match?.ok || !match.isAffected) continue;
      found.push({
        advisoryId: range.advisoryId, vulnerabilityId: rowId, ecosystem, packageName: d.packageName, manifestPath: d.manifestPath,
        scope: d.scope, relationship: RELATIONSHIPS[d.relationship],
      });
    }
  }
  return found;
}

const EXPOSURE = { runtime: 0, development: 1, direct: 0, transitive: 1, unknown: 2 } as const;

/**
 * Of two findings of one key (a manifest holding the package twice), the one its alert shows:
 * the more exposed use (runtime before development, then direct before transitive), then the
 * first vulnerability row and name; never the order the dependencies were read in, which
 * differs between a snapshot's evaluation and an advisory's.
 */
export function preferred(a: Finding, b: Finding): Finding {
  const order = EXPOSURE[a.scope] - EXPOSURE[b.scope] || EXPOSURE[a.relationship] - EXPOSURE[b.relationship]
    || a.vulnerabilityId - b.vulnerabilityId || (a.packageName < b.packageName ? -1 : a.packageName > b.packageName ? 1 : 0);
  return order <= 0 ? a : b;
}

/** The findings that raise alerts (reviewed and malware advisories), one per key, in the order keys first appear. */
export function raisingFindings(matched: readonly Finding[], advisories: ReadonlyMap<number, Pick<AdvisoryTraits, 'type'>>): Map<string, Finding> {
  const findings = new Map<string, Finding>();
  for (const f of matched) {
    const type = advisories.get(f.advisoryId)?.type;
    if (type !== 'reviewed' && type !== 'malware') continue;
    const key = findingKey(f.advisoryId, f.ecosystem, f.packageName, f.manifestPath);
    const held = findings.get(key);
    findings.set(key, held === undefined ? f : preferred(held, f));
  }
  return findings;
}
