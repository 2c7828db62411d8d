import type { Request, RequestHandler, Response } from 'express';
import type { RateLimitCaller, RateLimitResource } from '../rate-limits/rate-limit.policy';
import type { RateLimiter } from '../rate-limits/rate-limiter';
import { principalOf } from './locals';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who a request is counted against: the user (all their tokens), the installation, or the client address. */
export function rateLimitCallerOf(req: Request, res: Response): RateLimitCaller {
  const principal = principalOf(res);
  if (principal.kind === 'user') return { kind: 'user', userId: principal.userId };
  if (principal.kind === 'app') return { kind: 'app', tokenId: principal.tokenId };
  return { kind: 'address', address: req.ip ?? req.socket.remoteAddress ?? 'unknown' };
}

/**
 * Counts the request and announces the caller's budget in `x-ratelimit-*` on every
 * answer; refuses it (before any route runs, so nothing changes) when over a limit.
 * REST writes (not the POSTs the catalogue marks readsOnly) also count against the write limit; GraphQL mutations are counted by
 * the GraphQL server once it knows the operation.
 */
export function rateLimit(limiter: RateLimiter | undefined, resource: RateLimitResource): RequestHandler {
  return async (req, res, next) => {
    if (!limiter) return next();
    const caller = rateLimitCallerOf(req, res);
    const { state, refusal } = await limiter.countRequest(caller, resource);
    res.setHeader('x-ratelimit-limit', String(state.limit));
    res.setHeader('x-ratelimit-remaining', String(state.remaining));
    res.setHeader('x-ratelimit-used', String(state.used));
    res.setHeader('x-ratelimit-reset', String(state.reset));
    res.setHeader('x-ratelimit-resource', state.resource);
    if (refusal) throw refusal;
    if (resource === 'core' && !SAFE_METHODS.has(req.method) && !res.locals.readsOnly) {
      const spammed = await limiter.countWrite(caller);
      if (spammed) throw spammed;
    }
    next();
  };
}
