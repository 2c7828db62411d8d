import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium';
import { DEMO_OWNER_TOKEN, DEMO_SUBJECT_DIGEST, demoWorld } from '../helpers/operations';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Issue 18: a dashboard served from another origin, in a real browser. The page lives on
// http://localhost:<port>, orgsec on http://127.0.0.1:<port>: two origins, so every call
// is a CORS request the browser checks (preflights included), as it would be in production.

let t: TestApp;
let browser: Browser;
let page: Server;
let pageOrigin: string;

/** The dashboard: an empty page; the test runs its fetches in the page's own context. */
const DASHBOARD = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>dashboard</title></head><body>dashboard</body></html>';

beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
  page = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(DASHBOARD));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  pageOrigin = `http://localhost:${(page.address() as AddressInfo).port}`;
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => page?.close(resolve));
  await t.close();
});

interface Seen { ok: boolean; status: number; link: string | null; etag: string | null; requestId: string | null; body: unknown }

/** Runs fetch calls in a page of the other origin; returns what the page's script could read. */
async function fromDashboard(calls: Array<{ url: string; init?: Record<string, unknown> }>): Promise<Seen[]> {
  const tab = await (await browser.newContext()).newPage();
  try {
    await tab.goto(`${pageOrigin}/`);
    return await tab.evaluate(async (list) => Promise.all(list.map(async ({ url, init }) => {
      const answer = await fetch(url, init as RequestInit);
      return {
        ok: answer.ok, status: answer.status, link: answer.headers.get('Link'), etag: answer.headers.get('ETag'),
        requestId: answer.headers.get('X-Request-Id'), body: answer.status === 304 ? null : await answer.json(),
      };
    })), calls);
  } finally {
    await tab.close();
  }
}

it('calls REST with a token, reads Link and ETag, and sends the ETag back for a 304', async () => {
  const url = `${t.url}/orgs/acme-corp/dependency-bot/alerts?per_page=1`;
  const headers = { Authorization: `Bearer ${DEMO_OWNER_TOKEN}`, 'X-Service-Api-Version': '2026-03-10' };
  const [first] = await fromDashboard([{ url, init: { headers } }]);
  expect(first).toMatchObject({ ok: true, status: 200 });
  expect(first!.link).toMatch(/rel="next"/);
  expect(first!.etag).toMatch(/^W\/"/);
  expect(first!.requestId).toMatch(/\S/);
  expect(Array.isArray(first!.body) && (first!.body as unknown[]).length).toBe(1);
  // The page follows the next link, and asks again with the ETag (fetch's cache off: the page decides).
  const next = /<([^>]+)>; rel="next"/.exec(first!.link!)![1]!;
  const [second, again] = await fromDashboard([
    { url: next, init: { headers } },
    { url, init: { headers: { ...headers, 'If-None-Match': first!.etag }, cache: 'no-store' } },
  ]);
  expect(second).toMatchObject({ ok: true, status: 200 });
  expect(second!.body).not.toEqual(first!.body);
  expect(again!.status).toBe(304);
  expect(again!.etag).toBe(first!.etag);
}, 40_000);

it('reads public data without a token', async () => {
  const [answer] = await fromDashboard([{ url: `${t.url}/repos/acme-corp/web/attestations/${DEMO_SUBJECT_DIGEST}` }]);
  expect(answer).toMatchObject({ ok: true, status: 200 });
  expect((answer!.body as { attestations: unknown[] }).attestations.length).toBeGreaterThan(0);
}, 40_000);

it('queries GraphQL with a token (a preflighted JSON POST), and without one sees public data only', async () => {
  const query = JSON.stringify({ query: '{ viewer { login } repository(owner: "acme-corp", name: "web") { nameWithOwner } }' });
  const [withToken, withoutToken] = await fromDashboard([
    { url: `${t.url}/graphql`, init: { method: 'POST', headers: { Authorization: `Bearer ${DEMO_OWNER_TOKEN}`, 'Content-Type': 'application/json' }, body: query } },
    { url: `${t.url}/api/graphql`, init: { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ query: '{ repository(owner: "acme-corp", name: "web") { nameWithOwner } }' }) } },
  ]);
  expect(withToken).toMatchObject({ ok: true, status: 200, body: { data: { viewer: { login: 'alice' }, repository: { nameWithOwner: 'acme-corp/web' } } } });
  expect(withoutToken).toMatchObject({ ok: true, status: 200, body: { data: { repository: { nameWithOwner: 'acme-corp/web' } } } });
}, 40_000);

it('an error answer is readable too: the page sees the 401 and its message, not "Failed to fetch"', async () => {
  const [answer] = await fromDashboard([{ url: `${t.url}/orgs/acme-corp/organization-roles`, init: { headers: { Authorization: 'Bearer svc_not_a_token' } } }]);
  expect(answer).toMatchObject({ ok: false, status: 401, body: { message: 'Bad credentials' } });
}, 40_000);
