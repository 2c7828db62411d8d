import fs from 'node:fs';
import path from 'node:path';
import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { encodeNodeId } from '../../src/shared/node-id';
import { startBudgetsSubgraph } from '../helpers/budgets-subgraph';
import { gql } from '../helpers/graphql';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Issue 38, part 1: orgsec as an Apollo Federation 2 subgraph. A real @apollo/gateway composes
// it (IntrospectAndCompose) with a small second subgraph that extends Organization by its login
// and refers to repositories by nameWithOwner; the gateway forwards each caller's Authorization,
// so what a caller may not see is null through the supergraph too.

const DEMO = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'db', 'demo-world.json'), 'utf8'));
const ALICE = 'svc_demo_alice_owner';
/** An owner of another organization: acme-corp's private repositories are not theirs to see (dave, an outside collaborator, may read acme-corp/api). */
const FRANK = 'svc_demo_frank_globex';

let t: TestApp;
let budgets: { url: string; stop(): Promise<void> };
let gateway: { url: string; stop(): Promise<void> };

beforeAll(async () => {
  t = await createTestApp();
  await t.load(DEMO);
  budgets = await startBudgetsSubgraph();
  const apolloGateway = new ApolloGateway({
    supergraphSdl: new IntrospectAndCompose({ subgraphs: [{ name: 'orgsec', url: `${t.url}/graphql` }, { name: 'budgets', url: budgets.url }] }),
    // The gateway forwards each caller's Authorization to the subgraphs, as the README shows.
    buildService: ({ url }) => new RemoteGraphQLDataSource<{ authorization?: string }>({
      url: url!,
      willSendRequest({ request, context }) {
        if (context.authorization) request.http?.headers.set('authorization', context.authorization);
      },
    }),
  });
  const gatewayServer = new ApolloServer({ gateway: apolloGateway });
  const gatewayStarted = await startStandaloneServer(gatewayServer, {
    listen: { port: 0, host: '127.0.0.1' },
    context: async ({ req }) => ({ authorization: req.headers.authorization }),
  });
  gateway = { url: gatewayStarted.url, stop: () => gatewayServer.stop() };
});
afterAll(async () => {
  await gateway?.stop();
  await budgets?.stop();
  await t.close();
});

async function throughGateway(query: string, token?: string) {
  const res = await fetch(gateway.url, {
    method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify({ query }),
  });
  return (await res.json()) as { data?: any; errors?: Array<{ message: string; path?: unknown[] }> };
}

