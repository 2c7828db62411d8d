import WebSocket from 'ws';
import { AL, ORG, OTHER_ORG, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';
import { gql } from '../helpers/graphql';
import { pause, subscribe, subscriptionClient, type SubscriptionClient } from '../helpers/subscriptions';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { WEBSOCKET_LIMITS } from '../../src/graphql/websocket-server';
import { commandActor } from '../../src/modules/audit-log/audit-actors';

// Issue 38, part 3: live alert events over WebSocket (graphql-ws), on the GraphQL path of the
// same port. Real graphql-ws clients over `ws`; every event made through the REST door.

const advisories = makeAdvisories();
const world = alertsWorld(makeAlerts(80, 7, advisories, {}), advisories);

const ALERT_FIELDS = `
  number state url htmlUrl createdAt updatedAt dismissedAt dismissedReason dismissedComment fixedAt autoDismissedAt
  dismissedBy { login } assignees { login } dependency { package { ecosystem name } manifestPath scope relationship }
  securityAdvisory { svcsaId severity } repository { nameWithOwner }`;
const EVENTS = `subscription Events($organization: String, $repository: String, $actions: [DependencyAlertEventAction!]) {
  dependencyAlertEvents(organization: $organization, repository: $repository, actions: $actions) {
    id action occurredAt sender { login } alert { ${ALERT_FIELDS} }
  }
}`;

let t: TestApp;
const clients: SubscriptionClient[] = [];

function connect(token: string | undefined, options: { headers?: Record<string, string>; params?: Record<string, unknown> } = {}): SubscriptionClient {
  const client = subscriptionClient(t.url, { params: options.params ?? (token === undefined ? {} : { Authorization: `Bearer ${token}` }), ...(options.headers ? { headers: options.headers } : {}) });
  clients.push(client);
  return client;
}

async function openAlerts(repo: string): Promise<number[]> {
  const res = await t.http().get(`/repos/${ORG}/${repo}/dependency-bot/alerts?state=open&per_page=100`).set(bearer(AL.owner));
  expect(res.status).toBe(200);
  return (res.body as Array<{ number: number }>).map((a) => a.number);
}

async function dismiss(repo: string, number: number, token: string = AL.owner) {
  const res = await t.http().patch(`/repos/${ORG}/${repo}/dependency-bot/alerts/${number}`).set(bearer(token))
    .send({ state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'live' });
  expect(res.status).toBe(200);
}

async function reopen(repo: string, number: number) {
  const res = await t.http().patch(`/repos/${ORG}/${repo}/dependency-bot/alerts/${number}`).set(bearer(AL.owner)).send({ state: 'open' });
  expect(res.status).toBe(200);
}

/** Waits until the instance has the subscriptions (the subscribe message is handled asynchronously). */
async function subscribed(count: number): Promise<void> {
  for (let i = 0; i < 200 && t.services.alertEventStream.size < count; i++) await pause(10);
  expect(t.services.alertEventStream.size).toBeGreaterThanOrEqual(count);
}

beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
  for (let i = 0; i < 200 && t.services.alertEventStream.size > 0; i++) await pause(10);
});

afterAll(async () => {
  await t.close();
});

