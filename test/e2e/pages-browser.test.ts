import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 40 in a real browser (Debian's Chromium, driven by playwright-core, JavaScript off: the
// pages must not need it): an html_url asks a stranger to sign in, the sign-in form keeps the
// token in the session cookie and leads back to the alert, whose dismissal comment reads as
// text; an outsider signed in gets the not-found page; nothing is asked of another host.

const COMMENT = '<script>document.title = "owned"</script> <img src=x>';

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
  const dismissed = await t.http().patch('/repos/acme-corp/api/dependency-bot/alerts/1').set(bearer(DEMO_OWNER_TOKEN))
    .send({ state: 'dismissed', dismissed_reason: 'no_bandwidth', dismissed_comment: COMMENT });
  expect(dismissed.status).toBe(200);
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A fresh browser (its own cookies), without JavaScript, that records every URL it requests. */
async function openPage(): Promise<{ page: Page; requested: string[] }> {
  const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  return { page, requested };
}

/** Signs in through the form, as a person would: the alert's page, its sign-in link, the token pasted. */
async function signInFrom(page: Page, url: string, token: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('main').getByRole('link', { name: 'sign in', exact: true }).click();
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

it('the owner signs in through the form and reads the alert page, the comment as text', async () => {
  const { page, requested } = await openPage();
  const alertUrl = (await t.http().get('/repos/acme-corp/api/dependency-bot/alerts/1').set(bearer(DEMO_OWNER_TOKEN))).body.html_url;
  expect(alertUrl).toBe(`${t.url}/acme-corp/api/security/dependency-bot/1`);

  const before = await page.goto(alertUrl);
  expect(before?.status()).toBe(401);
  await signInFrom(page, alertUrl, DEMO_OWNER_TOKEN);

  await page.waitForURL(alertUrl);
  await page.getByRole('heading', { name: 'Dependency alert 1: Prototype pollution in left-pad' }).waitFor({ timeout: 10_000 });
  await page.getByText('Signed in as alice').waitFor();
  // The comment as text, where the alert's state shows it and in its history's dismissal.
  await page.getByRole('definition').getByText(COMMENT, { exact: true }).waitFor();
  await page.getByRole('listitem').filter({ hasText: 'Dismissed by alice' }).getByText(COMMENT, { exact: true }).waitFor();
  expect(await page.title()).toBe('Dependency alert 1: Prototype pollution in left-pad · orgsec');
  expect(await page.locator('img, script').count()).toBe(0);
  // The HttpOnly cookie is the browser's, never the page's.
  const cookies = await page.context().cookies();
  expect(cookies).toEqual([expect.objectContaining({ name: 'orgsec_session', httpOnly: true, sameSite: 'Strict' })]);

  // From the alert to its repository's list and on to the advisory, by the links.
  await page.getByRole('link', { name: 'all its alerts' }).click();
  await page.getByRole('heading', { name: 'Dependency alerts of acme-corp/api' }).waitFor();
  await page.getByRole('link', { name: '1', exact: true }).click();
  await page.getByRole('link', { name: 'Prototype pollution in left-pad' }).click();
  await page.getByRole('heading', { name: /^SVCSA-2026-0001/ }).waitFor();

  await page.getByRole('button', { name: 'Sign out' }).click();
  expect(await page.context().cookies()).toEqual([]);
  expect(requested.filter((url) => !url.startsWith(t.url))).toEqual([]);
}, 40_000);

it('an outsider, signed in, gets the not-found page for a private repository\'s alert', async () => {
  const { page } = await openPage();
  const alertUrl = `${t.url}/acme-corp/api/security/dependency-bot/1`;
  await signInFrom(page, alertUrl, 'svc_demo_frank_globex');
  await page.waitForURL(alertUrl);
  await page.getByText('Signed in as frank').waitFor({ timeout: 10_000 });
  await page.getByRole('heading', { name: 'Not found' }).waitFor();
  expect((await page.reload())?.status()).toBe(404);
  expect(await page.content()).not.toContain('left-pad');
}, 40_000);
