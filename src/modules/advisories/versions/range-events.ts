import type { OsvRange, RangeEvent } from './osv-range.types';
import { BEFORE_EVERY_VERSION, readEvent } from './osv-range.types';
import type { Ecosystem, ParsedVersion } from './version-scheme';
import { notAVersion, parseSemver, versionParserFor, type VersionParser } from './version-schemes';

/** An event whose version is parsed; `version` undefined stands for "0" or a "*" limit. */
export interface OrderedEvent extends RangeEvent {
  readonly parsed?: ParsedVersion;
}

export type EventsReading = { readonly ok: true; readonly events: readonly OrderedEvent[] } | { readonly ok: false; readonly reason: string };

/** SEMVER ranges use SemVer precedence; ECOSYSTEM ranges the ecosystem's own order. */
export function rangeParser(ecosystem: Ecosystem, range: Pick<OsvRange, 'type'>): VersionParser {
  return range.type === 'SEMVER' ? parseSemver : versionParserFor(ecosystem);
}

function isUnbounded(event: RangeEvent): boolean {
  return (event.kind === 'introduced' && event.version === BEFORE_EVERY_VERSION) || (event.kind === 'limit' && event.version.includes('*'));
}

// At equal versions an introduction comes first, so that [X, X) is empty and [X, X] holds X.
const KIND_ORDER: Readonly<Record<RangeEvent['kind'], number>> = { introduced: 0, last_affected: 1, fixed: 2, limit: 3 };

function compareEvents(a: OrderedEvent, b: OrderedEvent): number {
  const aIsZero = a.kind === 'introduced' && a.parsed === undefined;
  const bIsZero = b.kind === 'introduced' && b.parsed === undefined;
  if (aIsZero || bIsZero) return aIsZero && bIsZero ? 0 : aIsZero ? -1 : 1;
  if (a.parsed && b.parsed) {
    const order = a.parsed.compareTo(b.parsed);
    if (order !== 0) return order;
  } else if (a.parsed || b.parsed) {
    return a.parsed ? -1 : 1; // a "*" limit sorts last
  }
  return KIND_ORDER[a.kind] - KIND_ORDER[b.kind];
}

/**
 * Reads a range's events and sorts them in the ecosystem's order (OSV's `sorted(range.events)`;
 * publishers are asked, not required, to keep them sorted). A range with a malformed event, a
 * version that does not parse or no `introduced` event cannot be evaluated: the reason says why.
 */
export function readRangeEvents(ecosystem: Ecosystem, range: OsvRange): EventsReading {
  if (!Array.isArray(range.events)) return { ok: false, reason: 'the range has no events' };
  const parse = rangeParser(ecosystem, range);
  const events: OrderedEvent[] = [];
  for (const raw of range.events) {
    const event = readEvent(raw);
    if (!event) return { ok: false, reason: `an event must have exactly one of introduced, fixed, last_affected, limit; got ${JSON.stringify(raw)}` };
    if (isUnbounded(event)) {
      events.push(event);
      continue;
    }
    const parsed = parse(event.version);
    if (!parsed) return { ok: false, reason: `${event.kind}: ${notAVersion(range.type === 'SEMVER' ? 'SemVer' : ecosystem, event.version)}` };
    events.push({ ...event, parsed });
  }
  if (!events.some((event) => event.kind === 'introduced')) return { ok: false, reason: 'the range has no introduced event' };
  return { ok: true, events: events.sort(compareEvents) };
}
