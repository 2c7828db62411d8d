import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger';
import type { Principal } from '../auth/principal';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
/** Query keys whose values are secrets: refused by the API, and never written to a log. */
const SECRET_QUERY_KEY = /token|secret|password|key|code|signature/i;

/** The URL as logged: the path, and the query with every secret-looking value replaced. */
export function redactedUrl(originalUrl: string): string {
  const queryAt = originalUrl.indexOf('?');
  if (queryAt === -1) return originalUrl;
  const params = new URLSearchParams(originalUrl.slice(queryAt + 1));
  const redacted = [...params].map(([key, value]): [string, string] => [key, SECRET_QUERY_KEY.test(key) ? '[REDACTED]' : value]);
  return `${originalUrl.slice(0, queryAt)}?${new URLSearchParams(redacted).toString()}`;
}

/**
 * The route a request matched, as a template (`/orgs/:org/organization-roles`), never the
 * raw URL; a mount without routes (GraphQL) is its mount path; null when nothing matched.
 */
export function routeTemplate(req: Request): string | null {
  if (req.route) return `${req.baseUrl}${String(req.route.path)}`;
  // An answer the cached-read fast path gave names the route it was first built by.
  return req.res?.locals.routeTemplate ?? (req.baseUrl || null);
}

function principalId(principal: Principal | undefined): string {
  if (!principal || principal.kind === 'anonymous') return 'anonymous';
  return principal.kind === 'user' ? `user:${principal.userId}` : `app:${principal.tokenId}`;
}

/**
 * One structured line per request, written when the answer is finished: request id
 * (an incoming `x-request-id` is kept and echoed), method, route template, status,
 * duration and principal. Never a header or a token.
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    logRequest(logger, req, res, requestId);
    next();
  };
}

/** The request's id: the incoming `x-request-id` when it is a sane one, else a new UUID. */
export function requestIdOf(req: Request): string {
  const incoming = req.get('x-request-id');
  return incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** Writes the request's line once it is answered (also for answers given before Express routes them). */
export function logRequest(logger: Logger, req: Request, res: Response, requestId: string): void {
  // Below the info level nothing is written: no listener, no line built.
  if (!logger.isLevelEnabled('info')) return;
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const route = routeTemplate(req);
    logger.info({
      requestId,
      method: req.method,
      route,
      url: redactedUrl(req.originalUrl),
      status: res.statusCode,
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      principal: principalId(res.locals.principal),
    }, 'request');
  });
}
