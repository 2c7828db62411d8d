import type { OsvEvent } from './osv-range.types';
import { BEFORE_EVERY_VERSION } from './osv-range.types';
import type { Ecosystem } from './version-scheme';
import { notAVersion, parseVersion } from './version-schemes';

// World files state ranges in the original's syntax ("= 1.2.3", "< 1.2.3", "<= 1.2.3",
// ">= 1.0.0, < 1.2.3", ">= 1.0.0"; comma = and). They become the OSV events rendering would
// produce, so that both kinds of advisory are matched by one evaluation.

export type RangeParsing = { readonly ok: true; readonly events: readonly OsvEvent[] } | { readonly ok: false; readonly reason: string };

const CONSTRAINT = /^(>=|<=|<|=)\s*(\S+)$/;

export function parseVulnerableVersionRange(ecosystem: Ecosystem, text: string): RangeParsing {
  let lower: string | undefined;
  let upper: OsvEvent | undefined;
  let exact: string | undefined;
  const constraints = text.split(',').map((part) => part.trim());
  for (const constraint of constraints) {
    const match = CONSTRAINT.exec(constraint);
    if (!match) return { ok: false, reason: `${JSON.stringify(constraint)} is not a constraint (">= V", "< V", "<= V" or "= V")` };
    const [, operator, version] = match as unknown as [string, string, string];
    const isZero = operator === '>=' && version === BEFORE_EVERY_VERSION;
    if (!isZero && !parseVersion(ecosystem, version)) return { ok: false, reason: notAVersion(ecosystem, version) };
    if (operator === '=') exact = exact === undefined ? version : '\0';
    else if (operator === '>=') lower = lower === undefined ? version : '\0';
    else if (upper === undefined) upper = operator === '<' ? { fixed: version } : { last_affected: version };
    else return { ok: false, reason: `${JSON.stringify(text)} has more than one upper bound` };
  }
  if (exact !== undefined) {
    if (constraints.length > 1) return { ok: false, reason: `${JSON.stringify(text)}: "=" stands alone` };
    return { ok: true, events: [{ introduced: exact }, { last_affected: exact }] };
  }
  if (lower === '\0') return { ok: false, reason: `${JSON.stringify(text)} has more than one lower bound` };
  const events: OsvEvent[] = [{ introduced: lower ?? BEFORE_EVERY_VERSION }];
  if (upper) events.push(upper);
  return { ok: true, events };
}
