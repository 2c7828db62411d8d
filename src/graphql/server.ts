import 'reflect-metadata'; // type-graphql's decorators need it before any decorated class loads
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import { expressMiddleware } from '@as-integrations/express5';
import type { RequestHandler } from 'express';
import { GraphQLError } from 'graphql';
import type { Services } from '../composition';
import { DomainError } from '../errors/domain';
import { formatGraphQLError, toGraphQLError } from '../errors/graphql';
import type { Logger } from '../logger';
import type { GraphQLContext } from './context';
import { complexityLimit, validationRules } from './limits';
import { createLoaders } from './loaders';
import { graphqlSchema } from './schema';

export interface GraphQLOptions {
  /** Introspection and the Sandbox landing page (on by default; off for production). */
  explorer: boolean;
}

/** Apollo Server over the same services as REST, mounted as Express middleware. */
export async function createGraphQLMiddleware(services: Services, logger: Logger, options: GraphQLOptions): Promise<RequestHandler> {
  const schema = graphqlSchema();
  const server = new ApolloServer<GraphQLContext>({
    schema,
    validationRules,
    allowBatchedHttpRequests: false, // one operation per request
    introspection: options.explorer,
    csrfPrevention: true,
    includeStacktraceInErrorResponses: false,
    formatError: formatGraphQLError((error) => logger.error({ err: error }, 'unhandled GraphQL error')),
    plugins: [
      complexityLimit(schema),
      options.explorer ? ApolloServerPluginLandingPageLocalDefault({ embed: true, includeCookies: false }) : ApolloServerPluginLandingPageDisabled(),
    ],
  });
  await server.start();
  return expressMiddleware(server, {
    // The caller is authenticated once per request, by the same step as REST.
    context: async ({ req, res }) => {
      try {
        const principal = await services.authenticator.authenticate(req.get('authorization'));
        // URL fields point at the REST API: the checked origin, not the /graphql mount.
        const origin = res.locals.apiBase ? new URL(res.locals.apiBase).origin : '';
        return { principal, services, loaders: createLoaders(services), apiBase: origin };
      } catch (error) {
        if (error instanceof DomainError) throw toGraphQLError(error);
        throw new GraphQLError('Internal server error', { extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      }
    },
  }) as RequestHandler;
}
