import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import { GraphQLError, Kind, getNamedType, type DocumentNode, type GraphQLSchema, type SelectionNode, type ValidationContext, type ValidationRule } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { LRUCache } from 'lru-cache';
import { DEFAULT_PAGE_SIZE } from './relay';

// Abuse limits, each refused with its own message before anything runs.
export const MAX_DEPTH = 12;
export const MAX_ALIASES = 30;
export const MAX_COMPLEXITY = 10_000;
/** Directives in an operation, fragments counted once per spread (unknown ones each cost a validation error). */
export const MAX_DIRECTIVES = 50;
/** Lexical tokens of a document (names, punctuation, values; not commas, whitespace or comments). */
export const MAX_TOKENS = 5_000;

/**
 * Refuses operations with more aliased fields than MAX_ALIASES (a cheap way to multiply
 * work), counting a fragment's aliases once for every place it is spread.
 */
export const aliasLimit: ValidationRule = (context) => {
  const count = (selections: readonly SelectionNode[], depth: number): number => {
    if (depth > 50) return 0; // fragment cycles are refused by another rule
    let aliases = 0;
    for (const selection of selections) {
      if (selection.kind === Kind.FIELD) aliases += (selection.alias ? 1 : 0) + (selection.selectionSet ? count(selection.selectionSet.selections, depth + 1) : 0);
      else if (selection.kind === Kind.INLINE_FRAGMENT) aliases += count(selection.selectionSet.selections, depth + 1);
      else {
        const fragment = context.getFragment(selection.name.value);
        if (fragment) aliases += count(fragment.selectionSet.selections, depth + 1);
      }
      if (aliases > MAX_ALIASES) return aliases;
    }
    return aliases;
  };
  return {
    OperationDefinition(operation) {
      if (count(operation.selectionSet.selections, 0) > MAX_ALIASES) {
        context.reportError(new GraphQLError(`The query uses more than ${MAX_ALIASES} aliases.`, { nodes: [operation] }));
      }
    },
  };
};

/** Refuses operations with more directives than MAX_DIRECTIVES, counting a fragment's once for every place it is spread. */
export const directiveLimit: ValidationRule = (context) => {
  const count = (selections: readonly SelectionNode[], depth: number): number => {
    if (depth > 50) return 0; // fragment cycles are refused by another rule
    let directives = 0;
    for (const selection of selections) {
      directives += selection.directives?.length ?? 0;
      if (selection.kind === Kind.FIELD) directives += selection.selectionSet ? count(selection.selectionSet.selections, depth + 1) : 0;
      else if (selection.kind === Kind.INLINE_FRAGMENT) directives += count(selection.selectionSet.selections, depth + 1);
      else {
        const fragment = context.getFragment(selection.name.value);
        if (fragment) directives += (fragment.directives?.length ?? 0) + count(fragment.selectionSet.selections, depth + 1);
      }
      if (directives > MAX_DIRECTIVES) return directives;
    }
    return directives;
  };
  return {
    OperationDefinition(operation) {
      const onOperation = (operation.directives?.length ?? 0) + (operation.variableDefinitions ?? []).reduce((n, v) => n + (v.directives?.length ?? 0), 0);
      if (onOperation + count(operation.selectionSet.selections, 0) > MAX_DIRECTIVES) {
        context.reportError(new GraphQLError(`The query uses more than ${MAX_DIRECTIVES} directives.`, { nodes: [operation] }));
      }
    },
  };
};

/** How a depth error names its operation. */
export function depthMessage(operationName: string | undefined): string {
  const which = operationName ? `Operation "${operationName}"` : 'The anonymous operation';
  return `${which} exceeds the maximum depth of ${MAX_DEPTH}.`;
}

/**
 * graphql-depth-limit's rule, with a message that names the operation (its own quotes the name,
 * '' for an anonymous operation). The library runs once per operation, each seeing only that
 * operation and the fragments, so the operation of every error is known without reading its
 * message; one error per operation, at the first field past the limit.
 */
export const depthLimitRule: ValidationRule = (context) => {
  const document = context.getDocument();
  const fragments = document.definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION);
  for (const operation of document.definitions) {
    if (operation.kind !== Kind.OPERATION_DEFINITION) continue;
    let reported = false;
    const oneOperation: ValidationContext = Object.create(context, {
      getDocument: { value: (): DocumentNode => ({ ...document, definitions: [operation, ...fragments] }) },
      reportError: {
        value: (error: GraphQLError) => {
          if (!reported) context.reportError(new GraphQLError(depthMessage(operation.name?.value), { nodes: error.nodes ?? [operation] }));
          reported = true;
        },
      },
    });
    depthLimit(MAX_DEPTH)(oneOperation);
  }
  return {};
};

export const validationRules: ValidationRule[] = [depthLimitRule, aliasLimit, directiveLimit];

/**
 * Documents of more than MAX_TOKENS tokens are refused by the parser itself, which stops
 * counting there (a huge document costs parse time and memory). A parse error is a 400;
 * an error thrown from a plugin's didResolveSource would be a 500.
 */
export const parseOptions = { maxTokens: MAX_TOKENS };

/** A connection costs its children times the page size it asks for (30 when it asks none). */
const pageSizeEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  if (!getNamedType(field.type).name.endsWith('Connection')) return undefined;
  const size = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : DEFAULT_PAGE_SIZE;
  return 1 + childComplexity * Math.max(size, 1);
};

/** Costs kept per operation and variables; past that, the least recently used is estimated again. */
const KNOWN_COSTS = 500;
/** Variables longer than this (as JSON) are not worth a key: their operation is estimated each time. */
const MAX_COST_KEY_VARIABLES = 1024;

/**
 * Refuses operations whose estimated cost exceeds MAX_COMPLEXITY. The estimate walks the
 * whole document; it depends only on the document, the operation and the variables, so a
 * dashboard asking the same thing again is not estimated again.
 */
export function complexityLimit(schema: GraphQLSchema): ApolloServerPlugin {
  const costs = new LRUCache<string, number>({ max: KNOWN_COSTS });
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, queryHash }) {
          const variables = JSON.stringify(request.variables ?? {});
          const key = variables.length <= MAX_COST_KEY_VARIABLES ? `${queryHash}\n${request.operationName ?? ''}\n${variables}` : undefined;
          let complexity = key === undefined ? undefined : costs.get(key);
          if (complexity === undefined) {
            complexity = estimateCost(schema, document, request.variables ?? {}, request.operationName);
            if (key !== undefined) costs.set(key, complexity);
          }
          if (complexity > MAX_COMPLEXITY) {
            throw new GraphQLError(`The query is too complex: its cost is ${complexity}, the limit is ${MAX_COMPLEXITY}. Ask for smaller pages or fewer fields.`, {
              extensions: { code: 'QUERY_TOO_COMPLEX', complexity, limit: MAX_COMPLEXITY, http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}

export function estimateCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>, operationName: string | undefined): number {
  try {
    return getComplexity({
      schema, query: document, variables, ...(operationName ? { operationName } : {}),
      estimators: [fieldExtensionsEstimator(), pageSizeEstimator, simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch (error) {
    // getComplexity coerces the variables first: a bad variable is the caller's
    // error (400, as Apollo answers it), not a 500 from this plugin.
    if (!(error instanceof GraphQLError)) throw error;
    throw new GraphQLError(error.message, { ...(error.nodes ? { nodes: error.nodes } : {}), extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
  }
}
