import { z } from 'zod';
import { errorBodySchema } from '../errors/http.responses';
import { repositorySummarySchema, teamSummarySchema, userSummarySchema } from '../modules/accounts/accounts.responses';
import { advisorySchema, globalAdvisorySchema, globalVulnerabilitySchema, vulnerabilitySchema } from '../modules/advisories/advisories.responses';
import { presetsSchema, ruleSchema } from '../modules/auto-triage/auto-triage.responses';
import { attestationCreatedSchema, attestationListSchema, attestationSchema } from '../modules/attestations/attestations.responses';
import { sbomSchema, snapshotCreatedSchema } from '../modules/dependency-graph/dependency-graph.responses';
import { sbomUploadedSchema } from '../modules/sbom/sbom.schemas';
import { cycloneDxVexSchema, openVexSchema } from '../modules/vex/vex.schemas';
import { alertSchema, alertWithRepositorySchema, dependencyPathSchema } from '../modules/dependency-alerts/alerts.responses';
import { inclusionSchema, orgInclusionSchema, orgTemplateSchema, repoTemplateSchema } from '../modules/oidc/oidc.responses';
import { mintedTokenSchema, tokenPreviewSchema } from '../modules/oidc-tokens/oidc-tokens.responses';
import { deliveryDetailSchema, deliverySchema, hookSchema } from '../modules/webhooks/webhooks.responses';
import { auditRecordSchema } from '../modules/audit-log/audit-log.responses';
import { roleListSchema, roleSchema, roleTeamSchema, roleUserSchema } from '../modules/org-roles/org-roles.responses';

type JsonSchema = Record<string, unknown>;

// The named response schemas of the description (`#/components/schemas/<id>`): the modules'
// zod response schemas, converted once; shared ones become references.
const NAMED: Array<[string, z.ZodType]> = [
  ['UserSummary', userSummarySchema],
  ['TeamSummary', teamSummarySchema],
  ['RepositorySummary', repositorySummarySchema],
  ['Role', roleSchema],
  ['RoleList', roleListSchema],
  ['RoleTeam', roleTeamSchema],
  ['RoleUser', roleUserSchema],
  ['EnterpriseInclusion', inclusionSchema],
  ['OrgInclusion', orgInclusionSchema],
  ['OrgSubjectTemplate', orgTemplateSchema],
  ['RepoSubjectTemplate', repoTemplateSchema],
  ['OidcToken', mintedTokenSchema],
  ['OidcTokenPreview', tokenPreviewSchema],
  ['AttestationCreated', attestationCreatedSchema],
  ['Attestation', attestationSchema],
  ['AttestationList', attestationListSchema],
  ['Vulnerability', vulnerabilitySchema],
  ['SecurityAdvisory', advisorySchema],
  ['DependencyAlert', alertSchema],
  ['DependencyAlertWithRepository', alertWithRepositorySchema],
  ['DependencyPath', dependencyPathSchema],
  ['GlobalVulnerability', globalVulnerabilitySchema],
  ['GlobalAdvisory', globalAdvisorySchema],
  ['DependencySnapshotCreated', snapshotCreatedSchema],
  ['DependencySbom', sbomSchema],
  ['SbomUploaded', sbomUploadedSchema],
  ['CycloneDxVex', cycloneDxVexSchema],
  ['OpenVex', openVexSchema],
  ['DependencyBotRule', ruleSchema],
  ['DependencyBotPresets', presetsSchema],
  ['Webhook', hookSchema],
  ['WebhookDelivery', deliverySchema],
  ['WebhookDeliveryDetail', deliveryDetailSchema],
  ['AuditLogRecord', auditRecordSchema],
  ['Error', errorBodySchema],
];

export const componentRef = (name: string) => `#/components/schemas/${name}`;

/** The reference to a named response schema (an operation's success body, or the error body). */
export function schemaRef(schema: z.ZodType): string {
  const named = NAMED.find(([, candidate]) => candidate === schema);
  if (!named) throw new Error('a response schema of the catalogue has no component name in src/openapi/components.ts');
  return componentRef(named[0]);
}

export function componentSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of NAMED) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: 'output',
    uri: componentRef,
  });
  // Each is a component of one document, not a standalone JSON Schema document.
  return Object.fromEntries(Object.entries(schemas).map(([id, { $schema: _, $id: __, ...schema }]) => [id, schema]));
}
