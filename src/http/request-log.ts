import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Logger } from '../logger';
import type { Principal } from '../auth/principal';
import { runInRequest } from '../shared/request-context';

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
  // An answer the response cache gave before routing (response-cache-gate.ts) names the route it was first built by.
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
    logRequest(logger, req, res, requestId, () => ({ route: routeTemplate(req), url: req.originalUrl, principal: res.locals.principal }));
    next();
  };
}

/**
 * Runs the rest of the request (its handlers and what they await) as part of its id, for the
 * records of the changes it makes (shared/request-context.ts). Placed after the body is read:
 * a body parser's stream callbacks do not carry an async context across.
 */
export const withinRequest: RequestHandler = (_req, res, next) => {
  const requestId = res.getHeader('x-request-id');
  if (typeof requestId === 'string') runInRequest(requestId, next);
  else next();
};

/** The request's id: the incoming `x-request-id` when it is a sane one, else a new UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** What a request's line says that Node's request does not: told once it is answered, by Express's side or the fast path. */
export interface LoggedRequest {
  route: string | null;
  /** The URL as sent (redacted here). */
  url: string;
  principal: Principal | undefined;
}

/** Writes the request's line once it is answered (also for answers given before Express routes them). */
export function logRequest(logger: Logger, req: IncomingMessage, res: ServerResponse, requestId: string, describe: () => LoggedRequest): void {
  // Below the info level nothing is written: no listener, no line built.
  if (!logger.isLevelEnabled('info')) return;
  const started = process.hrtime.bigint();
  res.once('finish', () => {
    const { route, url, principal } = describe();
    logger.info({
      requestId,
      method: req.method,
      route,
      url: redactedUrl(url),
      status: res.statusCode,
      durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      principal: principalId(principal),
    }, 'request');
  });
}
