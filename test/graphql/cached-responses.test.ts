import { BENCH_TOKEN, generateWorld } from '../bench/generate-world';
import { parseMetrics, valueOf } from '../helpers/prometheus';
import { recordStatements } from '../helpers/statements';
import { createTestApp, type TestApp } from '../helpers/test-app';

// A query asked again by the same caller, with nothing written in between, is answered
// from the answers already built: the same bytes, no SQL beyond the data version. Another
// caller, a write, a mutation or an answer with errors is never served from there.

const DEV_TOKEN = 'answer_cache_dev_token';
const PAGE = `query Page { organization(login: "bench-org-0") { dependencyAlerts(first: 5) { totalCount edges { node {
  number state repository { name } securityAdvisory { svcsaId } } } } } }`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const world = generateWorld({ organizations: 1, repositoriesPerOrganization: 5, alerts: 20, advisories: 5 });
  await t.load({ ...world, tokens: [...world.tokens, { token: DEV_TOKEN, type: 'classic', user: 'bench-dev', scopes: ['repo', 'read:org'] }] });
});
afterAll(() => t.close());

async function ask(query: string, token: string): Promise<{ text: string; statements: number }> {
  const statements = recordStatements(t.db);
  try {
    const res = await t.http().post('/graphql').set('Content-Type', 'application/json').set('Authorization', `Bearer ${token}`).send({ query });
    expect(res.status).toBe(200);
    return { text: res.text, statements: statements.sql.length };
  } finally {
    statements.stop();
  }
}

const operations = async () => valueOf(parseMetrics((await t.http().get('/metrics')).text), 'orgsec_graphql_operations_total', { operation: 'Page', type: 'query', outcome: 'success' });

it('the same query by the same caller gets the same bytes, without SQL beyond the data version, and is still counted', async () => {
  const before = await operations();
  const first = await ask(PAGE, BENCH_TOKEN);
  const second = await ask(PAGE, BENCH_TOKEN); // built again: kept from the second time (response-cache.ts)
  const again = await ask(PAGE, BENCH_TOKEN);
  expect(JSON.parse(first.text).data.organization.dependencyAlerts.edges).toHaveLength(5);
  expect([second.text, again.text]).toEqual([first.text, first.text]);
  expect(first.statements).toBeGreaterThan(5);
  expect(again.statements).toBe(1);
  expect((await operations()) - before).toBe(3);
});

it('another caller gets their own answer', async () => {
  const owner = JSON.parse((await ask(PAGE, BENCH_TOKEN)).text);
  const member = JSON.parse((await ask(PAGE, DEV_TOKEN)).text);
  expect(owner.data.organization.dependencyAlerts.totalCount).toBe(20);
  expect(member.data.organization.dependencyAlerts).toBeNull();
  expect(member.errors[0].extensions.code).toBe('FORBIDDEN');
  // Errors are never kept: asked again, the member's query runs again.
  expect((await ask(PAGE, DEV_TOKEN)).statements).toBeGreaterThan(1);
});

it('after a write the query is answered anew, and mutations always run', async () => {
  const before = JSON.parse((await ask(PAGE, BENCH_TOKEN)).text).data.organization.dependencyAlerts.edges[0].node;
  const dismiss = `mutation { updateDependencyAlert(input: { owner: "bench-org-0", repository: "${before.repository.name}", number: ${before.number},
    state: DISMISSED, dismissedReason: TOLERABLE_RISK }) { dependencyAlert { state } } }`;
  const dismissed = JSON.parse((await ask(dismiss, BENCH_TOKEN)).text);
  expect(dismissed.data.updateDependencyAlert.dependencyAlert.state).toBe('DISMISSED');
  const after = JSON.parse((await ask(PAGE, BENCH_TOKEN)).text).data.organization.dependencyAlerts.edges[0].node;
  expect(after).toEqual({ ...before, state: 'DISMISSED' });
  // The same mutation again runs again: the alert is already dismissed.
  const again = await t.http().post('/graphql').set('Content-Type', 'application/json').set('Authorization', `Bearer ${BENCH_TOKEN}`).send({ query: dismiss });
  expect(again.body.errors[0].extensions.code).toBe('CONFLICT');
});

it('keeps each form of an answer apart: Accept chooses the content type, and the headers come back as first sent', async () => {
  const post = (accept: string) => t.http().post('/graphql').set({ 'Content-Type': 'application/json', Authorization: `Bearer ${BENCH_TOKEN}`, Accept: accept }).send({ query: PAGE });
  const forms = ['application/graphql-response+json', 'application/json'];
  const first = await Promise.all(forms.map(async (accept) => { const res = await post(accept); return { accept, type: res.headers['content-type'], etag: res.headers.etag, text: res.text }; }));
  expect(first.map((f) => f.type)).toEqual(['application/graphql-response+json; charset=utf-8', 'application/json; charset=utf-8']);
  for (const form of first) {
    const again = await post(form.accept);
    expect({ accept: form.accept, type: again.headers['content-type'], etag: again.headers.etag, text: again.text }).toEqual(form);
  }
});

it('a body with anything beside query, operationName and variables always goes to Apollo', async () => {
  const send = () => {
    const statements = recordStatements(t.db);
    return t.http().post('/graphql').set({ 'Content-Type': 'application/json', Authorization: `Bearer ${BENCH_TOKEN}` }).send({ query: PAGE, extensions: {} })
      .then((res) => ({ status: res.status, statements: statements.sql.length }))
      .finally(() => statements.stop());
  };
  await send();
  expect((await send()).statements).toBeGreaterThan(1);
});