describe('dependencyAlertEvents', () => {
  test('a repository\'s events arrive in commit order, each with the alert as it left it, as a query shows it', async () => {
    const [number] = await openAlerts('repo-0');
    const { client } = connect(AL.owner);
    const events = subscribe(client, EVENTS, { repository: `${ORG}/repo-0` });
    await subscribed(1);
    const metrics = await t.http().get('/metrics');
    expect(metrics.text).toMatch(/^orgsec_graphql_subscriptions 1$/m);
    await dismiss('repo-0', number!);
    const afterDismissal = await gql(t, `{ repository(owner: "${ORG}", name: "repo-0") { dependencyAlert(number: ${number}) { ${ALERT_FIELDS} } } }`, { token: AL.owner });
    await reopen('repo-0', number!);
    const [dismissed, reopened] = (await events.next(2)).map((r) => r.data!.dependencyAlertEvents);
    expect(dismissed.action).toBe('DISMISSED');
    expect(dismissed.sender).toEqual({ login: 'al-owner' });
    // The dismissal's event shows the alert as the dismissal left it (though it was reopened since), field for field as a query did then.
    expect(dismissed.alert).toEqual(afterDismissal.data.repository.dependencyAlert);
    expect(dismissed.alert).toMatchObject({ number, state: 'DISMISSED', dismissedReason: 'TOLERABLE_RISK', dismissedComment: 'live', dismissedBy: { login: 'al-owner' } });
    expect(reopened.action).toBe('REOPENED');
    expect(reopened.alert).toMatchObject({ number, state: 'OPEN', dismissedAt: null, dismissedBy: null, dismissedReason: null });
    expect(Number(reopened.id)).toBeGreaterThan(Number(dismissed.id));
    expect(Date.parse(dismissed.occurredAt)).toBeLessThanOrEqual(Date.parse(reopened.occurredAt));
  });

  test('an organization\'s events come from every repository the caller may list, assignee changes included', async () => {
    const [a] = await openAlerts('repo-1');
    const [b] = await openAlerts('repo-4');
    const { client } = connect(AL.securityManager);
    const events = subscribe(client, EVENTS, { organization: ORG });
    await subscribed(1);
    await dismiss('repo-1', a!);
    const assign = await t.http().patch(`/repos/${ORG}/repo-4/dependency-bot/alerts/${b}`).set(bearer(AL.owner)).send({ assignees: ['dev-1'] });
    expect(assign.status).toBe(200);
    const got = (await events.next(2)).map((r) => r.data!.dependencyAlertEvents);
    expect(got.map((e) => [e.action, e.alert.repository.nameWithOwner, e.alert.number])).toEqual([
      ['DISMISSED', `${ORG}/repo-1`, a], ['ASSIGNEES_CHANGED', `${ORG}/repo-4`, b],
    ]);
    expect(got[1].alert.assignees).toEqual([{ login: 'dev-1' }]);
    await reopen('repo-1', a!);
    await events.next(3);
  });

  test('actions filters the events; a fine-grained token sees only its selected repositories', async () => {
    const [a] = await openAlerts('repo-0');
    const [b] = await openAlerts('repo-1');
    const reopenedOnly = subscribe(connect(AL.owner).client, EVENTS, { organization: ORG, actions: ['REOPENED'] });
    const selected = subscribe(connect(AL.fineSelected).client, EVENTS, { organization: ORG });
    await subscribed(2);
    await dismiss('repo-0', a!);
    await dismiss('repo-1', b!);
    await reopen('repo-0', a!);
    await reopen('repo-1', b!);
    const reopenings = (await reopenedOnly.next(2)).map((r) => r.data!.dependencyAlertEvents);
    expect(reopenings.map((e) => [e.action, e.alert.repository.nameWithOwner])).toEqual([['REOPENED', `${ORG}/repo-0`], ['REOPENED', `${ORG}/repo-1`]]);
    // fineSelected holds repo-1 and repo-4: repo-0's events never reach it.
    const seen = (await selected.next(2)).map((r) => r.data!.dependencyAlertEvents);
    expect(seen.map((e) => [e.action, e.alert.repository.nameWithOwner])).toEqual([['DISMISSED', `${ORG}/repo-1`], ['REOPENED', `${ORG}/repo-1`]]);
    await pause(300);
    expect(selected.results).toHaveLength(2);
    expect(reopenedOnly.results).toHaveLength(2);
  });

  test('a role taken away stops the flow at once', async () => {
    const [a, b] = await openAlerts('repo-0');
    const manager = subscribe(connect(AL.securityManager).client, EVENTS, { organization: ORG });
    const owner = subscribe(connect(AL.owner).client, EVENTS, { repository: `${ORG}/repo-0` });
    await subscribed(2);
    await dismiss('repo-0', a!);
    await manager.next(1);
    await owner.next(1);
    const roles = await t.http().get(`/orgs/${ORG}/organization-roles`).set(bearer(AL.owner));
    const role = (roles.body.roles as Array<{ id: number; name: string }>).find((r) => r.name === 'security_manager')!;
    const revoked = await t.http().delete(`/orgs/${ORG}/organization-roles/teams/security/${role.id}`).set(bearer(AL.owner));
    expect(revoked.status).toBe(204);
    await dismiss('repo-0', b!);
    // The owner's subscription got the second event: the manager's would have by now.
    await owner.next(2);
    await pause(200);
    expect(manager.results).toHaveLength(1);
    const restored = await t.http().put(`/orgs/${ORG}/organization-roles/teams/security/${role.id}`).set(bearer(AL.owner));
    expect(restored.status).toBe(204);
    await reopen('repo-0', a!);
    await reopen('repo-0', b!);
  });

  test('refused as the lists refuse: a private repository hidden as a missing one, an organization\'s list to outsiders; nothing is subscribed', async () => {
    const { client } = connect(AL.outsider);
    // Organizations are public; their alert list is for owners and security managers (#24's 403).
    const org = await subscribe(client, EVENTS, { organization: ORG }).errors;
    expect(org).toEqual([expect.objectContaining({ extensions: { code: 'FORBIDDEN' } })]);
    const list = await gql(t, `{ organization(login: "${ORG}") { dependencyAlerts { totalCount } } }`, { token: AL.outsider });
    expect(list.errors).toEqual([expect.objectContaining({ message: (org[0] as { message: string }).message, extensions: { code: 'FORBIDDEN' } })]);
    const missing = await subscribe(client, EVENTS, { organization: 'no-such-org' }).errors;
    expect(missing).toEqual([expect.objectContaining({ extensions: { code: 'NOT_FOUND' } })]);
    const hiddenRepo = await subscribe(client, EVENTS, { repository: `${ORG}/repo-0` }).errors;
    const missingRepo = await subscribe(client, EVENTS, { repository: `${ORG}/no-such-repo` }).errors;
    expect(hiddenRepo).toEqual(missingRepo);
    expect(t.services.alertEventStream.size).toBe(0);
  });

  test.each([
    ['neither organization nor repository', {}],
    ['both', { organization: ORG, repository: `${ORG}/repo-0` }],
    ['a repository that is not owner/name', { repository: 'repo-0' }],
  ])('%s: BAD_USER_INPUT', async (_name, variables) => {
    const errors = await subscribe(connect(AL.owner).client, EVENTS, variables).errors;
    expect(errors).toEqual([expect.objectContaining({ message: expect.any(String), extensions: { code: 'BAD_USER_INPUT' } })]);
  });
});

