import type { Executor } from '../database/transaction';
import { RateLimitedError } from '../errors/domain';
import { callerKey, type RateLimitCaller, type RateLimitPolicy, type RateLimitResource } from './rate-limit.policy';
import type { RateLimitStore } from './rate-limit.store';

/** What `x-ratelimit-*` reports after counting a request. */
export interface RateLimitState {
  resource: RateLimitResource;
  limit: number;
  used: number;
  remaining: number;
  /** Unix seconds at which the window ends and the count starts again. */
  reset: number;
}

export interface CountedRequest {
  state: RateLimitState;
  /** Set when the request is over the limit and must be refused. */
  refusal: RateLimitedError | undefined;
}

/**
 * Fixed-window rate limits whose counters live in the database, so several instances
 * over one database hold a caller to one budget. A refused request has already been
 * counted, so hammering a closed window never opens it sooner.
 */
export class RateLimiter {
  private readonly now: () => number;

  constructor(private readonly deps: { db: Executor; store: RateLimitStore; policy: RateLimitPolicy; now?: () => number }) {
    this.now = deps.now ?? (() => Date.now() / 1000);
  }

  /** Counts one request of any kind against the caller's budget for the resource. */
  async countRequest(caller: RateLimitCaller, resource: RateLimitResource): Promise<CountedRequest> {
    const { policy } = this.deps;
    const limit = caller.kind === 'address' ? policy.anonymousLimit : policy.authenticatedLimit;
    const { used, reset, retryAfter } = await this.hit(`${resource}:${callerKey(caller)}`, policy.windowSeconds);
    const state: RateLimitState = { resource, limit, used, remaining: Math.max(limit - used, 0), reset };
    if (used <= limit) return { state, refusal: undefined };
    return { state, refusal: new RateLimitedError(exhaustedMessage(caller), 'exhausted', retryAfter, true) };
  }

  /** Counts one write; a burst over the write limit is refused as "spammed". */
  async countWrite(caller: RateLimitCaller): Promise<RateLimitedError | undefined> {
    const { policy } = this.deps;
    const { used, retryAfter } = await this.hit(`write:${callerKey(caller)}`, policy.writeWindowSeconds);
    if (used <= policy.writeLimit) return undefined;
    const message = `You have exceeded a secondary rate limit: this endpoint has been spammed with more than ${policy.writeLimit} writes in ${policy.writeWindowSeconds} seconds. Please wait ${retryAfter} seconds before retrying.`;
    return new RateLimitedError(message, 'spammed', retryAfter, policy.spammedStatus === 429);
  }

  private async hit(bucket: string, windowSeconds: number): Promise<{ used: number; reset: number; retryAfter: number }> {
    const now = this.now();
    const windowStart = Math.floor(now / windowSeconds) * windowSeconds;
    const reset = windowStart + windowSeconds;
    const used = await this.deps.store.hit(this.deps.db, { bucket, windowStart, expiresAt: reset });
    // A caller's first request of a window sweeps the windows that have ended: the table
    // stays as small as the number of recent callers, with no timer in any instance.
    if (used === 1) await this.deps.store.removeExpired(this.deps.db, Math.floor(now));
    return { used, reset, retryAfter: Math.max(Math.ceil(reset - now), 1) };
  }
}

function exhaustedMessage(caller: RateLimitCaller): string {
  switch (caller.kind) {
    case 'user':
      return `API rate limit exceeded for user ID ${caller.userId}.`;
    case 'app':
      return `API rate limit exceeded for installation token ID ${caller.tokenId}.`;
    case 'address':
      return `API rate limit exceeded for ${caller.address}. (Authenticated requests get a higher rate limit.)`;
  }
}
