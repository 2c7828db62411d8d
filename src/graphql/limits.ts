import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import { GraphQLError, Kind, getNamedType, type GraphQLSchema, type SelectionNode, type ValidationRule } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { DEFAULT_PAGE_SIZE } from './relay';

// Abuse limits, each refused with its own message before anything runs.
export const MAX_DEPTH = 12;
export const MAX_ALIASES = 30;
export const MAX_COMPLEXITY = 10_000;

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

export const validationRules: ValidationRule[] = [depthLimit(MAX_DEPTH), aliasLimit];

/** A connection costs its children times the page size it asks for (30 when it asks none). */
const pageSizeEstimator: ComplexityEstimator = ({ field, args, childComplexity }) => {
  if (!getNamedType(field.type).name.endsWith('Connection')) return undefined;
  const size = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : DEFAULT_PAGE_SIZE;
  return 1 + childComplexity * Math.max(size, 1);
};

/** Refuses operations whose estimated cost exceeds MAX_COMPLEXITY. */
export function complexityLimit(schema: GraphQLSchema): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document }) {
          const complexity = getComplexity({
            schema, query: document, variables: request.variables ?? {}, ...(request.operationName ? { operationName: request.operationName } : {}),
            estimators: [fieldExtensionsEstimator(), pageSizeEstimator, simpleEstimator({ defaultComplexity: 1 })],
          });
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
