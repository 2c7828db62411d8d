import { Field, ID, InterfaceType } from 'type-graphql';

// The GraphQL type of an object follows from its global id's prefix (shared/node-id.ts).
const TYPE_BY_PREFIX: Record<string, string> = {
  U: 'User', O: 'Organization', E: 'Enterprise', T: 'Team', R: 'Repository',
  OR: 'OrganizationRole', DA: 'DependencyAlert', SA: 'SecurityAdvisory', AT: 'Attestation',
};

@InterfaceType({
  description: 'An object with a global, opaque identity, fetchable with `node(id:)`.',
  resolveType: (value: { id: string }) => TYPE_BY_PREFIX[value.id.slice(0, value.id.indexOf('_'))],
})
export abstract class Node {
  @Field(() => ID, { description: 'The global id of the object.' })
  id!: string;
}