describe('the subgraph', () => {
  it('answers _service with its SDL under Federation 2\'s @link, each Node an entity by id, users and organizations by login, repositories by nameWithOwner', async () => {
    const res = await gql(t, '{ _service { sdl } }');
    const sdl: string = res.data._service.sdl;
    expect(sdl).toMatch(/@link\(url: "https:\/\/specs\.apollo\.dev\/federation\/v2\.\d+"/);
    for (const type of ['User', 'Organization', 'Enterprise', 'Team', 'Repository', 'OrganizationRole', 'DependencyAlert', 'Attestation', 'SecurityAdvisory']) {
      expect({ type, key: new RegExp(`type ${type} implements Node[^{]*@key\\(fields: "id"\\)`).test(sdl) }).toEqual({ type, key: true });
    }
    expect(sdl).toMatch(/type Organization implements Node[^{]*@key\(fields: "login"\)/);
    expect(sdl).toMatch(/type User implements Node[^{]*@key\(fields: "login"\)/);
    expect(sdl).toMatch(/type Repository implements Node[^{]*@key\(fields: "nameWithOwner"\)/);
    // npm run schema writes it beside schema.graphql: the committed file is what the server answers.
    expect(fs.readFileSync(path.join(__dirname, '..', '..', 'src', 'graphql', 'subgraph.graphql'), 'utf8')).toBe(`${sdl}\n`);
  });

  it('resolves each representation exactly as node(id:), organization(login:) and repository(owner:, name:) do for the caller', async () => {
    const repo = await t.db.knex('repositories').where('name', 'api').first('id');
    const id = encodeNodeId('Repository', Number(repo.id));
    const query = `query($r: [_Any!]!) { _entities(representations: $r) { __typename ... on Repository { nameWithOwner isPrivate } ... on Organization { login } ... on User { login } } }`;
    const representations = [
      { __typename: 'Repository', id }, { __typename: 'Repository', nameWithOwner: 'acme-corp/api' }, { __typename: 'Organization', login: 'acme-corp' },
      { __typename: 'User', login: 'bob' }, { __typename: 'Repository', nameWithOwner: 'acme-corp/nope' }, { __typename: 'Organization', id },
    ];
    const owner = await gql(t, query, { token: ALICE, variables: { r: representations } });
    expect(owner.errors).toBeUndefined();
    expect(owner.data._entities).toEqual([
      { __typename: 'Repository', nameWithOwner: 'acme-corp/api', isPrivate: true }, { __typename: 'Repository', nameWithOwner: 'acme-corp/api', isPrivate: true },
      { __typename: 'Organization', login: 'acme-corp' }, { __typename: 'User', login: 'bob' }, null, null,
    ]);
    const outsider = await gql(t, query, { token: FRANK, variables: { r: representations.slice(0, 2) } });
    expect(outsider.data._entities).toEqual([null, null]);
    const anonymous = await gql(t, query, { variables: { r: representations.slice(0, 2) } });
    expect(anonymous.data._entities).toEqual([null, null]);
    // What a private thing answers is what a missing one does: nothing tells them apart.
    const missing = await gql(t, query, { token: FRANK, variables: { r: [{ __typename: 'Repository', nameWithOwner: 'acme-corp/nope' }] } });
    expect(JSON.stringify(missing.errors)).toBe(JSON.stringify(outsider.errors));
  });

  it('refuses malformed representations with an error, never a 500, and answers a thousand of them', async () => {
    const query = 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }';
    const unknown = await t.http().post('/graphql').set('Authorization', `Bearer ${ALICE}`).send({ query, variables: { r: [{ __typename: 'NoSuchType', id: 'x' }] } });
    expect(unknown.status).toBe(200);
    expect(unknown.body.errors[0]).toMatchObject({ message: 'NoSuchType is not an entity of this graph.', extensions: { code: 'BAD_USER_INPUT' } });
    const keyless = await gql(t, query, { token: ALICE, variables: { r: [{ __typename: 'Repository' }, { __typename: 'Organization', login: 42 }] } });
    expect(keyless.data._entities).toEqual([null, null]);
    const many = await gql(t, query, { token: ALICE, variables: { r: Array.from({ length: 1000 }, () => ({ __typename: 'Organization', login: 'acme-corp' })) } });
    expect(many.errors).toBeUndefined();
    expect(many.data._entities).toHaveLength(1000);
  });
});

describe('composed by @apollo/gateway', () => {
  it('answers fields of both subgraphs in one query, orgsec\'s entities resolved by login for the caller', async () => {
    const res = await throughGateway('{ budgets { login budget description organizationRoles { name } } }', ALICE);
    // globex's roles are not alice's to list: null, with REST's 403 as the error, through the gateway too.
    expect(res.errors?.map((e) => [e.path, (e as { extensions?: { code?: string } }).extensions?.code])).toEqual([[['budgets', 1, 'organizationRoles'], 'FORBIDDEN']]);
    expect(res.data.budgets).toEqual([
      { login: 'acme-corp', budget: 1200, description: expect.any(String), organizationRoles: expect.arrayContaining([{ name: 'security_manager' }]) },
      { login: 'globex', budget: 300, description: expect.any(String), organizationRoles: null },
    ]);
  });

  it('shows a repository the caller may see, and null for one it may not (an outsider, no token)', async () => {
    const query = '{ deployments { environment repository { nameWithOwner isPrivate } } }';
    expect((await throughGateway(query, ALICE)).data.deployments).toEqual([
      { environment: 'production', repository: { nameWithOwner: 'acme-corp/api', isPrivate: true } },
      { environment: 'staging', repository: { nameWithOwner: 'acme-corp/web', isPrivate: false } },
    ]);
    for (const token of [FRANK, undefined]) {
      const res = await throughGateway(query, token);
      expect(res.data?.deployments?.[0]?.repository ?? null).toBeNull();
    }
  });

  it('gives nothing private without a token, through the gateway as directly', async () => {
    const res = await throughGateway('{ budgets { login organizationRoles { name } } }');
    expect(res.data.budgets.map((b: { organizationRoles: unknown }) => b.organizationRoles)).toEqual([null, null]);
  });
});
