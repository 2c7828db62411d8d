import type { OsvAffectedVersions, OsvRange } from './osv-range.types';
import { rangeParser, readRangeEvents, type OrderedEvent } from './range-events';
import type { Ecosystem, ParsedVersion } from './version-scheme';
import { notAVersion, versionParserFor, type VersionParser } from './version-schemes';

// OSV schema, "Evaluation": a version is affected when it is in the `versions` list or in one
// of the ranges; in a range, the sorted events are walked, `introduced` turning vulnerability on
// at or after its version, `fixed` off at or after, `last_affected` off strictly after, and only
// below one of the `limit`s when there are any. GIT ranges need the commit graph: never matched.

interface CompiledRange {
  readonly parse: VersionParser;
  readonly events: readonly OrderedEvent[];
}

export interface SkippedRange {
  readonly index: number;
  readonly reason: string;
}

/** An affected entry prepared once for matching many versions. */
export interface CompiledAffected {
  readonly ecosystem: Ecosystem;
  readonly ranges: readonly CompiledRange[];
  /** The `versions` list, parsed where it parses (else matched as exact text). */
  readonly versions: ReadonlyArray<ParsedVersion | string>;
  /** Ranges that cannot be evaluated (a version that does not parse, a malformed event). */
  readonly skipped: readonly SkippedRange[];
}

export function compileAffected(ecosystem: Ecosystem, affected: OsvAffectedVersions): CompiledAffected {
  const ranges: CompiledRange[] = [];
  const skipped: SkippedRange[] = [];
  (affected.ranges ?? []).forEach((range: OsvRange, index) => {
    if (range.type === 'GIT') return;
    if (range.type !== 'SEMVER' && range.type !== 'ECOSYSTEM') {
      skipped.push({ index, reason: `unknown range type ${JSON.stringify(range.type)}` });
      return;
    }
    const reading = readRangeEvents(ecosystem, range);
    if (reading.ok) ranges.push({ parse: rangeParser(ecosystem, range), events: reading.events });
    else skipped.push({ index, reason: reading.reason });
  });
  const parse = versionParserFor(ecosystem);
  const versions = (affected.versions ?? []).map((text) => parse(text) ?? text);
  return { ecosystem, ranges, versions, skipped };
}

function isBeforeLimits(version: ParsedVersion, events: readonly OrderedEvent[]): boolean {
  const limits = events.filter((event) => event.kind === 'limit');
  return limits.length === 0 || limits.some((limit) => limit.parsed === undefined || version.compareTo(limit.parsed) < 0);
}

function isInRange(version: ParsedVersion, events: readonly OrderedEvent[]): boolean {
  if (!isBeforeLimits(version, events)) return false;
  let isVulnerable = false;
  for (const event of events) {
    // `parsed` is undefined only for "0" (introduced) and "*" (limit).
    const order = event.parsed === undefined ? 1 : version.compareTo(event.parsed);
    if (event.kind === 'introduced' && order >= 0) isVulnerable = true;
    else if (event.kind === 'fixed' && order >= 0) isVulnerable = false;
    else if (event.kind === 'last_affected' && order > 0) isVulnerable = false;
  }
  return isVulnerable;
}

function isListed(version: ParsedVersion, listed: CompiledAffected['versions']): boolean {
  return listed.some((other) => (typeof other === 'string' ? other === version.text : version.compareTo(other) === 0));
}

export type VersionMatch = { readonly ok: true; readonly isAffected: boolean } | { readonly ok: false; readonly reason: string };

/** Whether `version` (a string in the ecosystem's syntax) is covered; an unparseable one is reported. */
export function matchVersion(compiled: CompiledAffected, version: string): VersionMatch {
  const parse = versionParserFor(compiled.ecosystem);
  const inEcosystem = parse(version);
  if (!inEcosystem) return { ok: false, reason: notAVersion(compiled.ecosystem, version) };
  if (isListed(inEcosystem, compiled.versions)) return { ok: true, isAffected: true };
  for (const range of compiled.ranges) {
    const parsed = range.parse === parse ? inEcosystem : range.parse(version);
    // A version outside SemVer cannot fall in a SEMVER range.
    if (parsed && isInRange(parsed, range.events)) return { ok: true, isAffected: true };
  }
  return { ok: true, isAffected: false };
}

/** One-shot form of compileAffected + matchVersion. */
export function isVersionAffected(ecosystem: Ecosystem, affected: OsvAffectedVersions, version: string): VersionMatch {
  return matchVersion(compileAffected(ecosystem, affected), version);
}
