import type { Knex } from 'knex';
import { z } from 'zod';
import { BadRequestError } from '../errors/domain';

// Keyset (seek) pagination shared by every cursor list, REST and GraphQL alike.
// A cursor is opaque to clients: base64url JSON naming the list it belongs to and the
// sort values of the row it points at. It is derived from data only, so any instance
// can continue a list that another started.

export type SortValue = string | number | null;

export interface KeysetColumn {
  column: string;
  direction: 'asc' | 'desc';
  /** What the column holds; a cursor value of another kind is refused, never sent to SQL. */
  type: 'integer' | 'number' | 'string';
}

const INT32_MAX = 2 ** 31 - 1;
const VALUE_SCHEMAS = {
  integer: z.number().int().min(-INT32_MAX - 1).max(INT32_MAX),
  number: z.number().finite(),
  string: z.string().max(512),
} as const;

const cursorSchema = z.object({ l: z.string().max(64), v: z.array(z.unknown()).max(8) });

export function encodeCursor(list: string, values: readonly SortValue[]): string {
  return Buffer.from(JSON.stringify({ l: list, v: values })).toString('base64url');
}

/** Decodes a cursor for `list` over `columns`; anything forged, foreign or malformed is a 400. */
export function decodeCursor(list: string, cursor: string, columns: readonly KeysetColumn[]): SortValue[] {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequestError('The cursor is not valid. Use a cursor from the Link header of this list.');
  }
  const result = cursorSchema.safeParse(parsed);
  const values = result.success && result.data.l === list && result.data.v.length === columns.length ? result.data.v : undefined;
  if (!values || !values.every((value, i) => VALUE_SCHEMAS[columns[i]!.type].safeParse(value).success)) {
    throw new BadRequestError('The cursor is not valid for this list. Use a cursor from the Link header of this list.');
  }
  return values as SortValue[];
}

/**
 * Restricts `query` to rows strictly after (or before) `values` in the order of
 * `columns`, whose last column must be unique. Sort columns must be non-null.
 */
export function whereBeyond(query: Knex.QueryBuilder, columns: readonly KeysetColumn[], values: readonly SortValue[], side: 'after' | 'before'): void {
  // One direction for every column: a row-value comparison, which both SQLite and
  // PostgreSQL turn into a single index seek (the OR expansion below may scan).
  if (columns.every((c) => c.direction === columns[0]!.direction)) {
    const forward = (columns[0]!.direction === 'asc') === (side === 'after');
    const list = columns.map(() => '??').join(', ');
    const params = columns.map(() => '?').join(', ');
    query.whereRaw(`(${list}) ${forward ? '>' : '<'} (${params})`, [...columns.map((c) => c.column), ...values]);
    return;
  }
  query.where((outer) => {
    columns.forEach((_, i) => {
      outer.orWhere((inner) => {
        for (let j = 0; j < i; j++) inner.where(columns[j]!.column, values[j]!);
        const { column, direction } = columns[i]!;
        const forward = (direction === 'asc') === (side === 'after');
        inner.where(column, forward ? '>' : '<', values[i]!);
      });
    });
  });
}

export function orderBy(query: Knex.QueryBuilder, columns: readonly KeysetColumn[], reverse = false): void {
  for (const { column, direction } of columns) {
    query.orderBy(column, reverse ? (direction === 'asc' ? 'desc' : 'asc') : direction);
  }
}

/** A page of a keyset-ordered list as both doors ask for it (REST query, GraphQL arguments): validated, in domain terms. */
export interface KeysetListRequest<Filters, Sort> {
  filters: Filters;
  sort: Sort;
  direction: 'asc' | 'desc';
  perPage: number;
  after?: string | undefined;
  before?: string | undefined;
  /** The last page (GraphQL `last` without `before`). */
  fromEnd?: boolean | undefined;
  /** Also count the whole list (GraphQL totalCount). */
  withTotal?: boolean | undefined;
}

export interface KeysetPage<T> {
  items: T[];
  /** Cursor of the last item when more follow. */
  next: string | undefined;
  /** Cursor of the first item when more precede. */
  prev: string | undefined;
}

/**
 * Fetches one page of `query` (not yet ordered or limited) in keyset order.
 * `valuesOf` gives a row's sort values, in the order of `columns`. A list that is the union
 * of several index ranges (an enterprise's organizations) is given as one query per range:
 * each reads at most a page from its range, and their rows are merged in the list's order,
 * where one query over all of them would read and sort every match.
 */
export async function fetchKeysetPage<R>(
  query: Knex.QueryBuilder | readonly Knex.QueryBuilder[],
  options: {
    list: string;
    columns: readonly KeysetColumn[];
    valuesOf: (row: R) => SortValue[];
    perPage: number;
    after?: string | undefined;
    before?: string | undefined;
    /** The last page (Relay's `last` without `before`). */
    fromEnd?: boolean | undefined;
  },
): Promise<KeysetPage<R>> {
  const { list, columns, valuesOf, perPage } = options;
  if (options.after !== undefined && options.before !== undefined) throw new BadRequestError('Give either `before` or `after`, not both.');
  const backward = options.before !== undefined || (options.fromEnd === true && options.after === undefined);
  const cursor = options.after ?? options.before;
  const values = cursor === undefined ? undefined : decodeCursor(list, cursor, columns);
  const ranges = Array.isArray(query) ? query : [query as Knex.QueryBuilder];
  const fetched: R[][] = [];
  // One after another: the ranges may share a transaction's one connection.
  for (const range of ranges) {
    if (values !== undefined) whereBeyond(range, columns, values, backward ? 'before' : 'after');
    orderBy(range, columns, backward);
    fetched.push((await range.limit(perPage + 1)) as R[]);
  }
  const rows = fetched.length === 1 ? fetched[0]! : mergeInOrder(fetched.flat(), columns, valuesOf, backward).slice(0, perPage + 1);
  const hasMore = rows.length > perPage;
  const items = rows.slice(0, perPage);
  if (backward) items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  const cursorOf = (row: R) => encodeCursor(list, valuesOf(row));
  return {
    items,
    // Going back from a cursor, the cursor's row follows; the last page has nothing after it.
    next: last && (backward ? options.before !== undefined : hasMore) ? cursorOf(last) : undefined,
    prev: first && (backward ? hasMore : cursor !== undefined) ? cursorOf(first) : undefined,
  };
}

/**
 * Rows in the order of `columns` (reversed when `backward`), as SQL orders them: numbers by
 * value; strings by code unit, which is every collation's order for the sort columns' strings
 * (ISO 8601 timestamps of one length).
 */
function mergeInOrder<R>(rows: R[], columns: readonly KeysetColumn[], valuesOf: (row: R) => SortValue[], backward: boolean): R[] {
  const keyed = rows.map((row) => ({ row, values: valuesOf(row) }));
  keyed.sort((a, b) => {
    for (const [i, { direction }] of columns.entries()) {
      const x = a.values[i]!;
      const y = b.values[i]!;
      if (x === y) continue;
      const ascending = x < y ? -1 : 1;
      return (direction === 'asc') === !backward ? ascending : -ascending;
    }
    return 0;
  });
  return keyed.map(({ row }) => row);
}
