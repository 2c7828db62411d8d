import { ecosystemOf } from './ecosystems';
import type { OsvAffected } from './osv.schema';
import type { Ecosystem, ImportedVulnerability, MappingNote, OsvRange, RenderRange } from './osv.types';

/** Ranges of one affected entry are alternatives: several render as one range string joined by this. */
export const RANGE_UNION = ' || ';

function firstFixed(ranges: readonly OsvRange[]): string | null {
  for (const range of ranges) {
    if (range.type === 'GIT') continue; // a commit, not a version
    for (const event of range.events) if ('fixed' in event) return event.fixed;
  }
  return null;
}

function stringsAt(source: Record<string, unknown> | undefined, key: string): string[] {
  const value = source?.[key];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function recordsAt(source: Record<string, unknown> | undefined, key: string): Array<Record<string, unknown>> {
  const value = source?.[key];
  return Array.isArray(value) ? value.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null) : [];
}

/**
 * The vulnerable functions the source names, where each database puts them: RustSec
 * `ecosystem_specific.affects.functions`, the Go database `ecosystem_specific.imports[].symbols`
 * (qualified by the import path), and `affected_functions` / `vulnerable_functions` lists.
 */
function vulnerableFunctions(affected: OsvAffected): string[] {
  const found: string[] = [];
  for (const source of [affected.ecosystem_specific, affected.database_specific]) {
    const affects = source?.['affects'];
    if (typeof affects === 'object' && affects !== null) found.push(...stringsAt(affects as Record<string, unknown>, 'functions'));
    for (const entry of recordsAt(source, 'imports')) {
      const path = typeof entry['path'] === 'string' ? entry['path'] : null;
      found.push(...stringsAt(entry, 'symbols').map((symbol) => (path ? `${path}.${symbol}` : symbol)));
    }
    found.push(...stringsAt(source, 'affected_functions'), ...stringsAt(source, 'vulnerable_functions'));
  }
  return [...new Set(found)];
}

function mapOne(affected: OsvAffected, ecosystem: Ecosystem, renderRange: RenderRange, notes: MappingNote[]): ImportedVulnerability | null {
  const name = affected.package.name;
  const ranges: OsvRange[] = [];
  const rendered: string[] = [];
  for (const range of affected.ranges) {
    const kept: OsvRange = { type: range.type, ...(range.repo === undefined ? {} : { repo: range.repo }), events: range.events };
    if (range.type === 'GIT') {
      ranges.push(kept); // stored, never matched (interfaces.md)
      continue;
    }
    const rendering = renderRange(ecosystem, kept.events, range.type);
    if (!rendering.ok) {
      notes.push({ kind: 'range-skipped', ecosystem, package: name, reason: rendering.reason });
      continue; // a range the version engine cannot read would match wrongly: dropped with its events
    }
    ranges.push(kept);
    rendered.push(rendering.range);
  }
  // An entry whose version ranges were all dropped and that lists no versions can match nothing.
  const hadVersionRanges = affected.ranges.some((range) => range.type !== 'GIT');
  if (hadVersionRanges && rendered.length === 0 && affected.versions.length === 0) return null;
  const range = rendered.length > 0 ? rendered.join(RANGE_UNION) : affected.versions.map((v) => `= ${v}`).join(RANGE_UNION);
  const lastKnownAffected = affected.database_specific?.['last_known_affected_version_range'];
  return {
    package: { ecosystem, name },
    vulnerableVersionRange: range,
    firstPatchedVersion: firstFixed(ranges),
    vulnerableFunctions: vulnerableFunctions(affected),
    ranges,
    versions: affected.versions,
    ...(typeof lastKnownAffected === 'string' ? { lastKnownAffectedVersionRange: lastKnownAffected } : {}),
  };
}

/** One vulnerability per affected entry of a known ecosystem; the others are noted, never guessed. */
export function mapVulnerabilities(
  affected: readonly OsvAffected[],
  renderRange: RenderRange,
  notes: MappingNote[],
): ImportedVulnerability[] {
  const vulnerabilities: ImportedVulnerability[] = [];
  for (const entry of affected) {
    const ecosystem = ecosystemOf(entry.package.ecosystem);
    if (!ecosystem) {
      notes.push({ kind: 'unknown-ecosystem', ecosystem: entry.package.ecosystem, package: entry.package.name });
      continue;
    }
    const vulnerability = mapOne(entry, ecosystem, renderRange, notes);
    if (vulnerability) vulnerabilities.push(vulnerability);
  }
  return vulnerabilities;
}
