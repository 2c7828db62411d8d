import 'reflect-metadata';
import { printSchema, type GraphQLSchema } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { buildSchemaSync } from 'type-graphql';
import { AccountQueries, OrganizationRelations, RepositoryRelations, TeamRelations } from '../modules/accounts/graphql/account.resolver';
import { DependencyAlertMutations, EnterpriseAlerts, OrganizationAlerts, RepositoryAlerts } from '../modules/dependency-alerts/graphql/alert.resolver';
import { NodeQuery } from './node.resolver';

export const RESOLVERS = [
  AccountQueries, OrganizationRelations, RepositoryRelations, TeamRelations, NodeQuery,
  OrganizationAlerts, EnterpriseAlerts, RepositoryAlerts, DependencyAlertMutations,
] as const;

let built: GraphQLSchema | undefined;

/** The schema, built once from the resolver classes (type-graphql) with graphql-scalars. */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildSchemaSync({
    resolvers: [...RESOLVERS],
    scalarsMap: [{ type: Date, scalar: DateTimeResolver }, { type: Object, scalar: JSONResolver }],
    validate: false, // arguments are validated with the REST schemas, in the resolvers
  });
  return built;
}

/** schema.graphql: emitted from the code; a test fails when the committed file drifts. */
export function printedSchema(): string {
  return `${printSchema(graphqlSchema())}\n`;
}
