import type { ServerResponse } from 'node:http';
import { isNotModified } from './conditional';

/**
 * A response's bytes (in parts, often shared with other responses) and, once cached, the
 * headers it was sent with and the route that built it.
 */
export interface CachedResponse {
  parts: readonly Buffer[];
  length: number;
  /** Every header the response carried, in order, but those that belong to one request. */
  headers: ReadonlyArray<readonly [name: string, value: string | number | readonly string[]]>;
  route: string | null;
  /** A GraphQL response's operation name, for its metrics. */
  operation?: string | null;
}

/**
 * The one way a JSON body is sent, built now or taken from the response cache: with the
 * headers it carries, a 304 without body or content headers when If-None-Match matches its
 * ETag, headers only for HEAD. The parts go to the socket corked, as one write.
 */
export function sendResponse(res: ServerResponse, status: number, response: CachedResponse): void {
  for (const [name, value] of response.headers) res.setHeader(name, value);
  const etag = res.getHeader('etag');
  if (isNotModified(res.req, status, typeof etag === 'string' ? etag : undefined)) {
    res.removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.writeHead(304).end();
    return;
  }
  res.setHeader('Content-Length', response.length);
  res.writeHead(status);
  if (res.req.method === 'HEAD') res.end();
  else endWithParts(res, response.parts);
}

function endWithParts(res: ServerResponse, parts: readonly Buffer[]): void {
  if (parts.length === 1) {
    res.end(parts[0]);
    return;
  }
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
  res.uncork();
}
