import type { Express, Request } from 'express';

/**
 * Express decides 304s with `req.fresh`, which gives up when the request says
 * `Cache-Control: no-cache`; fetch (so Octokit) adds that to every conditional request.
 * The directive is for caches on the way (RFC 9111 §5.2.1.4): as the origin, orgsec
 * evaluates If-None-Match (weak comparison, RFC 9110 §13.1.2) regardless.
 */
export function evaluateIfNoneMatchAsOrigin(app: Express): void {
  Object.defineProperty(app.request, 'fresh', {
    configurable: true,
    enumerable: true,
    get(this: Request): boolean {
      if (this.method !== 'GET' && this.method !== 'HEAD') return false;
      const status = this.res!.statusCode;
      if (!((status >= 200 && status < 300) || status === 304)) return false;
      return ifNoneMatchMatches(this.get('If-None-Match'), this.res!.get('ETag'));
    },
  });
}

/** Whether an If-None-Match header matches the ETag (weak comparison, `*` matches any). */
export function ifNoneMatchMatches(ifNoneMatch: string | undefined, etag: string | undefined): boolean {
  if (!etag || !ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}
