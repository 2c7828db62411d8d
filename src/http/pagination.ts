import type { Request, Response } from 'express';
import { z } from 'zod';
import { BadRequestError } from '../errors/domain';
import { integerString } from './params';

export const DEFAULT_PER_PAGE = 30;
export const MAX_PER_PAGE = 100;
/** Cursors this service makes are far shorter; a longer one is refused before it is decoded. */
export const MAX_CURSOR_LENGTH = 512;

const perPage = integerString({ min: 1, max: MAX_PER_PAGE }).default(DEFAULT_PER_PAGE);

/** Page-based lists (#9, #10): `page` and `per_page`. */
export const pageQuery = z.object({
  per_page: perPage,
  page: integerString({ min: 1, max: 2 ** 31 - 1 }).default(1),
});
export type PageQuery = z.output<typeof pageQuery>;

/** Cursor-based lists (#22–#25): `before`, `after`, `per_page`; `page` is refused. */
export const cursorQuery = z.object({
  per_page: perPage,
  before: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
  after: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
});
export type CursorQuery = z.output<typeof cursorQuery>;

export function rejectPageParameter(query: Record<string, unknown>): void {
  if ('page' in query) throw new BadRequestError('Pagination using the `page` parameter is not supported.');
}

function requestUrl(req: Request, res: Response): URL {
  const origin = new URL(res.locals.apiBase ?? 'http://localhost').origin;
  return new URL(req.originalUrl, origin);
}

function linkTo(base: URL, params: Record<string, string | undefined>): string {
  const url = new URL(base);
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) url.searchParams.delete(key);
    else url.searchParams.set(key, value);
  }
  return url.toString();
}

/**
 * RFC 8288, written the way the ecosystem's clients parse it: a quoted rel on every
 * link (Octokit's paginate matches `rel="next"` literally; unquoted is valid but unseen).
 */
function setLinkHeader(res: Response, links: Array<[rel: string, uri: string]>): void {
  if (links.length === 0) return;
  res.setHeader('Link', links.map(([rel, uri]) => `<${uri}>; rel="${rel}"`).join(', '));
}

/** RFC 8288 Link for a page list: prev/next/first/last as applicable, other parameters kept. */
export function setPageLinks(req: Request, res: Response, query: PageQuery, total: number): void {
  const lastPage = Math.max(1, Math.ceil(total / query.per_page));
  if (lastPage === 1 && query.page === 1) return; // everything fits in one page
  const base = requestUrl(req, res);
  const at = (page: number) => linkTo(base, { page: String(page), per_page: String(query.per_page) });
  const links: Array<[string, string]> = [];
  if (query.page > 1) links.push(['prev', at(Math.min(query.page - 1, lastPage))]);
  if (query.page < lastPage) links.push(['next', at(query.page + 1)]);
  if (query.page !== lastPage) links.push(['last', at(lastPage)]);
  if (query.page !== 1) links.push(['first', at(1)]);
  setLinkHeader(res, links);
}

/** Link for a cursor list: next/prev from the page's edge cursors, and first; never last. */
export function setCursorLinks(req: Request, res: Response, edges: { next?: string | undefined; prev?: string | undefined }): void {
  const base = requestUrl(req, res);
  const links: Array<[string, string]> = [];
  if (edges.next) links.push(['next', linkTo(base, { after: edges.next, before: undefined })]);
  if (edges.prev) links.push(['prev', linkTo(base, { before: edges.prev, after: undefined })]);
  if (edges.next || edges.prev) links.push(['first', linkTo(base, { after: undefined, before: undefined })]);
  setLinkHeader(res, links);
}

/**
 * Link for a list that pages forward only with one cursor parameter (the original's webhook
 * deliveries: `cursor`): next, and first once past the first page.
 */
export function setNextCursorLinks(req: Request, res: Response, param: string, next: string | undefined): void {
  const base = requestUrl(req, res);
  const links: Array<[string, string]> = [];
  if (next) links.push(['next', linkTo(base, { [param]: next })]);
  if (base.searchParams.has(param)) links.push(['first', linkTo(base, { [param]: undefined })]);
  setLinkHeader(res, links);
}

/** Bytes of `Link` a list answer keeps under: with its other headers, under the 16 KiB clients accept. */
const MAX_LINK_HEADER_BYTES = 12 * 1024;

/**
 * Link for a cursor list whose query is too long to repeat (src/http/query-length.ts): each URL
 * is the path with `per_page` and a cursor that carries the query. In the order given, a link
 * that would take the header past MAX_LINK_HEADER_BYTES is left out (`next` comes first).
 */
export function setCarriedCursorLinks(req: Request, res: Response, perPage: number, links: ReadonlyArray<[rel: string, param: 'after' | 'before', cursor: string]>): void {
  const base = requestUrl(req, res);
  base.search = '';
  const kept: Array<[string, string]> = [];
  let bytes = 0;
  for (const [rel, param, cursor] of links) {
    const uri = linkTo(base, { per_page: String(perPage), [param]: cursor });
    const size = uri.length + rel.length + 12;
    if (bytes + size > MAX_LINK_HEADER_BYTES) continue;
    bytes += size;
    kept.push([rel, uri]);
  }
  setLinkHeader(res, kept);
}
