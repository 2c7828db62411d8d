import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium';
import { OPERATIONS as CATALOGUE, OPERATION_LIST } from '../../src/operations';
import { API_VERSION } from '../../src/http/api-version';
import { DEMO_OWNER_TOKEN, OPERATIONS, demoWorld } from '../helpers/operations';
import { sendToMissingOwner } from '../helpers/send-operation';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Issues 9 and 18: the explorers in a real browser (Debian's Chromium, driven by playwright-core):
// /docs shows every operation and opens the one an error's documentation_url names, /graphiql
// loads its schema without a token and runs a query with one, /graphql's landing page leads to
// GraphiQL when Apollo's CDN is out of reach, and the orgsec pages ask nothing of another host.

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
  browser = await launchChromium();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** A fresh page that records every URL it requests and the status of every answer. */
async function openPage(): Promise<{ page: Page; requested: string[]; statuses: Array<{ url: string; status: number }> }> {
  const page = await (await browser.newContext()).newPage();
  const requested: string[] = [];
  const statuses: Array<{ url: string; status: number }> = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('response', (response) => statuses.push({ url: response.url(), status: response.status() }));
  return { page, requested, statuses };
}

/** GraphiQL's visible headers editor (CodeMirror 5), found in the page. */
const headersEditor = () => {
  const editors = [...(globalThis as any).document.querySelectorAll('.graphiql-editor-tool .CodeMirror')] as any[];
  return editors.find((editor) => editor.offsetParent !== null && editor.CodeMirror.getValue() !== '');
};

const onlyLocal = (requested: string[]) => requested.filter((url) => !url.startsWith(t.url) && !url.startsWith('data:'));

it('/docs renders the description with every operation of the catalogue, from orgsec alone', async () => {
  const { page, requested } = await openPage();
  await page.goto(`${t.url}/docs`);
  await page.getByText('Create an attestation', { exact: true }).first().waitFor({ timeout: 20_000 });
  expect(await page.locator('.opblock').count()).toBe(OPERATION_LIST.length);
  expect(onlyLocal(requested)).toEqual([]);
}, 40_000);

it('/graphiql loads its schema without a token: the Docs pane shows the Query type and no request is refused', async () => {
  const { page, requested, statuses } = await openPage();
  await page.goto(`${t.url}/graphiql`);
  // The page says where a token goes, before anyone needs one.
  await page.getByRole('note').getByText('"Authorization": "Bearer <your token>"').waitFor({ timeout: 20_000 });
  await page.getByRole('button', { name: 'Show Documentation Explorer' }).click();
  const docs = page.locator('.graphiql-doc-explorer');
  await docs.getByText('Query', { exact: true }).first().waitFor({ timeout: 20_000 });
  await docs.getByText('Query', { exact: true }).first().click();
  await docs.getByText('organization', { exact: true }).first().waitFor({ timeout: 10_000 });
  const graphql = statuses.filter((answer) => answer.url === `${t.url}/graphql`);
  expect(graphql.length).toBeGreaterThan(0);
  expect(statuses.filter((answer) => answer.status >= 400)).toEqual([]);
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
  await page.waitForFunction(`(${headersEditor.toString()})() !== undefined`, undefined, { timeout: 10_000 });
  // The version and CSRF headers are preset, and no placeholder credential; the user adds their token.
  const preset = await page.evaluate(`JSON.parse((${headersEditor.toString()})().CodeMirror.getValue())`);
  expect(preset).toEqual({ 'X-Service-Api-Version': API_VERSION, 'Apollo-Require-Preflight': 'true' });
  await page.evaluate(`(${headersEditor.toString()})().CodeMirror.setValue(${JSON.stringify(JSON.stringify({ ...(preset as object), Authorization: `Bearer ${DEMO_OWNER_TOKEN}` }))})`);
  await page.locator('.graphiql-execute-button').click();
  const result = page.locator('.result-window');
  await result.getByText('"alice"').waitFor({ timeout: 20_000 });
  const shown = JSON.parse((await result.innerText()).replace(/\u00a0/g, ' '));
  expect(shown).toEqual({ data: { organization: { login: 'acme-corp', viewerIsAMember: 'acme-corp' }, viewer: { login: 'alice' } } });
  expect(onlyLocal(requested)).toEqual([]);
}, 40_000);

it('/graphiql subscribes over WebSocket with the token of its headers tab, and shows an alert\'s event as it happens', async () => {
  const { page, requested } = await openPage();
  const open = await t.http().get('/orgs/acme-corp/dependency-bot/alerts?state=open').set('Authorization', `Bearer ${DEMO_OWNER_TOKEN}`);
  const alert = (open.body as Array<{ number: number; repository: { name: string } }>)[0]!;
  const sockets: string[] = [];
  page.on('websocket', (socket) => sockets.push(socket.url()));
  await page.goto(`${t.url}/graphiql`);
  await page.locator('.graphiql-query-editor .CodeMirror').waitFor({ timeout: 20_000 });
  await page.evaluate((query) => {
    ((globalThis as any).document.querySelector('.graphiql-query-editor .CodeMirror') as any).CodeMirror.setValue(query);
  }, 'subscription { dependencyAlertEvents(organization: "acme-corp") { action sender { login } alert { number state } } }');
  await page.getByRole('button', { name: 'Headers' }).click();
  await page.waitForFunction(`(${headersEditor.toString()})() !== undefined`, undefined, { timeout: 10_000 });
  const preset = await page.evaluate(`JSON.parse((${headersEditor.toString()})().CodeMirror.getValue())`);
  await page.evaluate(`(${headersEditor.toString()})().CodeMirror.setValue(${JSON.stringify(JSON.stringify({ ...(preset as object), Authorization: `Bearer ${DEMO_OWNER_TOKEN}` }))})`);
  await page.locator('.graphiql-execute-button').click();
  // The subscription is open once the instance has it; then an alert is dismissed through REST.
  for (let i = 0; i < 200 && t.services.alertEventStream.size === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
  expect(t.services.alertEventStream.size).toBe(1);
  const path = `/repos/acme-corp/${alert.repository.name}/dependency-bot/alerts/${alert.number}`;
  const dismissed = await t.http().patch(path).set('Authorization', `Bearer ${DEMO_OWNER_TOKEN}`).send({ state: 'dismissed', dismissed_reason: 'tolerable_risk' });
  expect(dismissed.status).toBe(200);
  const result = page.locator('.result-window');
  await result.getByText('"DISMISSED"').first().waitFor({ timeout: 20_000 });
  const shown = JSON.parse((await result.innerText()).replace(/\u00a0/g, ' '));
  expect(shown).toEqual({ data: { dependencyAlertEvents: { action: 'DISMISSED', sender: { login: 'alice' }, alert: { number: alert.number, state: 'DISMISSED' } } } });
  expect(sockets).toEqual([`${t.url.replace('http', 'ws')}/graphql`]);
  expect(onlyLocal(requested)).toEqual([]);
  await page.close();
  await t.http().patch(path).set('Authorization', `Bearer ${DEMO_OWNER_TOKEN}`).send({ state: 'open' });
}, 60_000);

describe('the /graphql landing page without Apollo\'s CDN', () => {
  it.each([['/graphql', '/graphiql/', '/graphql'], ['/api/graphql', '/api/graphiql/', '/api/graphql']])(
    '%s says Sandbox could not load and its link opens GraphiQL at %s, which queries %s',
    async (landing, graphiql, endpoint) => {
      const { page, statuses } = await openPage();
      // Offline as this machine is, but certain: Apollo's CDN refuses every request.
      await page.context().route(/^https:\/\/[^/]*apollographql\.com\//, (route) => route.abort('internetdisconnected'));
      await page.goto(`${t.url}${landing}`, { waitUntil: 'domcontentloaded' });
      const alert = page.getByRole('alert');
      await alert.getByText('Apollo Sandbox could not be loaded').waitFor({ timeout: 20_000 });
      await alert.getByRole('link', { name: 'Open GraphiQL' }).click();
      await page.getByRole('button', { name: 'Show Documentation Explorer' }).click({ timeout: 20_000 });
      await page.locator('.graphiql-doc-explorer').getByText('Query', { exact: true }).first().waitFor({ timeout: 20_000 });
      expect(page.url()).toBe(`${t.url}${graphiql}`);
      expect(statuses.filter((answer) => answer.url === `${t.url}${endpoint}`).map((answer) => answer.status)).toContain(200);
    },
    40_000,
  );

  it('the link to GraphiQL is there even while Sandbox loads', async () => {
    const { page } = await openPage();
    await page.context().route(/^https:\/\/[^/]*apollographql\.com\//, (route) => route.abort('internetdisconnected'));
    await page.goto(`${t.url}/graphql`, { waitUntil: 'domcontentloaded' });
    expect(await page.locator('#explorers').getByRole('link', { name: /GraphiQL/ }).getAttribute('href')).toBe('graphiql/');
  }, 40_000);
});

describe('documentation_url', () => {
  // Every operation's error names its own operation; /docs opens exactly that one, in view.
  type Described = { path: string; method: string; operationId: string; tags: string[] };
  let described: Described[];
  const linkOf = async (op: (typeof OPERATIONS)[number]) => {
    const { operationId } = CATALOGUE[op.name];
    const res = await sendToMissingOwner(t, op, DEMO_OWNER_TOKEN);
    // Public reference data has no owner: the list answers its error with a 422 (sendForError).
    expect({ operationId, status: res.status }).toEqual({ operationId, status: op.path === '/advisories' ? 422 : 404 });
    const url = String(res.body.documentation_url);
    const entry = described.find((d) => d.operationId === operationId)!;
    expect({ operationId, url }).toEqual({ operationId, url: `${t.url}/docs/#/${entry.tags[0]}/${encodeURIComponent(operationId)}` });
    return { url, entry };
  };
  // The block shown for the link is the operation's own, and scrolled into the window.
  const expectShown = async (page: Page, entry: Described) => {
    const block = page.locator('.opblock.is-open').filter({ has: page.locator(`.opblock-summary-path[data-path="${entry.path}"]`) })
      .filter({ has: page.locator(`.opblock-summary-method:text-is("${entry.method.toUpperCase()}")`) });
    await block.first().waitFor({ timeout: 30_000 });
    // Swagger UI scrolls after it opens the block: wait for the summary to lie inside the window.
    const summary = block.locator('.opblock-summary');
    const inView = await summary.evaluate((element) => new Promise<boolean>((resolve) => {
      const check = (tries: number) => {
        const box = element.getBoundingClientRect();
        if (box.top >= 0 && box.bottom <= element.ownerDocument.documentElement.clientHeight) resolve(true);
        else if (tries === 0) resolve(false);
        else setTimeout(() => check(tries - 1), 50);
      };
      check(100);
    }));
    expect({ operationId: entry.operationId, inView }).toEqual({ operationId: entry.operationId, inView: true });
    return block;
  };

  beforeAll(async () => {
    const document = (await t.http().get('/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; tags: string[] }>> };
    described = Object.entries(document.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, ...op })));
    expect(described).toHaveLength(OPERATIONS.length);
  });

  it('followed from a fresh /docs load, opens exactly its operation (one operation of each tag)', async () => {
    const tags = new Set<string>();
    const firstOfEachTag = OPERATIONS.filter((op) => {
      const tag = described.find((d) => d.operationId === CATALOGUE[op.name].operationId)!.tags[0]!;
      return !tags.has(tag) && Boolean(tags.add(tag));
    });
    for (const op of firstOfEachTag) {
      const { url, entry } = await linkOf(op);
      const { page } = await openPage();
      await page.goto(url);
      await expectShown(page, entry);
      expect({ operationId: entry.operationId, open: await page.locator('.opblock.is-open').count() }).toEqual({ operationId: entry.operationId, open: 1 });
      await page.close();
    }
  }, 180_000);

  // Swagger UI's load is seconds of CPU per page: every link is followed on one loaded page,
  // a test per tag so that each is bounded in time on a loaded machine.
  describe('followed on a /docs page already open, opens its operation, for every operation of /openapi.json', () => {
    let page: Page;
    beforeAll(async () => {
      ({ page } = await openPage());
    });
    const tagsInOrder = [...new Set(OPERATIONS.map((op) => CATALOGUE[op.name].docs.tag))];
    it.each(tagsInOrder)('%s', async (tag) => {
      for (const op of OPERATIONS.filter((each) => CATALOGUE[each.name].docs.tag === tag)) {
        const { url, entry } = await linkOf(op);
        await page.goto(url); // the same document: only the fragment changes
        const block = await expectShown(page, entry);
        expect({ operationId: entry.operationId, open: await page.locator('.opblock.is-open').count() }).toEqual({ operationId: entry.operationId, open: 1 });
        // Closed again, as a reader would: each open block makes the page's every later render dearer.
        await block.locator('.opblock-summary-control').click();
        await page.locator('.opblock.is-open').waitFor({ state: 'detached', timeout: 10_000 });
      }
    }, 120_000);
  });
});
