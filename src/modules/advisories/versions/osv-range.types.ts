// The parts of an OSV `affected[]` entry that decide which versions it covers (OSV schema,
// "affected[].ranges[]" and "affected[].versions").

/** One event object as OSV writes it: exactly one of the four keys. */
export interface OsvEvent {
  readonly introduced?: string;
  readonly fixed?: string;
  readonly last_affected?: string;
  readonly limit?: string;
}

export type OsvRangeType = 'SEMVER' | 'ECOSYSTEM' | 'GIT';

export interface OsvRange {
  readonly type: OsvRangeType;
  readonly repo?: string;
  readonly events: readonly OsvEvent[];
}

export interface OsvAffectedVersions {
  readonly ranges?: readonly OsvRange[];
  readonly versions?: readonly string[];
}

export const EVENT_KINDS = ['introduced', 'fixed', 'last_affected', 'limit'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** An event reduced to its kind and version string. */
export interface RangeEvent {
  readonly kind: EventKind;
  readonly version: string;
}

/** "0" introduces before every version; a limit containing "*" is infinity. */
export const BEFORE_EVERY_VERSION = '0';

export function readEvent(event: OsvEvent): RangeEvent | undefined {
  const kinds = EVENT_KINDS.filter((kind) => typeof event[kind] === 'string');
  const kind = kinds[0];
  return kinds.length === 1 && kind !== undefined ? { kind, version: event[kind] as string } : undefined;
}

export function toOsvEvent(event: RangeEvent): OsvEvent {
  return { [event.kind]: event.version };
}
