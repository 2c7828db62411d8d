import type { RequestHandler } from 'express';
import type { Services } from '../composition';
import type { Logger } from '../logger';
import type { GraphQLOptions } from './server';

type ServerModule = typeof import('./server');

/**
 * Apollo Server, built when the first GraphQL request arrives: the GraphQL stack (graphql,
 * type-graphql, Apollo and the schema) is about 50 MB of memory and a second of start-up that
 * an instance serving only REST never needs. Requests arriving while it is built wait for the
 * same build; a build that failed is tried again by the next request.
 */
export function lazyGraphQLMiddleware(services: Services, logger: Logger, options: GraphQLOptions): RequestHandler {
  let building: Promise<RequestHandler> | undefined;
  const build = () => {
    // Required here, not imported at the top: importing is what loads the stack.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const server = require('./server') as ServerModule;
    return server.createGraphQLMiddleware(services, logger, options);
  };
  return (req, res, next) => {
    building ??= build().catch((error: unknown) => {
      building = undefined;
      throw error;
    });
    building.then((handler) => handler(req, res, next), next);
  };
}
