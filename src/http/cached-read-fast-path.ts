import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, Request, Response } from 'express';
import type { Services } from '../composition';
import type { DataVersionReader } from '../database/data-version';
import type { Logger } from '../logger';
import { isSupportedApiVersion } from './api-version';
import { restApiBaseOf } from './api-base';
import { identifyRequest } from './request-identity';
import { logRequest, requestIdOf } from './request-log';
import { responseCacheKey, type ResponseCache } from './response-cache';
import { sendResponse } from './send-response';

export interface CachedReadFastPathDeps {
  cache: ResponseCache;
  versions: DataVersionReader;
  at: Services['at'];
  /** Requests counted against rate limits must be counted in the database: no fast path. */
  rateLimited: boolean;
  logger: Logger;
  countRequest: (req: Request, res: Response) => void;
}

/**
 * The cached-read fast path, ahead of Express's router: a GET whose response this caller
 * was given under the current data version gets it again at once, logged and counted under
 * the route that built it, without the ~40 layers of routing and middleware that would only
 * set the headers cached with it. Anything else, or anything it cannot tell, goes the whole
 * way: rate-limited requests, bodies, other API versions, bad credentials, bad hosts. The
 * versions and the caller it identified (request-identity.ts) are not read again there.
 * It earns its place by a paired benchmark (figures in the commit that made it the fast path).
 */
export function withCachedReadsFirst(app: Express, deps: CachedReadFastPathDeps): RequestListener {
  const fastPath = cachedReadFastPath(app, deps);
  return (req, res) => {
    let served: false | Promise<boolean>;
    try {
      served = fastPath(req, res);
    } catch {
      served = false; // whatever the fast path cannot read, the whole chain answers (or refuses)
    }
    if (served === false) return app(req, res);
    served.then((done) => done || app(req, res), () => (res.headersSent ? res.destroy() : app(req, res)));
  };
}

function cachedReadFastPath(app: Express, deps: CachedReadFastPathDeps) {
  const { cache } = deps;
  const off = !cache.enabled || deps.rateLimited;
  /** False at once when the request cannot take the fast path; else whether it was served. */
  return (incoming: IncomingMessage, outgoing: ServerResponse): false | Promise<boolean> => {
    if (off || incoming.method !== 'GET') return false;
    // A body, even on a GET, is parsed (and may be refused) on the way: only bodiless requests take the fast path.
    if (incoming.headers['transfer-encoding'] !== undefined || (incoming.headers['content-length'] ?? '0') !== '0') return false;
    const [req, res] = adopt(app, incoming, outgoing);
    if (!isSupportedApiVersion(req.get('x-service-api-version'))) return false;
    const apiBase = restApiBaseOf(req);
    if (apiBase === undefined) return false;
    if (!cache.mayHold(`${apiBase}\n${req.originalUrl}`)) return false;
    return serveCached(req, res, apiBase, deps);
  };
}

async function serveCached(req: Request, res: Response, apiBase: string, deps: CachedReadFastPathDeps): Promise<boolean> {
  const identity = await identifyRequest(req, deps);
  if (identity.credentialsError) return false; // the whole chain refuses it, after counting it
  const cached = deps.cache.get(identity.versions.data, responseCacheKey(identity.principal, apiBase, req.originalUrl));
  if (!cached) return false;
  if (cached.route !== null) res.locals.routeTemplate = cached.route;
  const requestId = requestIdOf(req);
  res.setHeader('x-request-id', requestId);
  logRequest(deps.logger, req, res, requestId);
  deps.countRequest(req, res);
  sendResponse(res, 200, cached);
  return true;
}

/** What Express's own handle does before routing: its request and response, with locals. */
function adopt(app: Express, req: IncomingMessage, res: ServerResponse): [Request, Response] {
  const request = Object.setPrototypeOf(req, app.request) as Request;
  const response = Object.setPrototypeOf(res, app.response) as Response;
  request.res = response;
  response.req = request;
  request.originalUrl ??= request.url; // as Express's router sets it
  response.locals ??= Object.create(null);
  return [request, response];
}
