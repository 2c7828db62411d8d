import 'reflect-metadata';
import { isAbstractType, printSchema, type GraphQLSchema, type GraphQLTypeResolver } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { buildSchemaSync } from 'type-graphql';
import { repositoryOwnerTypeName } from '../modules/accounts/graphql/account.types';
import { nodeTypeName } from '../modules/accounts/graphql/node';
import { AccountQueries, OrganizationRelations, RepositoryRelations, TeamRelations } from '../modules/accounts/graphql/account.resolver';
import { DependencyAlertMutations, EnterpriseAlerts, OrganizationAlerts, RepositoryAlerts } from '../modules/dependency-alerts/graphql/alert.resolver';
import { AttestationMutations, AttestationSubjects, RepositoryAttestations } from '../modules/attestations/graphql/attestation.resolver';
import { EnterpriseOidc, OidcMutations, OrganizationOidc, RepositoryOidc } from '../modules/oidc/graphql/oidc.resolver';
import { OrganizationRoleHolders, OrganizationRoleMutations, OrganizationRoles } from '../modules/org-roles/graphql/role.resolver';
import { NodeQuery } from './node.resolver';

export const RESOLVERS = [
  AccountQueries, OrganizationRelations, RepositoryRelations, TeamRelations, NodeQuery,
  OrganizationAlerts, EnterpriseAlerts, RepositoryAlerts, DependencyAlertMutations,
  OrganizationRoles, OrganizationRoleHolders, OrganizationRoleMutations,
  EnterpriseOidc, OrganizationOidc, RepositoryOidc, OidcMutations,
  RepositoryAttestations, AttestationSubjects, AttestationMutations,
] as const;

/**
 * How each interface and union tells its object types apart. type-graphql wraps a
 * resolveType in an async function; graphql-jit needs the answer at once (a promise is
 * "no type"), so the same functions are set again, unwrapped.
 */
const TYPE_RESOLVERS: Record<string, GraphQLTypeResolver<never, unknown>> = { Node: nodeTypeName, RepositoryOwner: repositoryOwnerTypeName };

function resolveTypesAtOnce(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isAbstractType(type) || type.name.startsWith('__')) continue;
    const resolveType = TYPE_RESOLVERS[type.name];
    if (!resolveType) throw new Error(`${type.name} needs a synchronous resolveType in TYPE_RESOLVERS (src/graphql/schema.ts).`);
    type.resolveType = resolveType as GraphQLTypeResolver<unknown, unknown>;
  }
  return schema;
}

let built: GraphQLSchema | undefined;

/** The schema, built once from the resolver classes (type-graphql) with graphql-scalars. */
export function graphqlSchema(): GraphQLSchema {
  built ??= resolveTypesAtOnce(buildSchemaSync({
    resolvers: [...RESOLVERS],
    scalarsMap: [{ type: Date, scalar: DateTimeResolver }, { type: Object, scalar: JSONResolver }],
    validate: false, // arguments are validated with the REST schemas, in the resolvers
  }));
  return built;
}

/** schema.graphql: emitted from the code; a test fails when the committed file drifts. */
export function printedSchema(): string {
  return `${printSchema(graphqlSchema())}\n`;
}
