import crypto from 'node:crypto';
import type { Request, Response } from 'express';
import type { Principal } from '../auth/principal';
import type { CacheBudgets } from '../cache/cache-budget';
import { VersionedCache, entryBytes } from '../cache/versioned-cache';
import type { CachedResponse } from './send-response';

/**
 * Finished responses of read operations (REST and GraphQL, one budget: RESPONSE_CACHE_MB),
 * for one data version: a polling client gets the same bytes (and its 304) without the page
 * being built again. Keyed by the caller's token, so no caller is ever shown a response
 * built for another, by the API base (URLs in bodies) and by the request as sent (Link
 * headers repeat its parameters). Read and written only through its gate (response-cache-gate.ts).
 */
export class ResponseCache {
  private readonly responses: VersionedCache<CachedResponse> | undefined;
  /**
   * How many cached responses each base and URL has (one per caller): a cheap "maybe" before
   * authenticating. It follows the cache's own entries, so it is bounded as they are.
   */
  private readonly urls = new Map<string, number>();
  private readonly asked = new RecentKeys(RECENT_KEYS);

  constructor(maxBytes: number, budgets?: CacheBudgets) {
    this.responses = maxBytes > 0
      ? new VersionedCache<CachedResponse>({
        maxSize: maxBytes, sizeOf: (r, key) => 256 + r.length + entryBytes(key), onRemove: (key) => this.forget(urlOf(key)),
        report: budgets && ((bytes) => budgets.track('responses', maxBytes, bytes)),
      })
      : undefined;
  }

  get enabled(): boolean {
    return this.responses !== undefined;
  }

  /**
   * The response cached under `key`. One asked for again is joined into one buffer first:
   * its parts were shared with the responses it was built beside, and a polling client is
   * best served by a single write, as a static file would be.
   */
  get(version: number, key: string): CachedResponse | undefined {
    const response = this.responses?.get(version, key);
    if (response && response.parts.length > 1) response.parts = [Buffer.concat(response.parts, response.length)];
    return response;
  }

  /**
   * The one write path (REST reads and GraphQL queries), through the gate (response-cache-gate.ts).
   * A response is kept from the second time it is built (`asked`): a stream of requests that
   * are never repeated (a dashboard's filters, a crawl) would otherwise fill the cache with
   * answers no one asks for again, evicting those that are, and hold their buffers.
   */
  store(version: number, key: string, response: CachedResponse): void {
    if (!this.responses || !this.asked.again(key)) return;
    if (!this.responses.set(version, key, response)) return;
    const url = urlOf(key);
    this.urls.set(url, (this.urls.get(url) ?? 0) + 1);
  }

  /** False when no caller has a response cached for this base and URL (true may still miss). */
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

/** Responses built once that the cache remembers having built (their keys, not their bytes). */
const RECENT_KEYS = 4096;

/**
 * The keys built lately, in two generations of at most `size` each (so at most 2 × size
 * keys, a few hundred kilobytes): `again` says whether a key was built before within them.
 */
class RecentKeys {
  private current = new Set<string>();
  private previous = new Set<string>();

  constructor(private readonly size: number) {}

  again(key: string): boolean {
    if (this.current.has(key) || this.previous.has(key)) return true;
    if (this.current.size >= this.size) {
      this.previous = this.current;
      this.current = new Set();
    }
    this.current.add(key);
    return false;
  }
}

/** The cache key: caller, API base, and the request as sent (a URL, or a GraphQL body). */
export function responseCacheKey(principal: Principal | undefined, apiBase: string, request: string): string {
  const caller = !principal || principal.kind === 'anonymous' ? 'anonymous' : `token:${principal.tokenId}`;
  return `${caller}\n${apiBase}\n${request}`;
}

/**
 * The cache key of a REST read (a GET or HEAD of a spec operation, under the versions the
 * request read), or undefined for anything else. With the cache off too: it also names
 * the read's ETag.
 */
export function restReadKey(req: Request, res: Response): string | undefined {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || !res.locals.versions || !res.locals.operation) return undefined;
  return responseCacheKey(res.locals.principal, res.locals.apiBase ?? '', req.originalUrl);
}

/**
 * The ETag of a read under data version `version` for `key`: what the cache already relies
 * on, that these name the response's bytes, so no page is hashed. Equal in every instance
 * over one database; any write gives every read a new one.
 */
export function readEtag(version: number, key: string): string {
  return `W/"${crypto.createHash('sha1').update(`${version}\n${key}`).digest('base64').substring(0, 27)}"`;
}
