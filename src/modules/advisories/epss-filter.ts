import { z } from 'zod';
import type { EpssFilter } from './advisories.types';

// EPSS filters (spec §4.4 `epss_percentage`, the global list's `epss_percentage` and
// `epss_percentile`): one rule for alert lists and the advisory list, on both doors.

const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)$/;
const unitNumber = (text: string) => (NUMBER.test(text) ? Number(text) : Number.NaN);
const inUnitRange = (n: number) => Number.isFinite(n) && n >= 0 && n <= 1;
const EPSS_MESSAGE = 'must be n, >n, <n, >=n, <=n or n..n with n from 0.0 to 1.0';

/** Every bound from 0.0 to 1.0, a range from its lower bound up. */
function isEpssInRange(filter: EpssFilter): boolean {
  return filter.op === 'between' ? inUnitRange(filter.from) && inUnitRange(filter.to) && filter.from <= filter.to : inUnitRange(filter.value);
}

/** An EPSS filter as GraphQL arguments give it, checked. */
export const epssFilter = z.custom<EpssFilter>().refine(isEpssInRange, EPSS_MESSAGE);

/** `n`, `>n`, `<n`, `>=n`, `<=n` or `n..n`, n from 0.0 to 1.0. */
export const epssPercentage = z.string().transform((text, ctx): EpssFilter => {
  const range = /^([^.]*\.?[^.]*)\.\.(.+)$/.exec(text);
  const match = range ? undefined : /^(>=|<=|>|<)?(.+)$/.exec(text);
  const filter: EpssFilter | undefined = range
    ? { op: 'between', from: unitNumber(range[1]!), to: unitNumber(range[2]!) }
    : match ? { op: (match[1] ?? '=') as '=' | '>' | '<' | '>=' | '<=', value: unitNumber(match[2]!) } : undefined;
  if (filter && isEpssInRange(filter)) return filter;
  ctx.addIssue({ code: 'custom', message: EPSS_MESSAGE });
  return z.NEVER;
});
