import { chromium, type Browser, type Page } from 'playwright-core';
import { API_VERSION } from '../../src/http/api-version';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Issue 9: the explorers in a real browser (Debian's Chromium, driven by playwright-core):
// /docs shows every operation and /graphiql runs a query, and neither page asks anything
// of another host (they work offline).

// test/setup/chromium.js (jest's globalSetup) found or installed it, or says how to get it.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// Without the background-networking flags Chromium keeps calling home, which a closed
// network refuses (see the machine notes).
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  if (process.env.CHROMIUM_MISSING) throw new Error(process.env.CHROMIUM_MISSING);
  t = await createTestApp();
  await t.load(demoWorld());
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A fresh page that records every URL it requests. */
async function openPage(): Promise<{ page: Page; requested: string[] }> {
  const page = await (await browser.newContext()).newPage();
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  return { page, requested };
}

const onlyLocal = (requested: string[]) => requested.filter((url) => !url.startsWith(t.url) && !url.startsWith('data:'));

it('/docs renders the description with all 27 operations, from orgsec alone', async () => {
  const { page, requested } = await openPage();
  await page.goto(`${t.url}/docs`);
  await page.getByText('Create an attestation', { exact: true }).first().waitFor({ timeout: 20_000 });
  expect(await page.locator('.opblock').count()).toBe(27);
  expect(onlyLocal(requested)).toEqual([]);
}, 40_000);

it('/graphiql runs a query with a token and shows the result, from orgsec alone', async () => {
  const { page, requested } = await openPage();
  await page.goto(`${t.url}/graphiql`);
  await page.locator('.graphiql-query-editor .CodeMirror').waitFor({ timeout: 20_000 });
  // The editors are CodeMirror 5 instances: set their text as a user's typing would.
  await page.evaluate((query) => {
    ((globalThis as any).document.querySelector('.graphiql-query-editor .CodeMirror') as any).CodeMirror.setValue(query);
  }, '{ organization(login: "acme-corp") { login viewerIsAMember: login } viewer { login } }');
  await page.getByRole('button', { name: 'Headers' }).click();
  const headersEditor = () => {
    const editors = [...(globalThis as any).document.querySelectorAll('.graphiql-editor-tool .CodeMirror')] as any[];
    return editors.find((editor) => editor.offsetParent !== null && editor.CodeMirror.getValue() !== '');
  };
  await page.waitForFunction(`(${headersEditor.toString()})() !== undefined`, undefined, { timeout: 10_000 });
  // The version and CSRF headers are preset; the user puts their token in.
  const preset = await page.evaluate(`JSON.parse((${headersEditor.toString()})().CodeMirror.getValue())`);
  expect(preset).toEqual({ Authorization: 'Bearer <token>', 'X-Service-Api-Version': API_VERSION, 'Apollo-Require-Preflight': 'true' });
  await page.evaluate(`(${headersEditor.toString()})().CodeMirror.setValue(${JSON.stringify(JSON.stringify({ ...(preset as object), Authorization: `Bearer ${DEMO_OWNER_TOKEN}` }))})`);
  await page.locator('.graphiql-execute-button').click();
  const result = page.locator('.result-window');
  await result.getByText('"alice"').waitFor({ timeout: 20_000 });
  const shown = JSON.parse((await result.innerText()).replace(/\u00a0/g, ' '));
  expect(shown).toEqual({ data: { organization: { login: 'acme-corp', viewerIsAMember: 'acme-corp' }, viewer: { login: 'alice' } } });
  expect(onlyLocal(requested)).toEqual([]);
}, 40_000);
