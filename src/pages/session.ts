import type { Request, RequestHandler, Response } from 'express';
import type { Principal } from '../auth/principal';
import { AuthenticationError } from '../errors/domain';
import { servicesOf } from '../http/locals';

// The pages' one extra credential: a browser cannot send a bearer header, so the sign-in page
// keeps the token in a cookie. Only the pages read it. The API and GraphQL authenticate the
// Authorization header alone (http/request-identity.ts), so a request another site makes a
// browser send, with the cookie riding along, reaches them anonymous.

export const SESSION_COOKIE = 'orgsec_session';

/** The session cookie's value, if the request carries one. */
export function sessionTokenOf(req: Request): string | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const at = pair.indexOf('=');
    if (at < 0 || pair.slice(0, at).trim() !== SESSION_COOKIE) continue;
    try {
      return decodeURIComponent(pair.slice(at + 1).trim()) || undefined;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** HttpOnly (no script reads it), SameSite=Strict (no other site's request carries it), Secure over https. */
const cookieOptions = (req: Request) => ({ httpOnly: true, sameSite: 'strict' as const, secure: req.secure, path: '/' });

export function setSessionCookie(req: Request, res: Response, token: string): void {
  res.cookie(SESSION_COOKIE, token, cookieOptions(req));
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req));
}

/** A token as the API checks a bearer header: the authenticator's one rule. Throws AuthenticationError when it does not authenticate. */
export function authenticateToken(res: Response, token: string): Promise<Principal> {
  return servicesOf(res).authenticator.authenticate(`Bearer ${token}`);
}

/**
 * Who a page is for: the API chain has already authenticated the Authorization header (and
 * refused a bad one); without one, the session cookie's token. A cookie whose token no longer
 * authenticates (revoked, expired) is dropped, and the visitor reads as anonymous.
 */
export const identifyVisitor: RequestHandler = async (req, res, next) => {
  res.vary('Cookie');
  const token = req.headers.authorization === undefined ? sessionTokenOf(req) : undefined;
  if (token === undefined) return next();
  try {
    res.locals.principal = await authenticateToken(res, token);
  } catch (error) {
    if (!(error instanceof AuthenticationError)) throw error;
    clearSessionCookie(req, res);
  }
  next();
};
