/** The limits every caller is held to (README "Security and limits"). */
export interface RateLimitPolicy {
  /** Length of the primary window, in seconds (fixed windows aligned to the clock). */
  windowSeconds: number;
  /** Requests a user (all of their tokens together) or an installation may make per window. */
  authenticatedLimit: number;
  /** Requests per window without valid credentials, counted per client address. */
  anonymousLimit: number;
  /** Length of the write window, in seconds. */
  writeWindowSeconds: number;
  /** Writes (REST POST, PUT, PATCH, DELETE; GraphQL mutations) a caller may make per write window. */
  writeLimit: number;
  /**
   * How a write burst over the limit is answered: 422 as the spec's "endpoint has been
   * spammed", or 429, which clients such as Octokit's throttling plugin back off from.
   */
  spammedStatus: 422 | 429;
}

export const DEFAULT_RATE_LIMIT_POLICY: RateLimitPolicy = {
  windowSeconds: 3600,
  authenticatedLimit: 5000,
  anonymousLimit: 60,
  writeWindowSeconds: 60,
  writeLimit: 80,
  spammedStatus: 422,
};

/** The two counted resources, named in `x-ratelimit-resource`. */
export type RateLimitResource = 'core' | 'graphql';

/** Who a request is counted against. */
export type RateLimitCaller = { kind: 'user'; userId: number } | { kind: 'app'; tokenId: number } | { kind: 'address'; address: string };

export function callerKey(caller: RateLimitCaller): string {
  switch (caller.kind) {
    case 'user':
      return `user:${caller.userId}`;
    case 'app':
      return `app:${caller.tokenId}`;
    case 'address':
      return `ip:${caller.address}`;
  }
}
