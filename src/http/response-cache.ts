import type { Request, RequestHandler, Response } from 'express';
import { VersionedCache } from '../cache/versioned-cache';
import type { Principal } from '../auth/principal';

/** A finished 200 answer: its bytes and the headers built with them. */
export interface CachedAnswer {
  body: Buffer;
  etag: string;
  link: string | undefined;
}

/**
 * Finished answers of read operations, for one data version: a polling client gets the
 * same bytes (and its 304) without the page being built again. Keyed by the caller's
 * token, so no caller is ever shown an answer built for another, by the API base (URLs in
 * bodies) and by the request URL as sent (Link headers repeat its parameters).
 */
export class ResponseCache {
  private readonly answers: VersionedCache<CachedAnswer> | undefined;

  constructor(maxBytes: number) {
    this.answers = maxBytes > 0 ? new VersionedCache<CachedAnswer>({ maxSize: maxBytes, sizeOf: (a, key) => a.body.length + key.length }) : undefined;
  }

  get(version: number, key: string): CachedAnswer | undefined {
    return this.answers?.get(version, key);
  }

  set(version: number, key: string, answer: CachedAnswer): void {
    this.answers?.set(version, key, answer);
  }

  get enabled(): boolean {
    return this.answers !== undefined;
  }
}

function callerKey(principal: Principal | undefined): string {
  return !principal || principal.kind === 'anonymous' ? 'anonymous' : `token:${principal.tokenId}`;
}

/** Sends an answer's bytes with the headers Express would give them (a 304 when fresh). */
export function sendAnswer(res: Response, status: number, answer: CachedAnswer): void {
  res.status(status).setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('ETag', answer.etag);
  if (answer.link !== undefined) res.setHeader('Link', answer.link);
  res.send(answer.body);
}

/**
 * Route middleware for reads: answers from the cache, or marks where `respond.ts` stores
 * the answer the route builds. Placed after the route's own header-setting middleware.
 */
export function answerFromCache(cache: ResponseCache): RequestHandler {
  return (req: Request, res: Response, next) => {
    const versions = res.locals.versions;
    if (!cache.enabled || !versions || (req.method !== 'GET' && req.method !== 'HEAD')) return next();
    const key = `${callerKey(res.locals.principal)}\n${res.locals.apiBase ?? ''}\n${req.originalUrl}`;
    const answer = cache.get(versions.data, key);
    if (answer) return sendAnswer(res, 200, answer);
    res.locals.responseCacheSlot = { cache, version: versions.data, key };
    next();
  };
}

/** Stores a 200 answer where `answerFromCache` asked for it. */
export function storeAnswer(res: Response, answer: CachedAnswer): void {
  const slot = res.locals.responseCacheSlot;
  if (slot) slot.cache.set(slot.version, slot.key, answer);
}