describe('authentication', () => {
  test('the Authorization header of the upgrade request authenticates too', async () => {
    const [number] = await openAlerts('repo-2');
    const events = subscribe(connect(undefined, { headers: { Authorization: `Bearer ${AL.owner}` } }).client, EVENTS, { repository: `${ORG}/repo-2` });
    await subscribed(1);
    await dismiss('repo-2', number!);
    expect((await events.next(1))[0]!.data!.dependencyAlertEvents.action).toBe('DISMISSED');
    await reopen('repo-2', number!);
  });

  test.each([
    ['no credentials', {}, undefined, 4403, 'Requires authentication'],
    ['a bad token', { Authorization: 'Bearer svc_nope' }, undefined, 4403, 'Bad credentials'],
    ['an expired token', { Authorization: `Bearer ${AL.expired}` }, undefined, 4403, 'Bad credentials'],
    ['an Authorization that is not a string', { authorization: 42 }, undefined, 4400, 'Authorization in connection_init must be a string.'],
    ['two different credentials', { Authorization: `Bearer ${AL.owner}` }, { Authorization: `Bearer ${AL.reader}` }, 4400, expect.stringContaining('different credentials')],
  ])('%s: the connection is closed (%#)', async (_name, params, headers, code, reason) => {
    const client = connect(undefined, { params, ...(headers ? { headers } : {}) });
    expect(await client.closed).toEqual({ code, reason });
  });

  test('a revoked token ends its connections with 4403', async () => {
    const issued = await t.services.tokens.create({ type: 'classic', user: 'al-owner', scopes: ['repo'] } as never, commandActor());
    const client = connect(issued.token);
    const events = subscribe(client.client, EVENTS, { organization: ORG });
    await subscribed(1);
    await t.services.tokens.revoke({ token: issued.token! }, commandActor());
    // An event committed at once after the revocation is not delivered: each batch checks the token first.
    const [number] = await openAlerts('repo-4');
    await dismiss('repo-4', number!);
    expect(await client.closed).toEqual({ code: 4403, reason: 'Bad credentials' });
    expect(events.results).toEqual([]);
    await reopen('repo-4', number!);
  });
});

