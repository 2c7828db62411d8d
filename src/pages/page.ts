import type { Response } from 'express';
import { apiBaseOf, principalOf } from '../http/locals';
import { sendText } from '../http/respond';
import { html, trusted, type Html } from './html';

// The frame of every page: plain HTML, one inline stylesheet, no script and nothing from
// another host, so a page reads the same offline and without JavaScript.

/**
 * Nothing may load but the inline style: no script runs even if some text escaped its
 * escaping; forms post only here; no other site frames a page.
 */
const PAGE_HEADERS: Record<string, string> = {
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'same-origin',
  // Pages show what the caller may see: never kept by a shared cache, nor by the browser after signing out.
  'Cache-Control': 'no-store',
};

const STYLE = trusted(`
    body { font-family: system-ui, sans-serif; margin: 0 auto; max-width: 60em; padding: 1em 2em; line-height: 1.45; }
    header { display: flex; gap: 1em; align-items: baseline; border-bottom: 1px solid #ccc; margin-bottom: 1em; }
    header form { margin-left: auto; }
    table { border-collapse: collapse; } th, td { text-align: left; padding: 4px 12px 4px 0; vertical-align: top; }
    thead th { border-bottom: 1px solid #ccc; }
    .text { white-space: pre-wrap; }
    .severity-critical, .severity-high { color: #a40000; font-weight: bold; } .severity-medium { color: #8a5a00; }
  `);

export interface Page {
  title: string;
  body: Html;
}

/** Where the pages of this request live (origin plus /api/v3 when the request came that way): html_url's base. */
export const pagesBase = (res: Response): string => apiBaseOf(res);

/** Who is signed in, and the way out (or in). */
function visitorBar(res: Response): Html {
  const base = pagesBase(res);
  const principal = principalOf(res);
  const name = principal.kind === 'user' ? principal.login : principal.kind === 'app' ? `${principal.appName} (app)` : undefined;
  const account = name === undefined
    ? html`<a href="${base}/sign-in">Sign in</a>`
    : html`<span>Signed in as <strong>${name}</strong></span>`;
  // Signing out is a POST: a link (a GET) could be followed by anyone's page.
  const signOut = name === undefined ? '' : html`<form method="post" action="${base}/sign-out"><button type="submit">Sign out</button></form>`;
  return html`<header><a href="${base}/"><strong>orgsec</strong></a>${account}${signOut}</header>`;
}

export function renderPage(res: Response, page: Page): string {
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${page.title} · orgsec</title>
  <style>${STYLE}</style>
</head>
<body>
  ${visitorBar(res)}
  <main>
    <h1>${page.title}</h1>
${page.body}
  </main>
</body>
</html>
`.markup;
}

export function sendPage(res: Response, status: number, page: Page): void {
  res.set(PAGE_HEADERS);
  sendText(res, status, 'text/html; charset=utf-8', renderPage(res, page));
}

/** A definition list of label → value rows, empty values left out. */
export function facts(rows: Array<[label: string, value: unknown]>): Html {
  const shown = rows.filter(([, value]) => value !== null && value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0));
  return html`<dl>${shown.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
}
