import { ArgsType, Field, Int, ObjectType, type ClassType } from 'type-graphql';
import { BadRequestError } from '../errors/domain';

// Relay connections. Lists with keyset order use the REST cursors, so a cursor from a
// REST Link works as `after:` here for the same list and filters, and the reverse.

@ObjectType({ simpleResolvers: true, description: 'Where a page sits in its list.' })
export class PageInfo {
  @Field({ description: 'Whether a page follows this one.' })
  hasNextPage!: boolean;

  @Field({ description: 'Whether a page precedes this one.' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true, description: 'The cursor of the first edge.' })
  startCursor!: string | null;

  @Field(() => String, { nullable: true, description: 'The cursor of the last edge.' })
  endCursor!: string | null;
}

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 30;

@ArgsType()
export class ConnectionArgs {
  @Field(() => Int, { nullable: true, description: `Returns the first n elements (at most ${MAX_PAGE_SIZE}).` })
  first?: number;

  @Field(() => String, { nullable: true, description: 'Returns the elements after this cursor.' })
  after?: string;

  @Field(() => Int, { nullable: true, description: `Returns the last n elements (at most ${MAX_PAGE_SIZE}).` })
  last?: number;

  @Field(() => String, { nullable: true, description: 'Returns the elements before this cursor.' })
  before?: string;
}

export interface PageWindow {
  perPage: number;
  after: string | undefined;
  before: string | undefined;
  fromEnd: boolean;
}

/** Relay arguments as a keyset window; out-of-range sizes are a clear error. */
export function windowOf(args: ConnectionArgs): PageWindow {
  for (const [name, value] of [['first', args.first], ['last', args.last]] as const) {
    if (value !== undefined && value !== null && (value < 0 || value > MAX_PAGE_SIZE)) {
      throw new BadRequestError(`\`${name}\` must be between 0 and ${MAX_PAGE_SIZE}.`);
    }
  }
  if (args.first != null && args.last != null) throw new BadRequestError('Give either `first` or `last`, not both.');
  // Relay discourages these mixes; refusing them keeps every page unambiguous.
  if (args.first != null && args.before != null) throw new BadRequestError('Use `first` with `after`, and `last` with `before`.');
  if (args.last != null && args.after != null) throw new BadRequestError('Use `first` with `after`, and `last` with `before`.');
  const fromEnd = args.last != null;
  return { perPage: (fromEnd ? args.last : args.first) ?? DEFAULT_PAGE_SIZE, after: args.after ?? undefined, before: args.before ?? undefined, fromEnd };
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface Connection<T> {
  edges: Array<Edge<T>>;
  /** The edges' nodes, for callers that need no cursors (as GitHub's connections offer). */
  nodes: T[];
  pageInfo: PageInfo;
  totalCount: number;
}

/** A connection class named `${name}Connection` for nodes of `node`, with its edge class. */
export function connectionOf<T extends object>(name: string, node: ClassType<T>, description: string, edge?: ClassType<Edge<T>>) {
  @ObjectType(`${name}Edge`, { simpleResolvers: true, description: `An edge of ${description}.` })
  class DefaultEdge {
    @Field({ description: 'A cursor for this edge (the same cursors REST Link headers carry).' })
    cursor!: string;

    @Field(() => node, { description: 'The item at the end of the edge.' })
    node!: T;
  }

  @ObjectType(`${name}Connection`, { simpleResolvers: true, description })
  class ConnectionType {
    @Field(() => [edge ?? DefaultEdge], { description: 'The edges of this page.' })
    edges!: Array<Edge<T>>;

    @Field(() => [node], { description: 'The items of this page (the edges\' nodes, without cursors).' })
    nodes!: T[];

    @Field(() => PageInfo, { description: 'Where this page sits.' })
    pageInfo!: PageInfo;

    @Field(() => Int, { description: 'How many items the whole list has, across pages.' })
    totalCount!: number;
  }
  return ConnectionType;
}

/** A keyset page as a connection, given each item's cursor. */
export function toConnection<T, N>(
  page: { items: T[]; next: string | undefined; prev: string | undefined },
  cursorOf: (item: T) => string,
  nodeOf: (item: T) => N,
  totalCount: number,
): Connection<N> {
  const edges = page.items.map((item) => ({ cursor: cursorOf(item), node: nodeOf(item) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    totalCount,
    pageInfo: {
      hasNextPage: page.next !== undefined,
      hasPreviousPage: page.prev !== undefined,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}
