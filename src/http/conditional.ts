import type { IncomingMessage } from 'node:http';

// The one conditional-request (If-None-Match → 304) decision: for every body orgsec sends
// (send-response.ts: JSON, cached or built, pages, scripts, the metrics text; GraphQL's GET
// answers through graphql/conditional-get.plugin.ts).

/**
 * Whether a response of `status` carrying `etag` answers the request with a 304. Express
 * gives up when the request says `Cache-Control: no-cache`, which fetch (so Octokit) adds
 * to every conditional request; that directive is for caches on the way (RFC 9111
 * §5.2.1.4): as the origin, orgsec evaluates If-None-Match (weak comparison) regardless.
 */
export function isNotModified(req: IncomingMessage, status: number, etag: string | undefined): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  if (!((status >= 200 && status < 300) || status === 304)) return false;
  return ifNoneMatchMatches(req.headers['if-none-match'], etag);
}

/** Whether an If-None-Match header matches the ETag (weak comparison, RFC 9110 §13.1.2; `*` matches any). */
export function ifNoneMatchMatches(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!etag || !ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}
