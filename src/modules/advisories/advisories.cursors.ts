import zlib from 'node:zlib';
import { z } from 'zod';
import { encodeCursor, type KeysetColumn, type SortValue } from '../../database/keyset';
import { BadRequestError } from '../../errors/domain';
import type { AdvisorySort, GlobalAdvisory } from './advisories.types';

// Cursors of the global advisory list (REST Link headers and GraphQL edges alike): the sort
// value, then the id. When the query is too long to repeat in Link URLs (1,000 `affects`
// values), a cursor carries the query's filters too, compressed: the Link URL is then the
// path, `per_page` and that cursor alone.

/** Sort columns of the list query (advisories.store.ts): EPSS without a value sorts as -1, below every score. */
export const SORT_COLUMN: Record<AdvisorySort, { column: string; type: 'string' | 'number' }> = {
  published: { column: 'a.published_at', type: 'string' },
  updated: { column: 'a.updated_at', type: 'string' },
  epss_percentage: { column: 'a.epss_percentage_sort', type: 'number' },
  epss_percentile: { column: 'a.epss_percentile_sort', type: 'number' },
};

export function advisoryOrder(sort: AdvisorySort, direction: 'asc' | 'desc'): KeysetColumn[] {
  return [{ ...SORT_COLUMN[sort], direction }, { column: 'a.id', direction, type: 'integer' }];
}

/** Cursors name the order they belong to: one from another sort is refused. */
export function advisoryListName(sort: AdvisorySort, direction: 'asc' | 'desc'): string {
  return `advisories:${sort}:${direction}`;
}

/** A row of the list query's position, by the sort keys it selects (advisories.store.ts). */
export function sortValuesOf(row: Record<string, unknown>, sort: AdvisorySort): SortValue[] {
  const column = SORT_COLUMN[sort].column.slice('a.'.length);
  const value = row[column];
  return [SORT_COLUMN[sort].type === 'number' ? Number(value) : String(value), Number(row.id)];
}

/** The same keys of an advisory, as the store's SQL computes them: EPSS without a value as -1. */
function epssKey(value: string | number | null): number {
  const n = value === null ? Number.NaN : Number(value);
  return Number.isFinite(n) ? n : -1;
}

export function advisoryCursor(advisory: GlobalAdvisory, sort: AdvisorySort, direction: 'asc' | 'desc'): string {
  const key = sort === 'published' ? advisory.publishedAt : sort === 'updated' ? advisory.updatedAt
    : epssKey(sort === 'epss_percentage' ? advisory.epssPercentage : advisory.epssPercentile);
  return encodeCursor(advisoryListName(sort, direction), [key, advisory.id]);
}

// A cursor carrying its query: `q`, base64url of the deflated JSON of the filter parameters, `.`,
// and the position (a cursor as above; empty for the list's start). The filters are deflated once
// per answer and shared by its Link cursors.
const CARRIED_PREFIX = 'q';
/** Inflating is bounded: a forged cursor cannot make the server inflate more than a query could hold. */
const MAX_CARRIED_JSON_BYTES = 64 * 1024;
const carriedFilters = z.record(z.string().max(32), z.string());
const POSITION = /^[A-Za-z0-9_-]{0,512}$/;

export interface CarriedQuery {
  /** The filter parameters as the first request gave them. */
  query: Record<string, string>;
  /** The position in the list; null: its start. */
  position: string | null;
}

export function isCarriedCursor(cursor: string): boolean {
  return cursor.startsWith(CARRIED_PREFIX);
}

/** The cursors of one answer's Link header, all carrying `query`. */
export function carriedCursors(query: Record<string, string>): (position: string | null) => string {
  const filters = zlib.deflateRawSync(JSON.stringify(query), { level: 9 }).toString('base64url');
  return (position) => `${CARRIED_PREFIX}${filters}.${position ?? ''}`;
}

export function decodeCarriedCursor(cursor: string): CarriedQuery {
  const invalid = () => new BadRequestError('The cursor is not valid. Use a cursor from the Link header of this list.');
  const [filters, position, ...rest] = cursor.slice(CARRIED_PREFIX.length).split('.');
  if (filters === undefined || position === undefined || rest.length > 0 || !/^[A-Za-z0-9_-]+$/.test(filters) || !POSITION.test(position)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(zlib.inflateRawSync(Buffer.from(filters, 'base64url'), { maxOutputLength: MAX_CARRIED_JSON_BYTES }).toString('utf8'));
  } catch {
    throw invalid();
  }
  const result = carriedFilters.safeParse(parsed);
  if (!result.success) throw invalid();
  return { query: result.data, position: position === '' ? null : position };
}
