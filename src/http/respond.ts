import type { Response } from 'express';

// Express sends JSON with a weak ETag and answers If-None-Match with 304 by itself;
// responses vary on the caller (reference.md "Conditional GETs").
export function sendJson(res: Response, status: number, body: unknown): void {
  honorConditionalDespiteNoCache(res);
  res.status(status).json(body);
}

/**
 * `Cache-Control: no-cache` in a request is for caches on the way (RFC 9111 §5.2.1.4), yet
 * Express skips its If-None-Match check when it sees it, and fetch (so Octokit) adds it to
 * every conditional request. As the origin we evaluate If-None-Match regardless.
 */
function honorConditionalDespiteNoCache(res: Response): void {
  const headers = res.req.headers;
  if (headers['if-none-match'] !== undefined && headers['cache-control'] !== undefined) delete headers['cache-control'];
}

export function sendEmpty(res: Response, status: 201 | 204): void {
  res.status(status).end();
}
