import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import cors from 'cors';

/** Which browser origins may read answers: any (`*`), a list (echoed back when listed), or none. */
export type CorsOrigins = '*' | readonly string[] | 'off';

/** Headers a page on another origin may read: what clients of the original API read. */
export const EXPOSED_HEADERS = [
  'ETag', 'Link', 'Location', 'Retry-After', 'X-OAuth-Scopes', 'X-Accepted-OAuth-Scopes', 'X-Accepted-Service-Permissions',
  'X-Service-Api-Version-Selected', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-RateLimit-Used',
  'X-RateLimit-Resource', 'X-Request-Id',
] as const;

/**
 * Headers a page may send: the API's own, conditional requests, and what Apollo's clients
 * (Sandbox, Apollo Client) add to pass its CSRF prevention and name themselves.
 */
export const ALLOWED_HEADERS = [
  'Authorization', 'Content-Type', 'Accept', 'If-Match', 'If-None-Match', 'If-Modified-Since', 'If-Unmodified-Since',
  'X-Requested-With', 'User-Agent', 'X-Service-Api-Version', 'apollo-require-preflight', 'x-apollo-operation-name',
  'apollographql-client-name', 'apollographql-client-version',
] as const;

export const ALLOWED_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

/** How long a browser may reuse a preflight's answer (as the original API: a day). */
const MAX_AGE_SECONDS = 86_400;

/**
 * Cross-origin use as the original API allows it: every answer readable from the allowed
 * origins, without credentials (the bearer header is the authentication, never a cookie),
 * and every preflight (OPTIONS) answered 204 here, before authentication or Apollo's CSRF
 * check sees it. Headers are set ahead of everything, so answers from any layer carry them.
 */
export function withCors(listener: RequestListener, origins: CorsOrigins): RequestListener {
  if (origins === 'off') return listener;
  const apply = cors({
    origin: origins === '*' ? '*' : [...origins],
    methods: [...ALLOWED_METHODS],
    allowedHeaders: [...ALLOWED_HEADERS],
    exposedHeaders: [...EXPOSED_HEADERS],
    maxAge: MAX_AGE_SECONDS,
    credentials: false,
    optionsSuccessStatus: 204,
  });
  const isAllowed = (origin: string | undefined) => origins === '*' || (origin !== undefined && origins.includes(origin));
  return (req: IncomingMessage, res: ServerResponse) => {
    // Chromium asks before a public page (Apollo's hosted Sandbox) calls a local or private
    // address; the answer is yes for allowed origins, as for any other of their requests.
    if (req.headers['access-control-request-private-network'] === 'true' && isAllowed(req.headers.origin)) {
      res.setHeader('Access-Control-Allow-Private-Network', 'true');
    }
    apply(req, res, () => listener(req, res));
  };
}
