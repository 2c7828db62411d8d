import express, { Router, type Request, type RequestHandler, type Response } from 'express';
import { AuthenticationError, ForbiddenError } from '../errors/domain';
import type { Logger } from '../logger';
import { html } from './html';
import { pagesBase, sendPage } from './page';
import { pageErrors } from './page-errors';
import { authenticateToken, clearSessionCookie, identifyVisitor, setSessionCookie } from './session';

// GET /sign-in: a form where a person pastes a token; POST /sign-in checks it as the API checks
// a bearer header and keeps it in the session cookie; POST /sign-out forgets it.

/** A token is short; anything longer is not one (the form's body limit). */
const FORM_LIMIT = '4kb';

/**
 * Where to go after signing in: a path on this server, never another origin (`//host`,
 * `/\host` and schemes are refused), else the root page.
 */
function returnTo(value: unknown, res: Response): string {
  const fallback = `${pagesBase(res)}/`;
  if (typeof value !== 'string' || !value.startsWith('/') || /^\/[/\\]/.test(value) || /[\s\\]/.test(value)) return fallback;
  return `${new URL(pagesBase(res)).origin}${value}`;
}

/**
 * Sign-in CSRF (another site signing a browser in as someone else, or out): a form may be
 * posted here only from this origin. Browsers send Origin (and Sec-Fetch-Site) on every POST.
 */
const sameOriginPost: RequestHandler = (req, res, next) => {
  const origin = req.get('Origin');
  const site = req.get('Sec-Fetch-Site');
  const ours = new URL(pagesBase(res)).origin;
  if ((origin !== undefined && origin !== ours) || (site !== undefined && site !== 'same-origin' && site !== 'none')) {
    throw new ForbiddenError('Signing in and out is only accepted from this site\'s own pages.');
  }
  next();
};

function signInForm(res: Response, status: number, returnPath: string, problem?: string): void {
  sendPage(res, status, {
    title: 'Sign in',
    body: html`
    ${problem === undefined ? '' : html`<p role="alert"><strong>${problem}</strong></p>`}
    <p>Paste a token (the one you send to the API as <code>Authorization: Bearer …</code>). It is kept in a cookie
      that only these pages read: the API and GraphQL still need the header. Pages show what the API would show that token.</p>
    <form method="post" action="${pagesBase(res)}/sign-in">
      <input type="hidden" name="return_to" value="${returnPath}">
      <p><label for="token">Token</label><br><input id="token" name="token" type="password" autocomplete="off" size="50" required></p>
      <p><button type="submit">Sign in</button></p>
    </form>`,
  });
}

const stringOf = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The routes, each behind `chain` (the caller identified and counted, the request's services
 * bound): their own, because the API's JSON parser would refuse the form's body.
 */
export function signInRoutes(chain: RequestHandler[], logger: Logger): Router {
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: FORM_LIMIT });

  router.get('/sign-in', ...chain, identifyVisitor, (req, res) => signInForm(res, 200, stringOf(req.query.return_to)));

  router.post('/sign-in', ...chain, sameOriginPost, form, async (req: Request, res: Response) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const token = stringOf(body.token).trim();
    try {
      // An empty token is anonymous to the authenticator: not a sign-in.
      if (token === '') throw new AuthenticationError('Bad credentials');
      await authenticateToken(res, token);
    } catch (error) {
      if (!(error instanceof AuthenticationError)) throw error;
      signInForm(res, 401, stringOf(body.return_to), 'That token is not valid (unknown, revoked or expired).');
      return;
    }
    setSessionCookie(req, res, token);
    res.redirect(303, returnTo(body.return_to, res));
  });

  router.post('/sign-out', ...chain, sameOriginPost, (req, res) => {
    clearSessionCookie(req, res);
    res.redirect(303, `${pagesBase(res)}/`);
  });

  router.use(pageErrors(logger));
  return router;
}
