import type { RequestHandler } from 'express';
import type { Authenticator } from '../auth/authenticator';
import { BadRequestError } from '../errors/domain';

const QUERY_TOKEN_KEYS = ['access_token', 'token'];

/** The one authentication step: Authorization header → res.locals.principal. */
export function authenticate(authenticator: Authenticator): RequestHandler {
  return async (req, res, next) => {
    // Tokens in URLs leak into logs and histories: refused outright.
    if (QUERY_TOKEN_KEYS.some((key) => key in req.query)) {
      throw new BadRequestError('Passing an access token in the query string is not supported. Use the Authorization header.');
    }
    const principal = await authenticator.authenticate(req.get('authorization'));
    res.locals.principal = principal;
    if (principal.kind === 'user' && principal.grant.kind === 'scopes') {
      res.setHeader('X-OAuth-Scopes', principal.grant.declared.join(', '));
    }
    next();
  };
}
