import type { OsvEvent } from './osv-range.types';
import { BEFORE_EVERY_VERSION } from './osv-range.types';
import type { Ecosystem } from './version-scheme';
import { notAVersion, parseVersion } from './version-schemes';

// World files state ranges in the original's syntax ("= 1.2.3", "< 1.2.3", "<= 1.2.3",
// ">= 1.0.0, < 1.2.3", ">= 1.0.0"; comma = and). They become the OSV events rendering would
// produce, so that both kinds of advisory are matched by one evaluation. OSV has no event for an
// exclusive lower bound, so "> V" is refused.

export type RangeParsing = { readonly ok: true; readonly events: readonly OsvEvent[] } | { readonly ok: false; readonly reason: string };

const CONSTRAINT = /^(>=|<=|<|=)\s*(\S+)$/;

interface Constraint {
  readonly operator: '>=' | '<=' | '<' | '=';
  readonly version: string;
}

function readConstraint(ecosystem: Ecosystem, text: string): Constraint | string {
  const match = CONSTRAINT.exec(text);
  if (!match) return `${JSON.stringify(text)} is not a constraint (">= V", "< V", "<= V" or "= V")`;
  const constraint = { operator: match[1] as Constraint['operator'], version: match[2] as string };
  const isFromStart = constraint.operator === '>=' && constraint.version === BEFORE_EVERY_VERSION;
  return isFromStart || parseVersion(ecosystem, constraint.version) ? constraint : notAVersion(ecosystem, constraint.version);
}

export function parseVulnerableVersionRange(ecosystem: Ecosystem, text: string): RangeParsing {
  const constraints: Constraint[] = [];
  for (const part of text.split(',')) {
    const constraint = readConstraint(ecosystem, part.trim());
    if (typeof constraint === 'string') return { ok: false, reason: constraint };
    constraints.push(constraint);
  }
  const exact = constraints.find((constraint) => constraint.operator === '=');
  if (exact) {
    return constraints.length === 1 ? { ok: true, events: [{ introduced: exact.version }, { last_affected: exact.version }] } : { ok: false, reason: `${JSON.stringify(text)}: "=" stands alone` };
  }
  const lower = constraints.filter((constraint) => constraint.operator === '>=');
  const upper = constraints.filter((constraint) => constraint.operator !== '>=');
  if (lower.length > 1) return { ok: false, reason: `${JSON.stringify(text)} has more than one lower bound` };
  if (upper.length > 1) return { ok: false, reason: `${JSON.stringify(text)} has more than one upper bound` };
  const events: OsvEvent[] = [{ introduced: lower[0]?.version ?? BEFORE_EVERY_VERSION }];
  const bound = upper[0];
  if (bound) events.push(bound.operator === '<' ? { fixed: bound.version } : { last_affected: bound.version });
  return { ok: true, events };
}
