import type { ApolloServerOptionsWithGateway } from '@apollo/server';
import type { GraphQLSchema } from 'graphql';
import type { GraphQLContext } from './context';

type Gateway = ApolloServerOptionsWithGateway<GraphQLContext>['gateway'];
export type GatewayExecutor = NonNullable<Awaited<ReturnType<Gateway['load']>>['executor']>;

/**
 * Apollo Server has no executor option; its gateway interface is the supported way to
 * execute with something other than graphql-js. This gateway serves one fixed schema
 * (Apollo still parses, validates and runs every plugin against it) and hands execution
 * to `executor`, which receives the request's context as `requestContext.context`.
 */
export function executorGateway(schema: GraphQLSchema, executor: GatewayExecutor): Gateway {
  return {
    async load() {
      return { executor };
    },
    onSchemaLoadOrUpdate(callback) {
      callback({ apiSchema: schema, coreSupergraphSdl: '' });
      return () => {};
    },
    async stop() {},
  };
}
