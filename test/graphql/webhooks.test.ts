import { gql } from '../helpers/graphql';
import { hashTables } from '../helpers/table-hash';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ORG, PRIVATE, SECRET, T, recordAttempt, webhooksWorld } from '../helpers/webhooks-world';

// GraphQL's door to webhooks: the webhooks connection on Organization and Repository, a hook's
// deliveries (never answered from the response cache), and the mutations, over the same service
// and checks as REST.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(webhooksWorld());
});
afterAll(() => t.close());

const [OWNER, NAME] = PRIVATE.split('/') as [string, string];
const HOOK = 'id type name active events createdAt updatedAt url pingUrl deliveriesUrl config { url contentType secret insecureSsl }';
const CREATE = `mutation($input: CreateWebhookInput!) { createWebhook(input: $input) { webhook { ${HOOK} } } }`;
const UPDATE = `mutation($input: UpdateWebhookInput!) { updateWebhook(input: $input) { webhook { ${HOOK} } } }`;
const DELETE = 'mutation($input: WebhookRefInput!) { deleteWebhook(input: $input) { deletedWebhookId } }';
const PING = 'mutation($input: WebhookRefInput!) { pingWebhook(input: $input) { webhook { id } } }';
const REDELIVER = 'mutation($input: RedeliverWebhookDeliveryInput!) { redeliverWebhookDelivery(input: $input) { webhook { id } } }';
const DELIVERIES = `query($owner: String!, $name: String!, $id: Int!, $after: String) { repository(owner: $owner, name: $name) {
  webhook(id: $id) { deliveries(first: 1, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id guid event statusCode redelivery } } } } } }`;

