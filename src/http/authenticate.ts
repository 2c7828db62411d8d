import type { IncomingMessage } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { Authenticator } from '../auth/authenticator';
import type { DataVersionReader } from '../database/data-version';
import { ANONYMOUS } from '../auth/principal';
import { AuthenticationError, BadRequestError } from '../errors/domain';

const QUERY_TOKEN_KEYS = ['access_token', 'token'];

/**
 * The request's one Authorization header. Node keeps only the first of several, so they
 * are counted from the headers as sent: two name no single caller, and are refused.
 */
export function authorizationOf(req: IncomingMessage): string | undefined {
  const values = req.headersDistinct.authorization;
  if (values !== undefined && values.length > 1) {
    throw new BadRequestError('The request has more than one Authorization header. Send exactly one.');
  }
  return values?.[0];
}

/**
 * The one authentication step: Authorization header → res.locals.principal. Bad
 * credentials are only recorded here, so the request can still be counted against its
 * client address (guessing tokens spends the anonymous budget); `requireValidCredentials`
 * refuses them. It also reads the data version every cache of this request goes by.
 */
export function identify(authenticator: Authenticator, versions: DataVersionReader): RequestHandler {
  return async (req, res, next) => {
    // Read first: what this request reads from memory must belong to this version or a later one.
    // (The repeated-read lane may have read it, and identified the caller, for this same request.)
    res.locals.versions ??= await versions.read();
    try {
      res.locals.principal ??= await authenticator.authenticate(authorizationOf(req), res.locals.versions.data);
    } catch (error) {
      // Refused once counted: a bad token, or two Authorization headers.
      if (!(error instanceof AuthenticationError) && !(error instanceof BadRequestError)) throw error;
      res.locals.principal = ANONYMOUS;
      res.locals.credentialsError = error;
    }
    next();
  };
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
