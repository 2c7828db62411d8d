import type { Request, Response } from 'express';
import { BadRequestError } from '../../errors/domain';
import { setCarriedCursorLinks, setCursorLinks } from '../../http/pagination';
import { MAX_QUERY_BYTES, queryBytes } from '../../http/query-length';
import { carriedCursors, decodeCarriedCursor, isCarriedCursor } from './advisories.cursors';
import { ADVISORY_FILTER_PARAMETERS } from './advisories.schemas';

// The REST list's query and Link header when the query is longer than Link URLs may repeat
// (MAX_QUERY_BYTES): the URLs then hold only `per_page` and a cursor that carries the filters,
// and a request with such a cursor gets its filters back from it.

type RawQuery = Record<string, unknown>;

export interface ListQuery {
  /** The query as if the caller had sent the filters themselves. */
  query: RawQuery;
  /** The filter parameters to carry in the next Link cursors; undefined: Link repeats the query. */
  carried: Record<string, string> | undefined;
}

function filterParameters(query: RawQuery): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const key of ADVISORY_FILTER_PARAMETERS) if (typeof query[key] === 'string') kept[key] = query[key];
  return kept;
}

/** The request's query, with the filters a carried cursor holds put back in. */
export function listQueryOf(req: Request): ListQuery {
  const raw = req.query as RawQuery;
  const side = typeof raw.after === 'string' ? 'after' : typeof raw.before === 'string' ? 'before' : undefined;
  const cursor = side === undefined ? undefined : (raw[side] as string);
  if (side === undefined || cursor === undefined || !isCarriedCursor(cursor)) {
    return { query: raw, carried: queryBytes(req.originalUrl) > MAX_QUERY_BYTES ? filterParameters(raw) : undefined };
  }
  if (raw.after !== undefined && raw.before !== undefined) throw new BadRequestError('Give either `before` or `after`, not both.');
  if (ADVISORY_FILTER_PARAMETERS.some((key) => key in raw)) {
    throw new BadRequestError('This cursor carries the filters of its list: send it with `per_page` only, as its `Link` URL does.');
  }
  const { query, position } = decodeCarriedCursor(cursor);
  const expanded: RawQuery = { ...query, ...(raw.per_page === undefined ? {} : { per_page: raw.per_page }) };
  if (position !== null) expanded[side] = position;
  return { query: expanded, carried: filterParameters(query) };
}

/** Link as on the alert lists, or with cursors that carry the filters. */
export function setAdvisoryLinks(req: Request, res: Response, perPage: number, page: { next: string | undefined; prev: string | undefined }, carried: ListQuery['carried']): void {
  if (carried === undefined) {
    setCursorLinks(req, res, page);
    return;
  }
  if (!page.next && !page.prev) return;
  const carry = carriedCursors(carried);
  const links: Array<[string, 'after' | 'before', string]> = [];
  if (page.next) links.push(['next', 'after', carry(page.next)]);
  if (page.prev) links.push(['prev', 'before', carry(page.prev)]);
  links.push(['first', 'after', carry(null)]);
  setCarriedCursorLinks(req, res, perPage, links);
}
