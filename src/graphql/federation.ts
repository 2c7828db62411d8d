import { buildSubgraphSchema } from '@apollo/subgraph';
import { printSchemaWithDirectives } from '@graphql-tools/utils';
import {
  graphqlSync, isInputObjectType, isInterfaceType, isObjectType, isUnionType, parse, type GraphQLArgument, type GraphQLField, type GraphQLInputField, type GraphQLNamedType, type GraphQLSchema,
} from 'graphql';
import { createResolversMap } from 'type-graphql';
import { AuthenticationError, BadRequestError, ForbiddenError, NotFoundError } from '../errors/domain';
import { toOrganization, toRepository, toUser } from '../modules/accounts/graphql/account.types';
import { decodeNodeId } from '../shared/node-id';
import type { GraphQLContext } from './context';
import { resolveNode } from './node.resolver';

// orgsec as an Apollo Federation 2 subgraph (issue 38), by the path type-graphql documents:
// its schema printed with the `@key`s its types declare, under Federation 2's `@link`, and
// built again by @apollo/subgraph with type-graphql's own resolvers, which adds `_service` and
// `_entities`. Each entity a gateway asks for resolves exactly as `node(id:)`,
// `organization(login:)` and `repository(owner:, name:)` do for the caller whose Authorization
// the gateway forwards: what the caller may not see, or what does not exist, is null.

export const FEDERATION_VERSION = 'https://specs.apollo.dev/federation/v2.7';
const LINK = `extend schema @link(url: "${FEDERATION_VERSION}", import: ["@key"])`;

type Representation = { __typename: string } & Record<string, unknown>;

/** Null for what the caller may not see, as node(id:) answers it (never which of the two). */
async function hiddenAsNull<T>(find: () => Promise<T | undefined>): Promise<T | null> {
  try {
    return (await find()) ?? null;
  } catch (error) {
    if (error instanceof AuthenticationError || error instanceof ForbiddenError || error instanceof NotFoundError) return null;
    throw error;
  }
}

/** By its global id, whatever the type: the id must name an object of the representation's type. */
function byId(reference: Representation, ctx: GraphQLContext) {
  const decoded = typeof reference.id === 'string' ? decodeNodeId(reference.id) : undefined;
  if (!decoded || decoded.type !== reference.__typename) return null;
  return hiddenAsNull(() => resolveNode(ctx, decoded.type, decoded.id, decoded.scope));
}

const byKey = (other: (reference: Representation, ctx: GraphQLContext) => Promise<unknown>) => ({
  __resolveReference: (reference: Representation, ctx: GraphQLContext) => ('id' in reference ? byId(reference, ctx) : other(reference, ctx)),
});

/** Each entity type's `__resolveReference`: by `id` for every Node; users and organizations by `login`, repositories by `nameWithOwner`. */
function referenceResolvers(schema: GraphQLSchema): Record<string, { __resolveReference: (reference: Representation, ctx: GraphQLContext) => unknown }> {
  const resolvers: Record<string, { __resolveReference: (reference: Representation, ctx: GraphQLContext) => unknown }> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node')) resolvers[type.name] = { __resolveReference: byId };
  }
  const login = (reference: Representation) => (typeof reference.login === 'string' ? reference.login : undefined);
  resolvers.User = byKey((reference, ctx) => hiddenAsNull(async () => {
    const name = login(reference);
    return name === undefined ? undefined : toUser(ctx.apiBase, await ctx.services.accounts.getUser(ctx.principal, name));
  }));
  resolvers.Organization = byKey((reference, ctx) => hiddenAsNull(async () => {
    const name = login(reference);
    const org = name === undefined ? undefined : await ctx.services.accounts.visibleOrganization(ctx.principal, name);
    return org ? toOrganization(ctx.apiBase, org) : undefined;
  }));
  resolvers.Repository = byKey((reference, ctx) => hiddenAsNull(async () => {
    const [owner, name, ...rest] = typeof reference.nameWithOwner === 'string' ? reference.nameWithOwner.split('/') : [];
    if (!owner || !name || rest.length > 0) return undefined;
    const repo = await ctx.services.accounts.visibleRepository(ctx.principal, owner, name);
    return repo ? toRepository(ctx.apiBase, repo) : undefined;
  }));
  return resolvers;
}

/**
 * The schema Apollo serves: type-graphql's, as a Federation 2 subgraph. What SDL cannot carry
 * is taken from type-graphql's schema: field extensions (the complexity costs the limits read)
 * and default values (an enum default read from SDL is the value's name, not the internal
 * value its resolvers expect).
 */
export function subgraphSchemaOf(schema: GraphQLSchema): GraphQLSchema {
  const typeDefs = parse(`${LINK}\n${printSchemaWithDirectives(schema)}`);
  const resolvers: Record<string, object> = createResolversMap(schema) as Record<string, object>;
  for (const [type, reference] of Object.entries(referenceResolvers(schema))) resolvers[type] = { ...resolvers[type], ...reference };
  const subgraph = buildSubgraphSchema({ typeDefs, resolvers: resolvers as never });
  for (const type of Object.values(schema.getTypeMap())) carryOver(type, subgraph.getType(type.name));
  refuseUnknownEntities(subgraph);
  return subgraph;
}

/** A representation naming no entity type is the caller's mistake (@apollo/subgraph throws a plain Error: a 500's message). */
function refuseUnknownEntities(subgraph: GraphQLSchema): void {
  const entities = subgraph.getType('_Entity');
  const field = subgraph.getQueryType()?.getFields()._entities as Writable<GraphQLField<unknown, unknown>> | undefined;
  if (!entities || !isUnionType(entities) || !field?.resolve) return;
  const names = new Set(entities.getTypes().map((type) => type.name));
  const resolve = field.resolve;
  field.resolve = (source, args, context, info) => {
    for (const representation of (args as { representations: Representation[] }).representations) {
      const name = representation?.__typename;
      if (typeof name !== 'string' || !names.has(name)) throw new BadRequestError(`${typeof name === 'string' ? name : 'A representation without a __typename'} is not an entity of this graph.`);
    }
    return resolve(source, args, context, info);
  };
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

function carryOver(from: GraphQLNamedType, to: GraphQLNamedType | undefined): void {
  if ((isObjectType(from) || isInterfaceType(from)) && to && (isObjectType(to) || isInterfaceType(to))) {
    const fields = to.getFields();
    for (const [name, field] of Object.entries(from.getFields())) {
      const target = fields[name] as Writable<GraphQLField<unknown, unknown>> | undefined;
      if (!target) continue;
      target.extensions = { ...field.extensions, ...target.extensions };
      for (const arg of field.args) {
        const targetArg = target.args.find((a) => a.name === arg.name) as Writable<GraphQLArgument> | undefined;
        if (targetArg) targetArg.defaultValue = arg.defaultValue;
      }
    }
  }
  if (isInputObjectType(from) && to && isInputObjectType(to)) {
    const fields = to.getFields();
    for (const [name, field] of Object.entries(from.getFields())) {
      const target = fields[name] as Writable<GraphQLInputField> | undefined;
      if (target) target.defaultValue = field.defaultValue;
    }
  }
}

/** src/graphql/subgraph.graphql: the SDL `_service { sdl }` answers, which `npm run schema` writes beside schema.graphql. */
export function printedSubgraphSchema(schema: GraphQLSchema): string {
  const answer = graphqlSync({ schema: subgraphSchemaOf(schema), source: '{ _service { sdl } }' });
  return `${(answer.data as { _service: { sdl: string } })._service.sdl}\n`;
}
