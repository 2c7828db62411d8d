import type { OsvAffectedVersions, OsvEvent, OsvRange } from './osv-range.types';
import { BEFORE_EVERY_VERSION, toOsvEvent } from './osv-range.types';
import { readRangeEvents } from './range-events';
import type { Ecosystem } from './version-scheme';

// The original (the GitHub Advisory Database) states one interval per vulnerability:
// `vulnerable_version_range` is ">= A, < B", "< B", "<= B", ">= A, <= B", ">= A" or "= A"
// (comma = and), `first_patched_version` the fix of that interval. Its OSV export writes each
// such vulnerability as its own affected entry with one introduced/fixed (or last_affected)
// pair; "= A" becomes introduced A plus `versions: [A]`; a "< B" without a patched version keeps
// no fixed event but `database_specific.last_known_affected_version_range`. An OSV range of
// another source may hold several pairs: each interval is rendered as its own vulnerability.

/** One vulnerable interval of a range: its bounds as OSV events, in order. */
export interface VulnerableInterval {
  readonly introduced: string;
  readonly fixed?: string;
  readonly lastAffected?: string;
}

export interface RenderedVulnerability {
  readonly vulnerableVersionRange: string;
  readonly firstPatchedVersion: string | null;
  /** The interval's events, kept for matching. */
  readonly events: readonly OsvEvent[];
}

/** Pairs a range's sorted events into intervals (a second introduced inside an open interval adds nothing). */
export function intervalsOf(ecosystem: Ecosystem, range: OsvRange): VulnerableInterval[] | undefined {
  const reading = readRangeEvents(ecosystem, range);
  if (!reading.ok) return undefined;
  const intervals: VulnerableInterval[] = [];
  let open: string | undefined;
  for (const event of reading.events) {
    if (event.kind === 'introduced') {
      open ??= event.version;
    } else if (open !== undefined && (event.kind === 'fixed' || event.kind === 'last_affected')) {
      intervals.push(event.kind === 'fixed' ? { introduced: open, fixed: event.version } : { introduced: open, lastAffected: event.version });
      open = undefined;
    }
  }
  if (open !== undefined) intervals.push({ introduced: open });
  return intervals;
}

/**
 * The original's range text. `lastKnownAffected` is the GitHub export's
 * `database_specific.last_known_affected_version_range` ("< 1.2.3", "<= 1.2.3"), the upper
 * bound of an interval that has no fix.
 */
export function renderInterval(interval: VulnerableInterval, lastKnownAffected?: string): string {
  const isFromStart = interval.introduced === BEFORE_EVERY_VERSION;
  if (interval.lastAffected !== undefined && interval.lastAffected === interval.introduced) return `= ${interval.introduced}`;
  const upper = interval.fixed !== undefined ? `< ${interval.fixed}` : interval.lastAffected !== undefined ? `<= ${interval.lastAffected}` : lastKnownAffected?.trim();
  if (upper === undefined || upper === '') return `>= ${interval.introduced}`;
  return isFromStart ? upper : `>= ${interval.introduced}, ${upper}`;
}

function eventsOf(interval: VulnerableInterval): OsvEvent[] {
  const events: OsvEvent[] = [toOsvEvent({ kind: 'introduced', version: interval.introduced })];
  if (interval.fixed !== undefined) events.push(toOsvEvent({ kind: 'fixed', version: interval.fixed }));
  if (interval.lastAffected !== undefined) events.push(toOsvEvent({ kind: 'last_affected', version: interval.lastAffected }));
  return events;
}

/**
 * The vulnerabilities one affected entry shows in the original's syntax, one per interval of
 * its SEMVER and ECOSYSTEM ranges. Ranges that cannot be read are left out (compileAffected
 * names them). An entry that lists a single version and whose only interval starts there is the
 * export of "= A". An entry with only a `versions` list shows each as "= A".
 */
export function renderAffected(ecosystem: Ecosystem, affected: OsvAffectedVersions, lastKnownAffected?: string): RenderedVulnerability[] {
  const intervals = (affected.ranges ?? []).filter((range) => range.type !== 'GIT').flatMap((range) => intervalsOf(ecosystem, range) ?? []);
  const listed = affected.versions ?? [];
  const only = intervals[0];
  if (intervals.length === 1 && only && listed.length === 1 && listed[0] === only.introduced) {
    return [{ vulnerableVersionRange: `= ${only.introduced}`, firstPatchedVersion: only.fixed ?? null, events: eventsOf(only) }];
  }
  if (intervals.length === 0) {
    return listed.map((version) => ({ vulnerableVersionRange: `= ${version}`, firstPatchedVersion: null, events: eventsOf({ introduced: version, lastAffected: version }) }));
  }
  return intervals.map((interval) => ({
    vulnerableVersionRange: renderInterval(interval, lastKnownAffected),
    firstPatchedVersion: interval.fixed ?? null,
    events: eventsOf(interval),
  }));
}