describe('webhooks through GraphQL', () => {
  it('creates, reads, updates and deletes an organization hook, as REST shows it', async () => {
    const created = await gql(t, CREATE, { token: T.owner, variables: { input: { owner: ORG, config: { url: 'https://hooks.example.com/gql', secret: SECRET }, events: ['*'] } } });
    expect(created.errors).toBeUndefined();
    const hook = created.data.createWebhook.webhook;
    const rest = (await t.http().get(`/orgs/${ORG}/hooks/${hook.id}`).set('Authorization', `Bearer ${T.owner}`)).body;
    expect(hook).toEqual({
      id: rest.id, type: 'Organization', name: 'web', active: true, events: ['*'], createdAt: rest.created_at, updatedAt: rest.updated_at, url: rest.url,
      pingUrl: rest.ping_url, deliveriesUrl: rest.deliveries_url, config: { url: 'https://hooks.example.com/gql', contentType: 'json', secret: '********', insecureSsl: '0' },
    });
    const listed = await gql(t, `query($login: String!) { organization(login: $login) { webhooks(first: 10) { totalCount edges { node { id } } } } }`, { token: T.owner, variables: { login: ORG } });
    expect(listed.data.organization.webhooks.edges.map((e: { node: { id: number } }) => e.node.id)).toContain(hook.id);

    const updated = await gql(t, UPDATE, { token: T.owner, variables: { input: { owner: ORG, hookId: hook.id, active: false, config: { contentType: 'form' } } } });
    expect(updated.data.updateWebhook.webhook).toMatchObject({ active: false, config: { contentType: 'form', secret: '********' } });
    expect((await gql(t, DELETE, { token: T.owner, variables: { input: { owner: ORG, hookId: hook.id } } })).data.deleteWebhook).toEqual({ deletedWebhookId: hook.id });
  });

  it('pages the webhooks connection forward and back, oldest first', async () => {
    const created: number[] = [];
    for (const n of [1, 2, 3]) {
      const res = await gql(t, CREATE, { token: T.solo, variables: { input: { owner: 'wh-solo', repository: 'wh-own', config: { url: `https://hooks.example.com/page-${n}` }, active: false } } });
      expect(res.errors).toBeUndefined();
      created.push(res.data.createWebhook.webhook.id);
    }
    const page = `query($after: String, $before: String, $first: Int, $last: Int) { repository(owner: "wh-solo", name: "wh-own") {
      webhooks(first: $first, after: $after, last: $last, before: $before) { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { node { id } } } } }`;
    const ids = (res: { data: any }) => res.data.repository.webhooks.edges.map((e: { node: { id: number } }) => e.node.id);
    const first = await gql(t, page, { token: T.solo, variables: { first: 2 } });
    expect(first.errors).toBeUndefined();
    const all = (await gql(t, page, { token: T.solo, variables: { first: 100 } }));
    expect(ids(all)).toEqual(created);
    expect(ids(first)).toEqual(ids(all).slice(0, 2));
    expect(first.data.repository.webhooks.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const rest = await gql(t, page, { token: T.solo, variables: { first: 100, after: first.data.repository.webhooks.pageInfo.endCursor } });
    expect(ids(rest)).toEqual(ids(all).slice(2));
    expect(rest.data.repository.webhooks.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const last = await gql(t, page, { token: T.solo, variables: { last: 1 } });
    expect(ids(last)).toEqual([created[2]]);
    const back = await gql(t, page, { token: T.solo, variables: { last: 1, before: last.data.repository.webhooks.pageInfo.startCursor } });
    expect(ids(back)).toEqual([created[1]]);
  });

  it('refuses bad input naming the field as GraphQL writes it, storing nothing', async () => {
    const before = await hashTables(t.db.knex);
    const bad = await gql(t, CREATE, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, config: { url: 'http://127.0.0.1/', contentType: 'xml' }, events: ['push'] } } });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(bad.errors?.[0]?.message).toMatch(/config\.contentType|events/);
    const loopback = await gql(t, CREATE, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, config: { url: 'http://127.0.0.1/' } } } });
    expect(loopback.errors?.[0]?.message).toContain('config.url');
    const orgAddEvents = await gql(t, UPDATE, { token: T.owner, variables: { input: { owner: ORG, hookId: 1, addEvents: ['ping'] } } });
    expect(orgAddEvents.errors?.[0]).toBeDefined();
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('pages a hook\'s deliveries, shows a new attempt at once (never cached), pings and redelivers', async () => {
    const hook = (await gql(t, CREATE, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, config: { url: 'https://hooks.example.com/gql-repo' } } } })).data.createWebhook.webhook;
    await gql(t, PING, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, hookId: hook.id } } });
    const rows = await t.db.knex('webhook_deliveries').where('hook_id', hook.id).orderBy('id');
    expect(rows.map((r) => r.event)).toEqual(['ping', 'ping']); // created active, then pinged
    const first = await recordAttempt(t.db.knex, Number(rows[0].id));
    const variables = { owner: OWNER, name: NAME, id: hook.id };
    const once = await gql(t, DELIVERIES, { token: T.owner, variables });
    expect(once.data.repository.webhook.deliveries).toMatchObject({ totalCount: 1, edges: [{ node: { id: first, event: 'ping', statusCode: 200, redelivery: false } }] });
    const second = await recordAttempt(t.db.knex, Number(rows[1].id), { statusCode: 500 });
    const again = await gql(t, DELIVERIES, { token: T.owner, variables });
    expect(again.data.repository.webhook.deliveries.totalCount).toBe(2);
    expect(again.data.repository.webhook.deliveries.edges[0].node.id).toBe(second);
    const next = await gql(t, DELIVERIES, { token: T.owner, variables: { ...variables, after: again.data.repository.webhook.deliveries.pageInfo.endCursor } });
    expect(next.data.repository.webhook.deliveries.edges.map((e: { node: { id: number } }) => e.node.id)).toEqual([first]);
    const detail = await gql(t, 'query($owner: String!, $name: String!, $id: Int!, $d: Int!) { repository(owner: $owner, name: $name) { webhook(id: $id) { delivery(id: $d) { id request response } } } }',
      { token: T.owner, variables: { ...variables, d: first } });
    expect(detail.data.repository.webhook.delivery.response).toEqual({ headers: { 'content-type': 'text/plain' }, payload: 'received' });

    const redelivered = await gql(t, REDELIVER, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, hookId: hook.id, deliveryId: first } } });
    expect(redelivered.errors).toBeUndefined();
    const last = await t.db.knex('webhook_deliveries').where('hook_id', hook.id).orderBy('id', 'desc').first();
    const original = await t.db.knex('webhook_deliveries').where('id', rows[0].id).first('guid');
    expect([Boolean(last.redelivery), last.guid]).toEqual([true, original.guid]);
    const missing = await gql(t, REDELIVER, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, hookId: hook.id, deliveryId: 999999 } } });
    expect(missing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('answers a writer FORBIDDEN and an outsider NOT_FOUND on a private repository\'s hooks', async () => {
    const query = 'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { webhooks { totalCount } } }';
    expect((await gql(t, query, { token: T.writer, variables: { owner: OWNER, name: NAME } })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await gql(t, query, { token: T.outsider, variables: { owner: OWNER, name: NAME } })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});
