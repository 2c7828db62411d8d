import { Field, ID, InterfaceType } from 'type-graphql';

// The GraphQL type of an object follows from its global id's prefix (shared/node-id.ts).
const TYPE_BY_PREFIX: Record<string, string> = {
  U: 'User', O: 'Organization', E: 'Enterprise', T: 'Team', R: 'Repository',
  OR: 'OrganizationRole', DA: 'DependencyAlert', SA: 'SecurityAdvisory', AT: 'Attestation',
};

/** The GraphQL type name of any object with a global id. */
export function nodeTypeName(value: { id: string }): string | undefined {
  return TYPE_BY_PREFIX[value.id.slice(0, value.id.indexOf('_'))];
}

@InterfaceType({
  description: 'An object with a global, opaque identity, fetchable with `node(id:)`.',
  resolveType: nodeTypeName,
})
export abstract class Node {
  @Field(() => ID, { description: 'The global id of the object.' })
  id!: string;
}
