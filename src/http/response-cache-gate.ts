import type { RequestHandler, Response } from 'express';
import type { ResponseCache } from './response-cache';
import { responseCacheKey } from './response-cache';
import { routeTemplate } from './request-log';
import { sendResponse, type CachedResponse } from './send-response';

// Headers that belong to the request, not the response: never replayed from the cache.
// (CORS headers answer the request's Origin; they are set anew ahead of the cache.)
const PER_REQUEST_HEADERS = /^(x-request-id|x-ratelimit-.*|access-control-.*|date|connection|keep-alive|content-length|transfer-encoding)$/i;

/** A response's body as the gate records it: the headers are taken from the response itself. */
export type RecordedBody = Pick<CachedResponse, 'parts' | 'length' | 'operation'>;

/**
 * The one way in and out of the response cache (response-cache.ts), built once from it (app.ts)
 * and handed to what serves and keeps answers: the cached-read fast path and the GraphQL
 * middleware look up through it, REST reads are looked up by `restReads`, and both doors record
 * through it. Nothing else reads or writes the cache.
 */
export class ResponseCacheGate {
  constructor(private readonly cache: ResponseCache) {}

  get enabled(): boolean {
    return this.cache.enabled;
  }

  /** False when no caller has a response cached for this API base and request (true may still miss): a cheap "maybe" before authenticating. */
  mayHold(apiBase: string, request: string): boolean {
    return this.cache.mayHold(`${apiBase}\n${request}`);
  }

  /** The response cached for this key (responseCacheKey) under data version `version`. */
  lookup(version: number, key: string): CachedResponse | undefined {
    return this.cache.get(version, key);
  }

  /** Keeps a 200 about to be sent (or just sent) with the headers it carries now, and the route that built it. */
  record(res: Response, version: number, key: string, body: RecordedBody): void {
    if (!this.cache.enabled) return;
    const headers = res.getHeaderNames().filter((name) => !PER_REQUEST_HEADERS.test(name)).map((name) => [name, res.getHeader(name)!] as const);
    this.cache.store(version, key, { ...body, headers: headers as CachedResponse['headers'], route: routeTemplate(res.req) });
  }

  /**
   * REST reads, once the request is identified, counted and its credentials accepted (the
   * stage the fast path skips to): a GET or HEAD this caller was answered before under this
   * data version gets the same response, logged and counted under the route that built it;
   * any other goes on to the routes, where respond.ts records its 200 through
   * `res.locals.recordRead`. Only what an operation's route recorded is found: operations
   * that may not be cached (catalogue `uncached`) never record.
   */
  readonly restReads: RequestHandler = (req, res, next) => {
    const versions = res.locals.versions;
    if (!this.enabled || (req.method !== 'GET' && req.method !== 'HEAD') || !versions) return next();
    const cached = this.lookup(versions.data, responseCacheKey(res.locals.principal, res.locals.apiBase ?? '', req.originalUrl));
    if (cached) {
      if (cached.route !== null) res.locals.routeTemplate = cached.route;
      sendResponse(res, 200, cached);
      return;
    }
    res.locals.recordRead = (key, body) => this.record(res, versions.data, key, body);
    next();
  };
}
