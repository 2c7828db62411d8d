import crypto from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { VersionedCache } from '../cache/versioned-cache';
import type { Principal } from '../auth/principal';
import { routeTemplate } from './request-log';

/** A finished answer: its bytes (in parts, often shared with other answers), the headers built with them, and the route that built it. */
export interface CachedAnswer {
  parts: readonly Buffer[];
  length: number;
  /** Every header the answer carried, in order, but those that belong to one request. */
  headers: ReadonlyArray<readonly [name: string, value: string | number | readonly string[]]>;
  route: string | null;
  /** A GraphQL answer's operation name, for its metrics. */
  operation?: string | null;
}

// Headers that belong to the request, not the answer: never replayed from the cache.
// (CORS headers answer the request's Origin; they are set anew ahead of the cache.)
const PER_REQUEST_HEADERS = /^(x-request-id|x-ratelimit-.*|access-control-.*|date|connection|keep-alive|content-length|transfer-encoding)$/i;

/**
 * Finished answers of read operations, for one data version: a polling client gets the
 * same bytes (and its 304) without the page being built again. Keyed by the caller's
 * token, so no caller is ever shown an answer built for another, by the API base (URLs in
 * bodies) and by the request URL as sent (Link headers repeat its parameters).
 */
export class ResponseCache {
  private readonly answers: VersionedCache<CachedAnswer> | undefined;
  /**
   * How many kept answers each base and URL has (one per caller): a cheap "maybe" before
   * authenticating. It follows the cache's own entries, so it is bounded as they are.
   */
  private readonly urls = new Map<string, number>();

  constructor(maxBytes: number) {
    this.answers = maxBytes > 0
      ? new VersionedCache<CachedAnswer>({ maxSize: maxBytes, sizeOf: (a, key) => a.length + key.length, onRemove: (key) => this.forget(urlOf(key)) })
      : undefined;
  }

  get enabled(): boolean {
    return this.answers !== undefined;
  }

  /**
   * The answer kept under `key`. One asked for again is joined into one buffer first: its
   * parts were shared with the answers it was built beside, and a polling client is best
   * served by a single write, as a static file would be.
   */
  get(version: number, key: string): CachedAnswer | undefined {
    const answer = this.answers?.get(version, key);
    if (answer && answer.parts.length > 1) answer.parts = [Buffer.concat(answer.parts, answer.length)];
    return answer;
  }

  set(version: number, key: string, answer: CachedAnswer): void {
    if (!this.answers?.set(version, key, answer)) return;
    const url = urlOf(key);
    this.urls.set(url, (this.urls.get(url) ?? 0) + 1);
  }

  /** False when no caller has an answer kept for this base and URL (true may still miss). */
  mayHold(baseAndUrl: string): boolean {
    return this.urls.has(baseAndUrl);
  }

  private forget(url: string): void {
    const left = (this.urls.get(url) ?? 0) - 1;
    if (left > 0) this.urls.set(url, left);
    else this.urls.delete(url);
  }
}

const urlOf = (key: string) => key.slice(key.indexOf('\n') + 1);

export function cacheKey(principal: Principal | undefined, apiBase: string, originalUrl: string): string {
  const caller = !principal || principal.kind === 'anonymous' ? 'anonymous' : `token:${principal.tokenId}`;
  return `${caller}\n${apiBase}\n${originalUrl}`;
}

/**
 * Sends an answer with the headers it was built with, as Express's res.send would: a 304
 * without body or content headers when the request's ETag matches (req.fresh), headers only
 * for HEAD. The parts go to the socket corked, as one write.
 */
export function sendAnswer(res: Response, status: number, answer: CachedAnswer): void {
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  res.status(status);
  if (res.req.fresh) {
    res.status(304).removeHeader('Content-Type');
    res.removeHeader('Content-Length');
    res.end();
    return;
  }
  res.setHeader('Content-Length', answer.length);
  if (res.req.method === 'HEAD') {
    res.end();
    return;
  }
  endWithParts(res, answer.parts);
}

/** Ends a response whose headers are set with an answer's bytes: one part as is, several corked into one write. */
export function endWithParts(res: Response, parts: readonly Buffer[]): void {
  if (parts.length === 1) {
    res.end(parts[0]);
    return;
  }
  res.cork();
  for (const part of parts) res.write(part);
  res.end();
  res.uncork();
}

/**
 * The ETag of a read answered under `version` for `key` (caller, API base, URL): what the
 * cache already relies on, that these name the answer's bytes, so no page is hashed. Equal
 * in every instance over one database; any write gives every answer a new one.
 */
export function answerTag(version: number, key: string): string {
  return `W/"${crypto.createHash('sha1').update(`${version}\n${key}`).digest('base64').substring(0, 27)}"`;
}

/**
 * The answer kept under `key` (see cacheKey) for the request's data version; when there
 * is none, marks where `storeAnswer` keeps the one about to be built.
 */
export function keptOrReserve(res: Response, cache: ResponseCache, key: string): CachedAnswer | undefined {
  const version = res.locals.versions!.data;
  const answer = cache.get(version, key);
  if (!answer) res.locals.responseCacheSlot = { cache, version, key };
  return answer;
}

/**
 * Route middleware for reads: names the answer's ETag (with the cache off too, so an
 * uncached instance tags answers alike), then answers from the cache or marks where
 * `respond.ts` stores the answer the route builds. Placed after the route's own
 * header-setting middleware.
 */
export function answerFromCache(cache: ResponseCache): RequestHandler {
  return (req: Request, res: Response, next) => {
    const versions = res.locals.versions;
    if (!versions || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const key = cacheKey(res.locals.principal, res.locals.apiBase ?? '', req.originalUrl);
    res.locals.answerTag = answerTag(versions.data, key);
    if (!cache.enabled) return next();
    const answer = keptOrReserve(res, cache, key);
    if (answer) return sendAnswer(res, 200, answer);
    next();
  };
}

/** Stores a 200 answer, with the headers it carries now, where `answerFromCache` asked for it. */
export function storeAnswer(req: Request, res: Response, answer: CachedAnswer): void {
  const slot = res.locals.responseCacheSlot;
  if (!slot) return;
  const headers = res.getHeaderNames().filter((name) => !PER_REQUEST_HEADERS.test(name)).map((name) => [name, res.getHeader(name)!] as const);
  slot.cache.set(slot.version, slot.key, { ...answer, headers: headers as CachedAnswer['headers'], route: routeTemplate(req) });
}
