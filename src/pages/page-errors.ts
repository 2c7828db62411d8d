import type { ErrorRequestHandler, Request } from 'express';
import type { Logger } from '../logger';
import { renderFailure } from '../http/errors.middleware';
import { html } from './html';
import { pagesBase, sendPage } from './page';

// A page's failure in the API's words and status (errors/http.ts decides both): a browser
// gets them as a page, any other client the API's JSON error body, so an API client that
// mistypes a path reads the same 404 as before the pages existed.

/** The request names text/html before JSON (a browser); curl's and Octokit's Accept do not. */
export const prefersHtml = (req: Request): boolean => req.accepts(['application/json', 'text/html']) === 'text/html';

const TITLES: Record<number, string> = { 401: 'Sign in to see this page', 403: 'Not allowed', 404: 'Not found' };

export function pageErrors(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (!prefersHtml(req) || res.headersSent) return next(error);
    const { rendered } = renderFailure(logger, error, req, res);
    res.set(rendered.headers);
    const base = pagesBase(res);
    // A missing thing and a hidden one read alike, as in the API: nothing here says which.
    const hint = rendered.status === 404 || rendered.status === 401
      ? html`<p>If it is private, <a href="${base}/sign-in?return_to=${encodeURIComponent(req.originalUrl)}">sign in</a> with a token that may read it.</p>`
      : '';
    sendPage(res, rendered.status, {
      title: TITLES[rendered.status] ?? `Error ${rendered.status}`,
      body: html`<p>${rendered.body.message}</p>${hint}`,
    });
  };
}
