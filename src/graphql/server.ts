import 'reflect-metadata'; // type-graphql's decorators need it before any decorated class loads
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import type { Services } from '../composition';
import { formatGraphQLError, toGraphQLError } from '../errors/graphql';
import { principalOf } from '../http/locals';
import type { Logger } from '../logger';
import type { GraphQLContext } from './context';
import { ResultCapture } from './cached-responses';
import { stopCachedReads } from '../cache/request-versions';
import { compiledExecutor } from './compiled-executor';
import { executorGateway } from './executor-gateway';
import { complexityLimit, parseOptions, validationRules } from './limits';
import { mutationRateLimit } from './rate-limit.plugin';
import { rateLimitCallerOf } from '../http/rate-limit';
import { createLoaders } from './loaders';
import { landingPageWithGraphiQL } from './landing-page.plugin';
import { graphqlSchema } from './schema';

export interface GraphQLOptions {
  /** Introspection and the Sandbox landing page (on by default; off for production). */
  explorer: boolean;
  /** More Apollo plugins (metrics). */
  plugins?: ApolloServerPlugin[];
}

/**
 * Version-scoped caches (alert rows, references, responses) hold what a version read before
 * the request: a mutation's payload may read what it just wrote, so it reads the database.
 */
const readsOfMutationsSeeTheirWrites: ApolloServerPlugin<GraphQLContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation }) {
        if (operation?.operation === 'mutation') stopCachedReads();
      },
    };
  },
};

/** Apollo Server over the same services as REST, mounted as Express middleware. */
export async function createGraphQLMiddleware(services: Services, logger: Logger, options: GraphQLOptions): Promise<RequestHandler> {
  const schema = graphqlSchema();
  // On and off with the REST response cache (RESPONSE_CACHE_MB=0 turns both off).
  const results = services.responseCache.enabled ? new ResultCapture() : undefined;
  const server = new ApolloServer<GraphQLContext>({
    // The schema as a gateway: the only way Apollo lets another executor (graphql-jit) run it.
    gateway: executorGateway(schema, compiledExecutor(schema)),
    validationRules,
    parseOptions,
    allowBatchedHttpRequests: false, // one operation per request
    introspection: options.explorer,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError((error) => logger.error({ err: error }, 'unhandled GraphQL error')),
    ...(results ? { stringifyResult: results.stringifyResult } : {}),
    plugins: [
      // Nothing here sets cache hints; on, it would wrap every field's resolver to look for them.
      ApolloServerPluginCacheControlDisabled(),
      ...(options.plugins ?? []),
      complexityLimit(schema),
      readsOfMutationsSeeTheirWrites,
      ...(services.rateLimiter ? [mutationRateLimit(services.rateLimiter)] : []),
      // Last: only a result every plugin let through is cached.
      ...(results ? [results.plugin] : []),
      options.explorer ? landingPageWithGraphiQL() : ApolloServerPluginLandingPageDisabled(),
    ],
  });
  await server.start();
  return expressMiddleware(server, {
    // The caller was authenticated once, by the same step as REST (http/authenticate.ts).
    context: async ({ req, res }) => {
      if (res.locals.credentialsError) throw toGraphQLError(res.locals.credentialsError);
      const principal = principalOf(res);
      // URL fields point at the REST API: the checked origin, not the /graphql mount.
      const origin = res.locals.apiBase ? new URL(res.locals.apiBase).origin : '';
      // REST URLs in answers follow the layout the client chose: /api/graphql pairs with /api/v3.
      const restBase = req.baseUrl === '/api/graphql' ? `${origin}/api/v3` : origin;
      return {
        principal, services, loaders: createLoaders(services, principal), apiBase: restBase, rateLimitCaller: rateLimitCallerOf(req, res),
        resultCapture: res.locals.graphqlResultCapture,
      };
    },
  }) as RequestHandler;
}
