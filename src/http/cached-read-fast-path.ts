import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Services } from '../composition';
import type { DataVersionReader } from '../database/data-version';
import type { Logger } from '../logger';
import { isSupportedApiVersion } from './api-version';
import { restApiBaseOf } from './api-base';
import { identifyRequest } from './request-identity';
import { logRequest, requestIdOf } from './request-log';
import { responseCacheKey } from './response-cache';
import type { ResponseCacheGate } from './response-cache-gate';
import { sendResponse } from './send-response';

export interface CachedReadFastPathDeps {
  gate: ResponseCacheGate;
  versions: DataVersionReader;
  at: Services['at'];
  /** Requests counted against rate limits must be counted in the database: no fast path. */
  rateLimited: boolean;
  /** As the app's `trust proxy`: the API base follows X-Forwarded-Proto/-Host. */
  trustProxy: boolean;
  logger: Logger;
  countRequest: (req: IncomingMessage, res: ServerResponse, route: () => string | null) => void;
}

/**
 * The cached-read fast path, ahead of Express: a GET whose response this caller was given
 * under the current data version gets it again at once, logged and counted under the route
 * that built it, without the ~40 layers of routing and middleware that would only set the
 * headers cached with it. It works on Node's own request and response; anything else, or
 * anything it cannot tell, goes the whole way (to Express, untouched): rate-limited requests,
 * bodies, other API versions, bad credentials, bad hosts. The versions and the caller it
 * identified (request-identity.ts) are not read again there.
 * It earns its place by a paired benchmark (figures in the commit that made it the fast path).
 */
export function withCachedReadsFirst(app: RequestListener, deps: CachedReadFastPathDeps): RequestListener {
  const fastPath = cachedReadFastPath(deps);
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

function cachedReadFastPath(deps: CachedReadFastPathDeps) {
  const { gate } = deps;
  const off = !gate.enabled || deps.rateLimited;
  /** False at once when the request cannot take the fast path; else whether it was served. */
  return (req: IncomingMessage, res: ServerResponse): false | Promise<boolean> => {
    if (off || req.method !== 'GET' || req.url === undefined) return false;
    // A body, even on a GET, is parsed (and may be refused) on the way: only bodiless requests take the fast path.
    if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0') return false;
    const version = req.headers['x-service-api-version'];
    if (Array.isArray(version) || !isSupportedApiVersion(version)) return false;
    const url = req.url;
    const apiBase = restApiBaseOf(req, url, deps.trustProxy);
    if (apiBase === undefined) return false;
    if (!gate.mayHold(apiBase, url)) return false;
    return serveCached(req, res, apiBase, url, deps);
  };
}

async function serveCached(req: IncomingMessage, res: ServerResponse, apiBase: string, url: string, deps: CachedReadFastPathDeps): Promise<boolean> {
  const identity = await identifyRequest(req, deps);
  if (identity.credentialsError) return false; // the whole chain refuses it, after counting it
  const cached = deps.gate.lookup(identity.versions.data, responseCacheKey(identity.principal, apiBase, url));
  if (!cached) return false;
  const requestId = requestIdOf(req);
  res.setHeader('x-request-id', requestId);
  logRequest(deps.logger, req, res, requestId, () => ({ route: cached.route, url, principal: identity.principal }));
  deps.countRequest(req, res, () => cached.route);
  sendResponse(res, 200, cached);
  return true;
}
