import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { Services } from '../composition';
import { BadRequestError } from '../errors/domain';
import { identifyRequest } from './request-identity';

const QUERY_TOKEN_KEYS = ['access_token', 'token'];

/**
 * The one authentication step: the data versions and the caller (request-identity.ts) →
 * res.locals. Bad credentials are only recorded here, so the request can still be counted
 * against its client address (guessing tokens spends the anonymous budget);
 * `requireValidCredentials` refuses them.
 */
export function identify(services: Pick<Services, 'at' | 'versions'>): RequestHandler {
  return async (req, res, next) => {
    const identity = await identifyRequest(req, services);
    res.locals.versions = identity.versions;
    res.locals.principal = identity.principal;
    if (identity.credentialsError) res.locals.credentialsError = identity.credentialsError;
    next();
  };
}

/**
 * The services the rest of the chain uses (res.locals.services): bound to the request's data
 * versions for reads, so they may answer from the caches; to none for writes, which must read
 * what they write.
 */
export function bindRequestServices(services: Pick<Services, 'at'>, isRead: (req: Request, res: Response) => boolean): RequestHandler {
  return (req, res, next) => {
    res.locals.services = services.at(isRead(req, res) ? res.locals.versions : undefined);
    next();
  };
}

/** Marks the POSTs that write nothing (catalogue `readsOnly`), before the rate limits and the services' binding read it. */
export function markReadsOnly(operations: ReadonlyArray<{ method: string; path: string }>): Router {
  const router = Router();
  const mark: RequestHandler = (_req, res, next) => {
    res.locals.readsOnly = true;
    next();
  };
  for (const { method, path } of operations) router[method as 'post'](path, mark);
  return router;
}

/** Tokens in URLs leak into logs and histories: refused outright. */
export function assertNoTokenInQuery(req: Request): void {
  if (QUERY_TOKEN_KEYS.some((key) => key in req.query)) {
    throw new BadRequestError('Passing an access token in the query string is not supported. Use the Authorization header.');
  }
}

/** Refuses what `identify` recorded: never a silent downgrade to anonymous. */
export const requireValidCredentials: RequestHandler = (req, res, next) => {
  assertNoTokenInQuery(req);
  if (res.locals.credentialsError) throw res.locals.credentialsError;
  const principal = res.locals.principal;
  if (principal?.kind === 'user' && principal.grant.kind === 'scopes') {
    res.setHeader('X-OAuth-Scopes', principal.grant.declared.join(', '));
  }
  next();
};

/** Two Authorization headers make a malformed request: GraphQL refuses it before Apollo, as REST does (400). */
export const refuseAmbiguousCredentials: RequestHandler = (_req, res, next) => {
  if (res.locals.credentialsError instanceof BadRequestError) throw res.locals.credentialsError;
  next();
};
