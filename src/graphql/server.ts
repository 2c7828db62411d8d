import 'reflect-metadata'; // type-graphql's decorators need it before any decorated class loads
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginInlineTraceDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import type { Services } from '../composition';
import { formatGraphQLError, toGraphQLError } from '../errors/graphql';
import { apiBaseOf, principalOf, servicesOf } from '../http/locals';
import type { Logger } from '../logger';
import type { GraphQLContext } from './context';
import { ResultCapture } from './cached-responses';
import { conditionalGet } from './conditional-get.plugin';
import { legacyJsonStatuses } from './legacy-json-statuses.plugin';
import { complexityLimit, parseOptions, validationRules } from './limits';
import { mutationRateLimit } from './rate-limit.plugin';
import { rateLimitCallerOf } from '../http/rate-limit';
import { createLoaders } from './loaders';
import { landingPageWithGraphiQL } from './landing-page.plugin';
import { graphqlSchema } from './schema';
import { subgraphSchemaOf } from './federation';

export interface GraphQLOptions {
  /** Introspection and the Sandbox landing page (on by default; off for production). */
  explorer: boolean;
  /** More Apollo plugins (metrics). */
  plugins?: ApolloServerPlugin[];
}

/**
 * Version-scoped caches (alert JSON, references, responses) hold what a version read before
 * the request: a mutation's payload may read what it just wrote, so its services are bound
 * to no versions, and read the database.
 */
function readsOfMutationsSeeTheirWrites(services: Services): ApolloServerPlugin<GraphQLContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ operation, contextValue }) {
          if (operation?.operation !== 'mutation') return;
          contextValue.services = services.at(undefined);
          contextValue.loaders = createLoaders(contextValue.services, contextValue.principal);
        },
      };
    },
  };
}

/** Apollo Server over the same services as REST, mounted as Express middleware. */
export async function createGraphQLMiddleware(services: Services, logger: Logger, options: GraphQLOptions): Promise<RequestHandler> {
  // Served as a Federation 2 subgraph (federation.ts): the same graph, plus _service and _entities.
  const schema = subgraphSchemaOf(graphqlSchema());
  // On and off with the REST response cache (RESPONSE_CACHE_MB=0 turns both off).
  const results = services.responseCache.enabled ? new ResultCapture() : undefined;
  const server = new ApolloServer<GraphQLContext>({
    schema,
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
      // A subgraph would answer a gateway's ftv1 header with each resolver's timings, to any caller who sends it: off.
      ApolloServerPluginInlineTraceDisabled(),
      ...(options.plugins ?? []),
      complexityLimit(schema),
      readsOfMutationsSeeTheirWrites(services),
      conditionalGet(),
      legacyJsonStatuses(),
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
      const requestServices = servicesOf(res);
      return {
        principal, services: requestServices, loaders: createLoaders(requestServices, principal), apiBase: apiBaseOf(res), rateLimitCaller: rateLimitCallerOf(req, res),
        resultCapture: res.locals.graphqlResultCapture,
      };
    },
  }) as RequestHandler;
}