describe('limits and bad input', () => {
  test(`a connection holds at most ${WEBSOCKET_LIMITS.subscriptionsPerConnection} subscriptions; more are refused, the others stay`, async () => {
    const { client } = connect(AL.owner);
    const held = Array.from({ length: WEBSOCKET_LIMITS.subscriptionsPerConnection }, () => subscribe(client, EVENTS, { organization: ORG }));
    await subscribed(WEBSOCKET_LIMITS.subscriptionsPerConnection);
    const refused = await subscribe(client, EVENTS, { organization: ORG }).errors;
    expect(refused).toEqual([expect.objectContaining({ message: expect.stringContaining(`at most ${WEBSOCKET_LIMITS.subscriptionsPerConnection} subscriptions`) })]);
    const [number] = await openAlerts('repo-3');
    await dismiss('repo-3', number!);
    await Promise.all(held.map((s) => s.next(1)));
    await reopen('repo-3', number!);
  });

  test('a flood of subscribe messages: the first 20 subscribe, every other gets its error, the connection and its subscriptions stay', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
    ws.on('message', (data) => messages.push(JSON.parse(String(data))));
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${AL.owner}` } }));
    for (let i = 0; i < 200 && !messages.some((m) => m.type === 'connection_ack'); i++) await pause(10);
    const flood = 500;
    for (let i = 0; i < flood; i++) ws.send(JSON.stringify({ type: 'subscribe', id: String(i), payload: { query: EVENTS, variables: { repository: `${ORG}/repo-5` } } }));
    for (let i = 0; i < 500 && messages.filter((m) => m.type === 'error').length < flood - WEBSOCKET_LIMITS.subscriptionsPerConnection; i++) await pause(10);
    expect(messages.filter((m) => m.type === 'error')).toHaveLength(flood - WEBSOCKET_LIMITS.subscriptionsPerConnection);
    await subscribed(WEBSOCKET_LIMITS.subscriptionsPerConnection);
    expect(t.services.alertEventStream.size).toBe(WEBSOCKET_LIMITS.subscriptionsPerConnection);
    const [number] = await openAlerts('repo-5');
    await dismiss('repo-5', number!);
    for (let i = 0; i < 500 && messages.filter((m) => m.type === 'next').length < WEBSOCKET_LIMITS.subscriptionsPerConnection; i++) await pause(10);
    expect(new Set(messages.filter((m) => m.type === 'next').map((m) => m.id)).size).toBe(WEBSOCKET_LIMITS.subscriptionsPerConnection);
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
    await reopen('repo-5', number!);
  });

  test(`a token opens at most ${WEBSOCKET_LIMITS.connectionsPerToken} connections (4429)`, async () => {
    const open = Array.from({ length: WEBSOCKET_LIMITS.connectionsPerToken }, () => connect(AL.triager));
    await Promise.all(open.map((c) => new Promise<void>((resolve) => { c.client.on('connected', () => resolve()); })));
    const extra = connect(AL.triager);
    expect(await extra.closed).toEqual({ code: 4429, reason: expect.stringContaining(`${WEBSOCKET_LIMITS.connectionsPerToken} connections`) });
  });

  test('queries and mutations are refused over WebSocket; a subscription over HTTP is refused', async () => {
    const { client } = connect(AL.owner);
    const query = await subscribe(client, `{ viewer { login } }`).errors;
    expect(query).toEqual([expect.objectContaining({ message: expect.stringContaining('over HTTP') })]);
    const overHttp = await gql(t, `subscription { dependencyAlertEvents(organization: "${ORG}") { id } }`, { token: AL.owner });
    expect(overHttp.status).toBeLessThan(500);
    expect(overHttp.errors).toEqual([expect.objectContaining({ message: expect.stringContaining('WebSocket') })]);
  });

  test('an invalid document is answered with its validation errors; the connection stays', async () => {
    const { client } = connect(AL.owner);
    const errors = await subscribe(client, 'subscription { dependencyAlertEvents(organization: "x") { nope } }').errors;
    expect(errors).toEqual([expect.objectContaining({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })]);
    const parse = await subscribe(client, 'subscription {').errors;
    expect(parse).toEqual([expect.objectContaining({ extensions: { code: 'GRAPHQL_PARSE_FAILED' } })]);
  });

  test('an oversized message closes the connection with 1009; a raw socket on another path is refused with 404', async () => {
    const ws = new WebSocket(`${t.url.replace('http', 'ws')}/graphql`, 'graphql-transport-ws');
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ type: 'connection_init', payload: { Authorization: `Bearer ${AL.owner}`, padding: 'x'.repeat(WEBSOCKET_LIMITS.maxMessageBytes) } }));
    const code = await new Promise((resolve) => ws.once('close', resolve));
    expect(code).toBe(1009);
    const elsewhere = new WebSocket(`${t.url.replace('http', 'ws')}/repos`, 'graphql-transport-ws');
    elsewhere.on('error', () => undefined); // refused before the handshake: ws reports it as an error
    const status = await new Promise((resolve) => elsewhere.once('unexpected-response', (_req, res) => resolve(res.statusCode)));
    expect(status).toBe(404);
    elsewhere.terminate();
  });

  test('a subscribe before connection_init is 4401; a second connection_init is 4429; only graphql-transport-ws is spoken', async () => {
    const url = `${t.url.replace('http', 'ws')}/graphql`;
    const closeOf = async (protocol: string, messages: unknown[]) => {
      const ws = new WebSocket(url, protocol);
      await new Promise((resolve) => ws.once('open', resolve));
      for (const message of messages) ws.send(JSON.stringify(message));
      return new Promise((resolve) => ws.once('close', (closeCode) => resolve(closeCode)));
    };
    expect(await closeOf('graphql-transport-ws', [{ type: 'subscribe', id: '1', payload: { query: EVENTS } }])).toBe(4401);
    const init = { type: 'connection_init', payload: { Authorization: `Bearer ${AL.owner}` } };
    expect(await closeOf('graphql-transport-ws', [init, init])).toBe(4429);
    // The deprecated subscriptions-transport-ws protocol alone: no subprotocol is chosen, so the handshake fails at the client.
    const legacy = new WebSocket(url, 'graphql-ws');
    expect(await new Promise((resolve) => { legacy.once('error', (error) => resolve(error.message)); legacy.once('open', () => resolve('open')); })).toBe('Server sent no subprotocol');
    // Offered beside it, graphql-transport-ws is chosen whatever the order.
    const both = new WebSocket(url, ['graphql-ws', 'graphql-transport-ws']);
    await new Promise((resolve) => both.once('open', resolve));
    expect(both.protocol).toBe('graphql-transport-ws');
    both.close();
  });

  test('a token for another organization is refused its events as #24 refuses its list', async () => {
    const errors = await subscribe(connect(AL.installationOther).client, EVENTS, { organization: ORG }).errors;
    const rest = await t.http().get(`/orgs/${ORG}/dependency-bot/alerts`).set(bearer(AL.installationOther));
    expect(rest.status).toBe(404);
    expect(errors).toEqual([expect.objectContaining({ extensions: { code: 'NOT_FOUND' } })]);
    const own = subscribe(connect(AL.installationOther).client, EVENTS, { organization: OTHER_ORG });
    await subscribed(1);
    expect(own.results).toEqual([]);
  });
});
