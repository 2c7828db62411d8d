import 'reflect-metadata';
import { printSchema, type GraphQLSchema } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { buildSchemaSync, type PubSub } from 'type-graphql';
import { AccountQueries, OrganizationRelations, RepositoryRelations, TeamRelations } from '../modules/accounts/graphql/account.resolver';
import { DependencyAlertMutations, EnterpriseAlerts, OrganizationAlerts, RepositoryAlerts } from '../modules/dependency-alerts/graphql/alert.resolver';
import { DependencyAlertSubscriptions } from '../modules/dependency-alerts/graphql/alert-events.resolver';
import { DependencyAlertPaths } from '../modules/dependency-alerts/graphql/alert-paths.resolver';
import { AttestationMutations, AttestationSubjects, RepositoryAttestations } from '../modules/attestations/graphql/attestation.resolver';
import { DependencySnapshotMutations, RepositoryDependencies } from '../modules/dependency-graph/graphql/dependency.resolver';
import { SbomMutations } from '../modules/sbom/graphql/sbom.resolver';
import { EnterpriseOidc, OidcMutations, OrganizationOidc, RepositoryOidc } from '../modules/oidc/graphql/oidc.resolver';
import { RepositoryOidcTokens } from '../modules/oidc-tokens/graphql/oidc-tokens.resolver';
import { OrganizationRoleHolders, OrganizationRoleMutations, OrganizationRoles } from '../modules/org-roles/graphql/role.resolver';
import { SecurityAdvisoryQueries } from '../modules/advisories/graphql/advisory.resolver';
import { AutoTriageMutations, OrganizationAutoTriage, RepositoryAutoTriage } from '../modules/auto-triage/graphql/auto-triage.resolver';
import { OrganizationWebhooks, RepositoryWebhooks, WebhookDeliveries, WebhookDeliveryDetails, WebhookMutations } from '../modules/webhooks/graphql/webhook.resolver';
import { EnterpriseAuditLog, OrganizationAuditLog } from '../modules/audit-log/graphql/audit-log.resolver';
import { NodeQuery } from './node.resolver';

export const RESOLVERS = [
  AccountQueries, OrganizationRelations, RepositoryRelations, TeamRelations, NodeQuery,
  OrganizationAlerts, EnterpriseAlerts, RepositoryAlerts, DependencyAlertPaths, DependencyAlertMutations, DependencyAlertSubscriptions,
  OrganizationRoles, OrganizationRoleHolders, OrganizationRoleMutations,
  EnterpriseOidc, OrganizationOidc, RepositoryOidc, OidcMutations, RepositoryOidcTokens,
  RepositoryAttestations, AttestationSubjects, AttestationMutations,
  SecurityAdvisoryQueries,
  RepositoryDependencies, DependencySnapshotMutations, SbomMutations,
  OrganizationAutoTriage, RepositoryAutoTriage, AutoTriageMutations,
  OrganizationWebhooks, RepositoryWebhooks, WebhookDeliveries, WebhookDeliveryDetails, WebhookMutations,
  OrganizationAuditLog, EnterpriseAuditLog,
] as const;

let built: GraphQLSchema | undefined;

/**
 * type-graphql asks for a PubSub whenever the schema has a subscription. orgsec's subscribe
 * through their own `subscribe` functions, fed by the outbox (alert-event-stream.ts): no topic
 * is ever published, and this one refuses to be used.
 */
const NO_TOPICS: PubSub = {
  publish: () => { throw new Error('orgsec publishes no PubSub topics: subscriptions read the outbox'); },
  subscribe: () => { throw new Error('orgsec publishes no PubSub topics: subscriptions read the outbox'); },
};

/** The schema, built once from the resolver classes (type-graphql) with graphql-scalars. */
export function graphqlSchema(): GraphQLSchema {
  built ??= buildSchemaSync({
    resolvers: [...RESOLVERS],
    scalarsMap: [{ type: Date, scalar: DateTimeResolver }, { type: Object, scalar: JSONResolver }],
    validate: false, // arguments are validated with the REST schemas, in the resolvers
    pubSub: NO_TOPICS,
  });
  return built;
}

/** schema.graphql: emitted from the code; a test fails when the committed file drifts. */
export function printedSchema(): string {
  return `${printSchema(graphqlSchema())}\n`;
}
