import type { z } from 'zod';
import { parseInput, type InputContext } from '../http/validate';
import { graphqlFieldName } from './field-names';

/**
 * Checks resolver arguments with the REST schemas (one rule for both doors); the messages name
 * the fields as GraphQL callers write them. `errors[].field` stays the schema's name, which
 * errors/graphql.ts renders the same way.
 */
export function parseArgs<S extends z.ZodType>(schema: S, input: unknown, context: InputContext): z.output<S> {
  return parseInput(schema, input, { ...context, nameField: graphqlFieldName });
}

/** The arguments a caller gave: GraphQL's null for an optional argument means "not given", as an absent key does. */
export function givenArgs<T extends object>(args: T): { [K in keyof T]?: Exclude<T[K], undefined | null> } {
  return Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined && value !== null)) as { [K in keyof T]?: Exclude<T[K], undefined | null> };
}
