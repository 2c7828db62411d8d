import type { ApolloServerPlugin } from '@apollo/server';
import depthLimit from 'graphql-depth-limit';
import { GraphQLError, type GraphQLSchema, type ValidationRule } from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator, type ComplexityEstimator } from 'graphql-query-complexity';
import { DEFAULT_PAGE_SIZE } from './relay';

// Abuse limits, each refused with its own message before anything runs.
export const MAX_DEPTH = 12;
export const MAX_ALIASES = 30;
export const MAX_COMPLEXITY = 10_000;

/** Refuses documents with more aliased fields than MAX_ALIASES (a cheap way to multiply work). */
export const aliasLimit: ValidationRule = (context) => {
  let aliases = 0;
  return {
    Field(node) {
      if (node.alias && ++aliases === MAX_ALIASES + 1) {
        context.reportError(new GraphQLError(`The query uses more than ${MAX_ALIASES} aliases.`, { nodes: [node] }));
      }
    },
  };
};

export const validationRules: ValidationRule[] = [depthLimit(MAX_DEPTH), aliasLimit];

/** A list field costs its children times the page size asked for. */
const pageSizeEstimator: ComplexityEstimator = ({ args, childComplexity }) => {
  const size = typeof args.first === 'number' ? args.first : typeof args.last === 'number' ? args.last : undefined;
  if (size === undefined && !('after' in args || 'before' in args || 'subjectDigest' in args)) return undefined;
  return 1 + childComplexity * Math.max(size ?? DEFAULT_PAGE_SIZE, 1);
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
