import type { RequestHandler } from 'express';
import { UriTooLongError } from '../errors/domain';

/**
 * Bytes of a REST request's query string, measured as `Link` URLs write it (percent-encoded
 * by URLSearchParams). List answers repeat the query in up to four `Link` URLs, and clients
 * (Node's fetch and http, so Octokit) refuse answers whose headers pass 16 KiB: at this
 * length every answer's headers stay under that.
 */
export const MAX_QUERY_BYTES = 3584;

function queryBytes(originalUrl: string): number {
  const queryAt = originalUrl.indexOf('?');
  if (queryAt === -1) return 0;
  const raw = originalUrl.slice(queryAt + 1);
  return Math.max(Buffer.byteLength(raw), new URLSearchParams(raw).toString().length);
}

/** Refuses a query string over MAX_QUERY_BYTES with 414, before anything runs. */
export const limitQueryLength: RequestHandler = (req, _res, next) => {
  const bytes = queryBytes(req.originalUrl);
  if (bytes > MAX_QUERY_BYTES) {
    throw new UriTooLongError(`The query string is ${bytes} bytes once percent-encoded; at most ${MAX_QUERY_BYTES} are accepted.`);
  }
  next();
};
