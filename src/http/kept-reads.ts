import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, Request, Response } from 'express';
import type { Authenticator } from '../auth/authenticator';
import type { Principal } from '../auth/principal';
import type { DataVersionReader } from '../database/data-version';
import type { Logger } from '../logger';
import { isSupportedApiVersion } from './api-version';
import { API_V3_PATH, originOf } from './api-base';
import { ifNoneMatchMatches } from './conditional';
import { authorizationOf } from './authenticate';
import { logRequest, requestIdOf } from './request-log';
import { cacheKey, endWithParts, type CachedAnswer, type ResponseCache } from './response-cache';

export interface KeptReadsDeps {
  cache: ResponseCache;
  versions: DataVersionReader;
  authenticator: Authenticator;
  /** Requests counted against rate limits must be counted in the database: the lane stays shut. */
  rateLimited: boolean;
  logger: Logger;
  countRequest: (req: Request, res: Response) => void;
}

/**
 * The repeated-read lane, ahead of Express's router: a GET whose answer this caller was
 * given under the current data version gets it again at once, logged and counted under the
 * route that built it, without the ~40 layers of routing and middleware that would only
 * set the headers kept with it. Anything else, or anything it cannot tell, goes the whole
 * way: rate-limited requests, bodies, other API versions, bad credentials, bad hosts. The
 * data version and the caller it read are left for the chain, which then reads neither again.
 */
export function withKeptReadsFirst(app: Express, deps: KeptReadsDeps): RequestListener {
  const lane = keptReadLane(app, deps);
  return (req, res) => {
    let answered: false | Promise<boolean>;
    try {
      answered = lane(req, res);
    } catch {
      answered = false; // whatever the lane cannot read, the whole chain answers (or refuses)
    }
    if (answered === false) return app(req, res);
    answered.then((done) => done || app(req, res), () => (res.headersSent ? res.destroy() : app(req, res)));
  };
}

function keptReadLane(app: Express, deps: KeptReadsDeps) {
  const { cache } = deps;
  const shut = !cache.enabled || deps.rateLimited;
  /** False at once when the request cannot take the lane; else whether it was answered. */
  return (incoming: IncomingMessage, outgoing: ServerResponse): false | Promise<boolean> => {
    if (shut || incoming.method !== 'GET') return false;
    // A body, even on a GET, is parsed (and may be refused) on the way: only bodiless requests take the lane.
    if (incoming.headers['transfer-encoding'] !== undefined || (incoming.headers['content-length'] ?? '0') !== '0') return false;
    const [req, res] = adopt(app, incoming, outgoing);
    if (!isSupportedApiVersion(req.get('x-service-api-version'))) return false;
    const origin = originOf(req);
    if (origin === undefined) return false;
    const apiBase = req.path.startsWith(`${API_V3_PATH}/`) ? `${origin}${API_V3_PATH}` : origin;
    if (!cache.mayHold(`${apiBase}\n${req.originalUrl}`)) return false;
    return answer(req, res, apiBase, deps);
  };
}

async function answer(req: Request, res: Response, apiBase: string, deps: KeptReadsDeps): Promise<boolean> {
  const versions = await deps.versions.read();
  res.locals.versions = versions;
  let principal: Principal;
  try {
    principal = await deps.authenticator.authenticate(authorizationOf(req), versions.data);
  } catch {
    return false; // the whole chain refuses it, after counting it
  }
  res.locals.principal = principal;
  const kept = deps.cache.get(versions.data, cacheKey(principal, apiBase, req.originalUrl));
  if (!kept) return false;
  if (kept.route !== null) res.locals.routeTemplate = kept.route;
  const requestId = requestIdOf(req);
  logRequest(deps.logger, req, res, requestId);
  deps.countRequest(req, res);
  writeKept(req, res, kept, requestId);
  return true;
}

/** A kept answer's headers as writeHead takes them (name, value, …): for its 200, and for its 304. */
interface HeaderLines {
  ok: Array<string | number | readonly string[]>;
  notModified: Array<string | number | readonly string[]>;
  etag: string | undefined;
}
const headerLinesOf = new WeakMap<CachedAnswer, HeaderLines>();

function headerLines(answer: CachedAnswer): HeaderLines {
  let lines = headerLinesOf.get(answer);
  if (lines) return lines;
  lines = { ok: [], notModified: [], etag: undefined };
  for (const [name, value] of answer.headers) {
    lines.ok.push(name, value);
    // A 304 carries no content headers (as Express's res.send leaves it).
    if (name !== 'content-type') lines.notModified.push(name, value);
    if (name === 'etag') lines.etag = String(value);
  }
  lines.ok.push('content-length', answer.length);
  headerLinesOf.set(answer, lines);
  return lines;
}

/**
 * Writes a kept answer as `sendAnswer` does (the request id first, the headers it was built
 * with, a 304 when If-None-Match matches its ETag), with every header in one writeHead.
 */
function writeKept(req: Request, res: Response, answer: CachedAnswer, requestId: string): void {
  const lines = headerLines(answer);
  if (ifNoneMatchMatches(req.headers['if-none-match'], lines.etag)) {
    res.writeHead(304, ['x-request-id', requestId, ...lines.notModified] as string[]);
    res.end();
    return;
  }
  res.writeHead(200, ['x-request-id', requestId, ...lines.ok] as string[]);
  endWithParts(res, answer.parts);
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
