import type { RequestHandler } from 'express';
import { UriTooLongError } from '../errors/domain';
import { OPERATION_LIST } from '../operations';

/**
 * Bytes of a REST request's query string, measured as `Link` URLs write it (percent-encoded
 * by URLSearchParams). List answers repeat the query in up to four `Link` URLs, and clients
 * (Node's fetch and http, so Octokit) refuse answers whose headers pass 16 KiB: at this
 * length every answer's headers stay under that.
 */
export const MAX_QUERY_BYTES = 3584;

/** Operations whose catalogue entry accepts a longer query (`maxQueryBytes`), by method and path pattern. */
const RAISED_LIMITS = OPERATION_LIST.filter((entry) => entry.maxQueryBytes !== undefined).map((entry) => ({
  method: entry.method.toUpperCase(),
  pattern: new RegExp(`^${entry.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}/?$`),
  maxBytes: entry.maxQueryBytes!,
}));

/**
 * The query limit of an operation that raises it, measured as sent: its answers never repeat a
 * query that long in `Link` URLs (their cursors carry it instead, as the global advisory list's do).
 */
function raisedLimitOf(method: string, path: string): number | undefined {
  return RAISED_LIMITS.find((raised) => (raised.method === method || (method === 'HEAD' && raised.method === 'GET')) && raised.pattern.test(path))?.maxBytes;
}

/** The query string as sent: what follows the first `?`, or '' when there is none. */
function rawQueryOf(originalUrl: string): string {
  const queryAt = originalUrl.indexOf('?');
  return queryAt === -1 ? '' : originalUrl.slice(queryAt + 1);
}

export function queryBytes(originalUrl: string): number {
  const raw = rawQueryOf(originalUrl);
  if (raw === '') return 0;
  return Math.max(Buffer.byteLength(raw), new URLSearchParams(raw).toString().length);
}

/** Refuses a query string over MAX_QUERY_BYTES (or its operation's raised limit) with 414, before anything runs. */
export const limitQueryLength: RequestHandler = (req, _res, next) => {
  const raised = raisedLimitOf(req.method, req.path);
  if (raised !== undefined) {
    const bytes = Buffer.byteLength(rawQueryOf(req.originalUrl));
    if (bytes > raised) throw new UriTooLongError(`The query string is ${bytes} bytes; at most ${raised} are accepted.`);
    next();
    return;
  }
  const bytes = queryBytes(req.originalUrl);
  if (bytes > MAX_QUERY_BYTES) {
    throw new UriTooLongError(`The query string is ${bytes} bytes once percent-encoded; at most ${MAX_QUERY_BYTES} are accepted.`);
  }
  next();
};
