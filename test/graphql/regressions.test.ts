import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { gql } from '../helpers/graphql';
import { encodeNodeId } from '../../src/shared/node-id';

// Findings of a review of the GraphQL gateway, each pinned by a test.

const DEMO = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'db', 'demo-world.json'), 'utf8'));
const ALICE = 'svc_demo_alice_owner';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(DEMO);
});
afterAll(() => t.close());

it('node(id) of a team answers NOT_FOUND to callers REST does not show teams to, and the team to an owner', async () => {
  const team = await t.db.knex('teams').where({ slug: 'security' }).first('id');
  const id = encodeNodeId('Team', Number(team.id));
  for (const token of [undefined, 'svc_demo_dave_outside', 'svc_demo_frank_globex', 'svc_demo_bob_member']) {
    const res = await gql(t, 'query($id: ID!) { node(id: $id) { id ... on Team { slug } } }', { ...(token ? { token } : {}), variables: { id } });
    expect({ token, data: res.data, code: res.errors?.[0]?.extensions.code }).toEqual({ token, data: { node: null }, code: 'NOT_FOUND' });
  }
  const owner = await gql(t, 'query($id: ID!) { node(id: $id) { ... on Team { slug } } }', { token: ALICE, variables: { id } });
  expect(owner.data).toEqual({ node: { slug: 'security' } });
});

it('node(id) of an alert in a private repository answers an anonymous caller NOT_FOUND, like a missing id', async () => {
  const alert = await t.db.knex('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id').where('r.private', true).first('a.id');
  const hidden = await gql(t, 'query($id: ID!) { node(id: $id) { id } }', { variables: { id: encodeNodeId('DependencyAlert', Number(alert.id)) } });
  const missing = await gql(t, 'query($id: ID!) { node(id: $id) { id } }', { variables: { id: encodeNodeId('DependencyAlert', 999999) } });
  expect({ message: hidden.errors?.[0]?.message, extensions: hidden.errors?.[0]?.extensions }).toEqual({ message: missing.errors?.[0]?.message, extensions: missing.errors?.[0]?.extensions });
  expect(hidden.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
});

it('a connection without first is costed at the default page size, so nesting them is refused', async () => {
  const nested = '{ organization(login: "acme-corp") { dependencyAlerts { edges { node { repository { dependencyAlerts { edges { node { repository { dependencyAlerts { edges { node { number } } } } } } } } } } } } }';
  const res = await gql(t, nested, { token: ALICE });
  expect(res.errors?.[0]?.extensions.code).toBe('QUERY_TOO_COMPLEX');
});

it('aliases inside fragments count once for every place the fragment is spread', async () => {
  const fields = Array.from({ length: 10 }, (_, i) => `a${i}: login`).join(' ');
  const spreads = Array.from({ length: 5 }, (_, i) => `o${i}: organization(login: "acme-corp") { ...F }`).join(' ');
  const res = await gql(t, `query { ${spreads} } fragment F on Organization { ${fields} }`, { token: ALICE });
  expect(res.status).toBe(200); // application/json: refused by its errors (legacy-json-statuses.plugin.ts)
  expect(res.errors?.[0]?.message).toMatch(/more than 30 aliases/);
});

it('values the database cannot hold (a NUL byte) are the caller\'s input, never an internal error', async () => {
  const queries = [
    '{ organization(login: "a\\u0000b") { login } }',
    '{ organization(login: "acme-corp") { dependencyAlerts(packages: ["a\\u0000"]) { totalCount } } }',
    '{ repository(owner: "acme-corp", name: "web") { attestations(subjectDigest: "sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548", predicateType: "x\\u0000") { totalCount } } }',
  ];
  for (const query of queries) {
    const res = await gql(t, query, { token: ALICE });
    expect(res.errors?.map((e) => e.extensions.code) ?? []).not.toContain('INTERNAL_SERVER_ERROR');
  }
});

it('a deeply nested JSON argument is refused with 400 before anything walks it', async () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 2000; i++) deep = { x: deep };
  const res = await t.http().post('/graphql').set('Content-Type', 'application/json').set('Authorization', `Bearer ${ALICE}`)
    .send(JSON.stringify({ query: 'mutation($b: JSON!) { createAttestation(input: {owner: "acme-corp", repository: "api", bundle: $b}) { attestation { databaseId } } }', variables: { b: deep } }));
  expect(res.status).toBe(400);
});

it('a malformed Host header and a token in the query string are refused, as in REST', async () => {
  const badHost = await t.http().post('/graphql').set('Host', 'evil.example/phish?x=').set('Content-Type', 'application/json').send({ query: '{ viewer { login } }' });
  expect(badHost.status).toBe(400);
  const inUrl = await t.http().post(`/graphql?access_token=${ALICE}`).set('Content-Type', 'application/json').send({ query: '{ viewer { login } }' });
  expect(inUrl.status).toBe(400);
});

it('a failed mutation leaves the results of the others in the same request', async () => {
  const res = await gql(t, `mutation {
    a: assignOrganizationRoleToUser(input: {organization: "acme-corp", user: "erin", roleId: 8132}) { user { login } }
    b: updateDependencyAlert(input: {owner: "acme-corp", repository: "api", number: 1, state: DISMISSED}) { dependencyAlert { number } }
  }`, { token: ALICE });
  expect(res.data).toEqual({ a: { user: { login: 'erin' } }, b: null });
  expect(res.errors?.[0]?.path).toEqual(['b']);
});

it('an EPSS bound written in exponent notation is accepted', async () => {
  const res = await gql(t, '{ organization(login: "acme-corp") { dependencyAlerts(epssPercentage: {greaterThan: 1e-7}) { totalCount } } }', { token: ALICE });
  expect(res.errors).toBeUndefined();
  expect(res.data.organization.dependencyAlerts.totalCount).toBeGreaterThan(0);
});

it('Relay paging: the last page has no next page, discouraged mixes are refused, and last means the last', async () => {
  const last = await gql(t, '{ organization(login: "acme-corp") { dependencyAlerts(last: 2) { pageInfo { hasNextPage hasPreviousPage } } } }', { token: ALICE });
  expect(last.data.organization.dependencyAlerts.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: true });
  const mixed = await gql(t, '{ organization(login: "acme-corp") { dependencyAlerts(first: 2, before: "x") { totalCount } } }', { token: ALICE });
  expect(mixed.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
  const users = await gql(t, '{ organization(login: "acme-corp") { organizationRole(databaseId: 8132) { users(last: 1) { edges { node { login } } } all: users(first: 100) { edges { node { login } } } } } }', { token: ALICE });
  const all = users.data.organization.organizationRole.all.edges.map((e: any) => e.node.login);
  expect(users.data.organization.organizationRole.users.edges.map((e: any) => e.node.login)).toEqual([all[all.length - 1]]);
});
