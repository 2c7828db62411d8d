import 'reflect-metadata'; // src/graphql/limits loads type-graphql classes
import pino from 'pino';
import request from 'supertest';
import { createApp } from '../../src/app';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { gql } from '../helpers/graphql';
import { MAX_ALIASES, MAX_DEPTH } from '../../src/graphql/limits';
import { rolesWorld, TOKENS } from '../helpers/roles-world';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(rolesWorld());
});
afterAll(() => t.close());

it('refuses a query deeper than the limit, naming the limit', async () => {
  const deep = `{ repository(owner: "x", name: "y") { ${'owner { ... on Organization { enterprise { id } } } '.repeat(1)}${'dependencyAlerts { edges { node { repository { '.repeat(4)}id${' } } } }'.repeat(4)} } }`;
  const res = await gql(t, deep, { token: TOKENS.ownerClassic });
  expect(res.status).toBe(200); // application/json: a refused document is told by its errors (legacy-json-statuses.plugin.ts)
  expect(res.errors?.[0]?.message).toBe(`The anonymous operation exceeds the maximum depth of ${MAX_DEPTH}.`);
});

it('refuses more aliases than the limit', async () => {
  const aliased = Array.from({ length: MAX_ALIASES + 1 }, (_, i) => `a${i}: viewer { login }`).join(' ');
  const res = await gql(t, `{ ${aliased} }`, { token: TOKENS.ownerClassic });
  expect(res.status).toBe(200);
  // Apollo files validation-rule errors under one code; the message says which limit.
  expect(res.errors?.[0]).toMatchObject({ message: `The query uses more than ${MAX_ALIASES} aliases.`, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
});

it('refuses a query whose cost grows past the limit with the page sizes it asks for', async () => {
  const costly = '{ organization(login: "octo-org") { dependencyAlerts(first: 100) { edges { node { assignees { login } repository { dependencyAlerts(first: 100) { edges { node { number } } } } } } } } }';
  const res = await gql(t, costly, { token: TOKENS.ownerClassic });
  expect(res.status).toBe(200);
  expect(res.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COMPLEX' });
  const cheap = '{ organization(login: "octo-org") { dependencyAlerts(first: 5) { edges { node { number } } } } }';
  const cheapErrors = (await gql(t, cheap, { token: TOKENS.ownerClassic })).errors ?? [];
  expect(cheapErrors.map((e) => e.extensions.code)).not.toContain('QUERY_TOO_COMPLEX');
});

it('refuses batched operations (one operation per request)', async () => {
  const res = await t.http().post('/graphql').set('Content-Type', 'application/json').send([{ query: '{ viewer { login } }' }, { query: '{ viewer { login } }' }]);
  expect(res.status).toBe(400);
});

describe('with GRAPHQL_EXPLORER=off', () => {
  it('introspection is refused and a browser gets no Sandbox', async () => {
    const app = await createApp({ services: t.services, logger: pino({ level: 'silent' }), graphqlExplorer: false });
    const introspection = await request(app).post('/graphql').set('Content-Type', 'application/json').send({ query: '{ __schema { queryType { name } } }' });
    expect(introspection.body.errors?.[0]?.message).toMatch(/introspection/i);
    const page = await request(app).get('/graphql').set('Accept', 'text/html');
    expect(page.text).not.toMatch(/sandbox/i);
  });
});
