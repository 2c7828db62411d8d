import { createHash } from 'node:crypto';
import {
  GraphQLError, buildSchema, execute, getOperationAST, isAbstractType, isObjectType, isScalarType, parse,
  type ExecutionResult, type GraphQLFieldResolver, type GraphQLScalarType, type GraphQLSchema, type GraphQLTypeResolver,
} from 'graphql';
import { GraphQLDateTime } from 'graphql-scalars';
import { compiledExecutor } from '../../src/graphql/compiled-executor';
import type { GatewayExecutor } from '../../src/graphql/executor-gateway';

// The compiled executor answers exactly as graphql-js does: data, null propagation, error
// paths, locations and extensions, abstract types, custom scalars, introspection, variables.

type Resolvers = Record<string, GraphQLScalarType | { __resolveType: GraphQLTypeResolver<any, unknown> } | Record<string, GraphQLFieldResolver<any, unknown>>>;

/** A schema from SDL with resolvers set on it, as graphql-js reads them. */
function schemaOf(sdl: string, resolvers: Resolvers): GraphQLSchema {
  const schema = buildSchema(sdl);
  for (const [name, given] of Object.entries(resolvers)) {
    const type = schema.getType(name);
    if (isScalarType(type)) Object.assign(type, { serialize: (given as GraphQLScalarType).serialize, parseValue: (given as GraphQLScalarType).parseValue });
    else if (isAbstractType(type)) type.resolveType = (given as { __resolveType: GraphQLTypeResolver<any, unknown> }).__resolveType;
    else if (isObjectType(type)) for (const [field, resolve] of Object.entries(given)) type.getFields()[field]!.resolve = resolve as GraphQLFieldResolver<any, unknown>;
  }
  return schema;
}

const schema = schemaOf(`
  scalar DateTime
  interface Node { id: ID! }
  type User implements Node { id: ID! login: String! }
  type Org implements Node { id: ID! login: String! members: [User!]! }
  union Owner = User | Org
  type Query {
    org(login: String!): Org
    owner(login: String!): Owner
    node(id: ID!): Node
    now: DateTime!
    strict: String!
    wrapper: Wrapper
    coded: String
  }
  type Wrapper { strict: String! other: String }
  type Mutation { rename(login: String!): Org }
`, {
  DateTime: GraphQLDateTime,
  Node: { __resolveType: (v: { id: string }) => (v.id.startsWith('U') ? 'User' : 'Org') },
  Owner: { __resolveType: (v: { id: string }) => (v.id.startsWith('U') ? 'User' : 'Org') },
  Query: {
    org: (_: unknown, { login }: { login: string }) => (login === 'acme' ? { id: 'O1', login, members: [{ id: 'U1', login: 'alice' }] } : null),
    owner: (_: unknown, { login }: { login: string }) => (login === 'alice' ? { id: 'U1', login } : { id: 'O1', login, members: [] }),
    node: (_: unknown, { id }: { id: string }) => ({ id, login: 'x', members: [] }),
    now: () => new Date('2026-03-01T12:00:00Z'),
    strict: () => null,
    wrapper: () => ({ strict: null, other: 'kept' }),
    coded: () => {
      throw new GraphQLError('not here', { extensions: { code: 'NOT_FOUND' } });
    },
  },
  Mutation: { rename: (_: unknown, { login }: { login: string }) => ({ id: 'O1', login, members: [] }) },
});

async function both(query: string, variables: Record<string, unknown> = {}): Promise<[unknown, unknown]> {
  const document = parse(query);
  const operation = getOperationAST(document)!;
  const requestContext = {
    document, operation, request: { query, variables }, context: {}, queryHash: createHash('sha256').update(query).digest('hex'),
  } as unknown as Parameters<GatewayExecutor>[0];
  const compiled = await executor(requestContext);
  const reference = await execute({ schema, document, variableValues: variables, contextValue: {} });
  return [plain(compiled), plain(reference)];
}

/** What Apollo reads of a result: data, and each error as graphql-js formats it (with extensions). */
function plain(result: ExecutionResult): unknown {
  return { data: result.data, errors: result.errors?.map((e) => ({ ...e.toJSON(), extensions: e.extensions, isGraphQLError: e instanceof GraphQLError })) };
}

let executor: GatewayExecutor;
beforeAll(() => {
  executor = compiledExecutor(schema, 2);
});

it.each([
  ['fields, lists and custom scalars', '{ org(login: "acme") { id login members { login } } now }'],
  ['a missing object is null', '{ org(login: "nope") { login } }'],
  ['unions and interfaces resolve their object type', '{ owner(login: "alice") { __typename ... on User { login } } other: owner(login: "acme") { ... on Org { login } } node(id: "U9") { id __typename } }'],
  ['a null in a non-null field nulls its parent, with the error\'s path and location', '{ wrapper { strict other } }'],
  ['a null at a non-null root field nulls the data', '{ strict }'],
  ['a resolver\'s error keeps its code', '{ coded org(login: "acme") { login } }'],
  ['introspection', '{ __schema { queryType { name } } __type(name: "Org") { fields { name } } }'],
  ['mutations', 'mutation { rename(login: "new") { login } }'],
])('%s: as graphql-js', async (_name, query) => {
  const [compiled, reference] = await both(query);
  expect(compiled).toEqual(reference);
  // Asked again, the operation comes from the cache (capacity 2) and still answers the same.
  expect((await both(query))[0]).toEqual(reference);
});

it('@skip and @include on fields, fragment spreads and inline fragments: as graphql-js', async () => {
  const query = `query($yes: Boolean!, $no: Boolean!) { org(login: "acme") {
    id @skip(if: $yes) login @include(if: $yes) ...Members @include(if: $no) ... on Org @skip(if: $no) { members { id } } ...Members
  } } fragment Members on Org { members { login } }`;
  // The same fragment spread again after a skipped spread of it (graphql-jit 0.8.9 drops it).
  const again = 'query($yes: Boolean!) { org(login: "acme") { ...Members @skip(if: $yes) ...Members } } fragment Members on Org { members { login } }';
  for (const [text, variables] of [[query, { yes: true, no: false }], [query, { yes: false, no: true }], [again, { yes: true }], [again, { yes: false }]] as const) {
    const [compiled, reference] = await both(text, variables);
    expect(compiled).toEqual(reference);
  }
});

it('variables: coerced, and refused with graphql-js\'s own error', async () => {
  const query = 'query($login: String!) { org(login: $login) { login } }';
  const [ok, okReference] = await both(query, { login: 'acme' });
  expect(ok).toEqual(okReference);
  const [refused, refusedReference] = await both(query, { login: 42 });
  expect(refused).toEqual(refusedReference);
  expect((refused as { data: unknown }).data).toBeUndefined();
});
