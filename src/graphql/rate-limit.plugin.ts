import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import type { RateLimiter } from '../rate-limits/rate-limiter';
import type { GraphQLContext } from './context';

/**
 * Mutations are writes: they count against the caller's write limit as REST writes do.
 * Known only once the operation is resolved, so refused before anything executes.
 */
export function mutationRateLimit(limiter: RateLimiter): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          if (operation?.operation !== 'mutation') return;
          const spammed = await limiter.countWrite(contextValue.rateLimitCaller);
          if (!spammed) return;
          throw new GraphQLError(spammed.message, {
            extensions: {
              code: 'RATE_LIMITED',
              http: { status: spammed.asTooManyRequests ? 429 : 422, headers: new HeaderMap([['retry-after', String(spammed.retryAfterSeconds)]]) },
            },
          });
        },
      };
    },
  };
}
