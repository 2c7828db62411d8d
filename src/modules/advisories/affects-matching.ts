import type { BatchLookup } from '../../cache/cached-batch';
import { ECOSYSTEMS } from './ecosystems';
import type { PackageRow, StoredVulnerableRange } from './advisories.store';
import type { AffectedPackage, Ecosystem } from './advisories.types';
import { affectedVersionsOf } from './stored-vulnerabilities';
import { compileAffected, matchVersion, normalizePackageName, type CompiledAffected } from './versions';

// `affects` of the global list: which advisories affect any of the packages (at their
// versions, when given). Candidate rows are found by (ecosystem, normalized name) through the
// index; the versions are then evaluated here, by the version engine, against each row's events.

/** The asked-for versions per ecosystem and normalized package name (null: any version). */
export type AffectsQuery = Map<Ecosystem, Map<string, Set<string | null>>>;

/** A stored row ready for matching: its advisory, and its events compiled. */
export interface MatchableRange {
  advisoryId: number;
  compiled: CompiledAffected;
}

/** The packages to look for, in the ecosystem asked for, or in each one when none is. */
export function affectsQuery(affects: readonly AffectedPackage[], ecosystem: Ecosystem | undefined): AffectsQuery {
  const query: AffectsQuery = new Map();
  for (const eco of ecosystem ? [ecosystem] : ECOSYSTEMS) {
    const names = new Map<string, Set<string | null>>();
    for (const { name, version } of affects) {
      const key = normalizePackageName(eco, name);
      const versions = names.get(key) ?? new Set<string | null>();
      versions.add(version);
      names.set(key, versions);
    }
    query.set(eco, names);
  }
  return query;
}

/** The keys to look up: normalized names per ecosystem. */
export function lookupKeys(query: AffectsQuery): Map<string, string[]> {
  return new Map([...query].map(([eco, names]) => [eco, [...names.keys()]]));
}

/** A stored row prepared for matching; a world row's range text is parsed into events (stored-vulnerabilities.ts). */
function compile(row: StoredVulnerableRange): CompiledAffected {
  const ecosystem = row.ecosystem as Ecosystem;
  return compileAffected(ecosystem, affectedVersionsOf(ecosystem, { ...row.affected, vulnerableVersionRange: row.vulnerableVersionRange }));
}

/** Stored rows by id as matchable ranges (compiled once; composition.ts caches the result per reference version). */
export function matchableRanges(rangesByIds: BatchLookup<StoredVulnerableRange>): BatchLookup<MatchableRange> {
  return async (db, ids) => new Map([...(await rangesByIds(db, ids))].map(([id, row]) => [id, { advisoryId: row.advisoryId, compiled: compile(row) }]));
}

/**
 * The ids of the advisories whose rows cover an asked-for version (or the package at all).
 * A version that does not parse in a row's ecosystem matches nothing there (it was checked to
 * parse in some ecosystem when the request was validated).
 */
export function matchingAdvisoryIds(query: AffectsQuery, rows: readonly PackageRow[], ranges: ReadonlyMap<number, MatchableRange>): number[] {
  const ids = new Set<number>();
  for (const row of rows) {
    const versions = query.get(row.ecosystem as Ecosystem)?.get(row.packageKey);
    const range = ranges.get(row.id);
    if (!versions || !range || ids.has(range.advisoryId)) continue;
    if (versions.has(null)) {
      ids.add(range.advisoryId);
      continue;
    }
    for (const version of versions) {
      const match = matchVersion(range.compiled, version!);
      if (match.ok && match.isAffected) {
        ids.add(range.advisoryId);
        break;
      }
    }
  }
  return [...ids];
}
