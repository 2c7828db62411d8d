import { Field, ID, InterfaceType } from 'type-graphql';

@InterfaceType({ description: 'An object with a global, opaque identity, fetchable with `node(id:)`.' })
export abstract class Node {
  @Field(() => ID, { description: 'The global id of the object.' })
  id!: string;
}
