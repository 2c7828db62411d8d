import { z } from 'zod';
import type { TimeRange } from './advisories.types';

// The date filters of the global list (`published`, `updated`, `modified`), as the original's
// search syntax writes them: a date or time, `a..b` (either end `*`), `>=a`, `<=a`, `>a`, `<a`.
// A date stands for its whole UTC day; a time for its second (timestamps are stored to the second).

export const timeFilterText = 'a date (YYYY-MM-DD) or time (ISO 8601), `a..b` (either end may be `*`), `>=a`, `<=a`, `>a` or `<a`';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

const stamp = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The span a date or time stands for: [start, end). */
function spanOf(text: string): { start: string; end: string } | undefined {
  const date = DATE.exec(text);
  if (date) {
    const ms = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    // Date.UTC rolls 2024-02-30 over into March: only a real day round-trips.
    if (Number.isNaN(ms) || stamp(ms).slice(0, 10) !== text) return undefined;
    return { start: stamp(ms), end: stamp(ms + 86_400_000) };
  }
  if (!TIME.test(text)) return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) return undefined;
  const second = Math.floor(ms / 1000) * 1000;
  return { start: stamp(second), end: stamp(second + 1000) };
}

export function parseTimeFilter(text: string): TimeRange | undefined {
  const range = /^(.+?)\.\.(.+)$/.exec(text);
  if (range) {
    const from = range[1] === '*' ? null : spanOf(range[1]!);
    const to = range[2] === '*' ? null : spanOf(range[2]!);
    if (from === undefined || to === undefined || (from === null && to === null)) return undefined;
    const result: TimeRange = {};
    if (from) result.from = from.start;
    if (to) result.until = to.end;
    return result.from !== undefined && result.until !== undefined && result.from >= result.until ? undefined : result;
  }
  const compared = /^(>=|<=|>|<)?(.+)$/.exec(text);
  const span = compared ? spanOf(compared[2]!) : undefined;
  if (!compared || !span) return undefined;
  switch (compared[1]) {
    case '>=': return { from: span.start };
    case '>': return { from: span.end };
    case '<=': return { until: span.end };
    case '<': return { until: span.start };
    default: return { from: span.start, until: span.end };
  }
}

/** A time filter's text, checked and turned into its span; a bad one names the rule. */
export const timeFilter = z.string().max(100).transform((text, ctx): TimeRange => {
  const range = parseTimeFilter(text.trim());
  if (range) return range;
  ctx.addIssue({ code: 'custom', message: `must be ${timeFilterText}` });
  return z.NEVER;
});
