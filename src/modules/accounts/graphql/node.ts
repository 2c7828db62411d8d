import { Field, ID, InterfaceType } from 'type-graphql';

/**
 * An object of GraphQL type `type` with these fields. Interfaces and unions are told apart by
 * type-graphql's default resolveType, which checks `instanceof` the object type classes: it
 * answers at once (a custom resolveType would be wrapped in a promise).
 */
export function objectOf<T extends object>(type: new () => T, fields: T): T {
  return Object.assign(new type(), fields);
}

@InterfaceType({ description: 'An object with a global, opaque identity, fetchable with `node(id:)`.' })
export abstract class Node {
  @Field(() => ID, { description: 'The global id of the object.' })
  id!: string;
}
