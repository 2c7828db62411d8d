import { GraphQLError, Kind, execute, visit, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { LRUCache } from 'lru-cache';
import type { GatewayExecutor } from './executor-gateway';

// graphql-jit turns an operation into a JavaScript function once, so the dashboard query
// skips graphql-js's per-field interpretation (type checks, argument coercion, path
// bookkeeping) on every request. Apollo has already parsed, validated and limited the
// operation; only execution changes. Whatever graphql-jit does not compile runs on graphql-js.

/** Distinct operations kept compiled; more, and the least recently used is compiled again when it returns. */
export const COMPILED_OPERATIONS = 500;

/** `null`: execute this operation with graphql-js. */
type Plan = CompiledQuery | null;

export function compiledExecutor(schema: GraphQLSchema, capacity = COMPILED_OPERATIONS): GatewayExecutor {
  // Boxed: lru-cache keeps no null values, and null is a plan (run on graphql-js).
  const plans = new LRUCache<string, { plan: Plan }>({ max: capacity });
  return async ({ document, operation, request, context, queryHash }) => {
    const operationName = request.operationName ?? undefined;
    // The hash of the query text names the document; one document may hold several operations.
    const key = `${queryHash}\n${operationName ?? ''}`;
    let known = plans.get(key);
    if (known === undefined) {
      known = { plan: planFor(schema, document, operation, operationName) };
      plans.set(key, known);
    }
    const { plan } = known;
    const runOnGraphQLJs = () => execute({ schema, document, contextValue: context, variableValues: request.variables, operationName });
    if (plan === null) return runOnGraphQLJs();
    const result = await plan.query(undefined, context, request.variables);
    // No data: refused before anything ran (variables). graphql-js words those errors the way
    // Apollo recognises as the caller's (400, BAD_USER_INPUT), and running it costs nothing.
    if (result.data === undefined && result.errors) return runOnGraphQLJs();
    return result.errors ? { ...result, errors: result.errors.map(asGraphQLJsError) } : result;
  };
}

function planFor(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode, operationName: string | undefined): Plan {
  // Introspection is rare and sizeable: not worth a compiled copy.
  if (asksForIntrospection(document, operation.selectionSet)) return null;
  if (spreadsAFragmentAgainAfterACondition(document)) return null;
  try {
    const compiled = compileQuery(schema, document, operationName);
    return isCompiledQuery(compiled) ? compiled : null;
  } catch {
    return null; // something graphql-jit cannot compile still runs, on graphql-js
  }
}

function asksForIntrospection(document: DocumentNode, selectionSet: SelectionSetNode, depth = 0): boolean {
  if (depth > 50) return false; // fragment cycles are refused by validation
  return selectionSet.selections.some((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === '__schema' || selection.name.value === '__type';
    if (selection.kind === Kind.INLINE_FRAGMENT) return asksForIntrospection(document, selection.selectionSet, depth + 1);
    const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value);
    return fragment?.kind === Kind.FRAGMENT_DEFINITION && asksForIntrospection(document, fragment.selectionSet, depth + 1);
  });
}

/**
 * graphql-jit 0.8.9 drops a fragment spread that follows a skipped spread of the same
 * fragment (`...F @include(if: false) ...F` answers without F's fields; graphql-js
 * includes them). Such documents run on graphql-js.
 */
function spreadsAFragmentAgainAfterACondition(document: DocumentNode): boolean {
  const spreads = new Map<string, number>();
  const conditional = new Set<string>();
  visit(document, {
    FragmentSpread(spread) {
      spreads.set(spread.name.value, (spreads.get(spread.name.value) ?? 0) + 1);
      if (spread.directives?.some((d) => d.name.value === 'skip' || d.name.value === 'include')) conditional.add(spread.name.value);
    },
  });
  return [...conditional].some((name) => spreads.get(name)! > 1);
}

/**
 * graphql-jit's errors inherit from GraphQLError but leave `extensions` undefined when there
 * are none, where Apollo (and formatGraphQLError) expect graphql-js's `{}`; rebuilt as
 * graphql-js builds them from a resolver's error, with the same path and locations.
 */
function asGraphQLJsError(error: GraphQLError): GraphQLError {
  const rebuilt = new GraphQLError(error.message, {
    ...(error.path ? { path: error.path } : {}),
    ...(error.originalError ? { originalError: error.originalError } : {}),
    ...(error.extensions ? { extensions: error.extensions } : {}),
  });
  if (error.locations) (rebuilt as { locations?: GraphQLError['locations'] }).locations = error.locations;
  return rebuilt;
}
