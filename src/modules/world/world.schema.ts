import { z } from 'zod';
import { storableText } from '../../shared/storable-text';
import { CLASSIC_SCOPES, PERMISSION_KEYS } from '../../auth/grants';
import { hasValidChecksum } from '../../auth/token-format';
import { claimKeys, customPropertyName } from '../../shared/names';
import { branchName, submissionSchema } from '../dependency-graph/dependency-graph.schemas';
import { repoConditions, ruleAction, ruleName } from '../auto-triage/auto-triage.schemas';
import { ORG_ENFORCEMENTS } from '../auto-triage/auto-triage.types';
import { hookConfigSchema } from '../webhooks/webhooks.schemas';
import { WEBHOOK_EVENTS } from '../webhooks/webhooks.types';
import { OPERATION_TYPES } from '../audit-log/audit-log.types';
import { ECOSYSTEMS } from '../advisories/ecosystems';

// The world-file format of interfaces.md, strict: an unknown key is an error that names it.
// Enumerations are the spec's; a value outside them would make an API answer lie.

export const REPO_PERMISSIONS = ['read', 'triage', 'write', 'maintain', 'admin'] as const;
export const SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export const ALERT_STATES = ['auto_dismissed', 'dismissed', 'fixed', 'open'] as const;
export const DISMISSED_REASONS = ['fix_started', 'inaccurate', 'no_bandwidth', 'not_used', 'tolerable_risk'] as const;
export const RELATIONSHIPS = ['unknown', 'direct', 'transitive', 'inconclusive'] as const;
export const SCOPES = ['development', 'runtime'] as const;
export const CLASSIFICATIONS = ['general', 'malware'] as const;
export const ARTIFACT_REGISTRIES = ['vendorx-artifactory'] as const;
export const RUNTIME_RISKS = ['critical-resource', 'internet-exposed', 'sensitive-data', 'lateral-movement'] as const;

const login = storableText().regex(/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,98}[A-Za-z0-9])?$/, 'must be a login of letters, digits and inner hyphens');
const slug = storableText().regex(/^[a-z0-9][a-z0-9-_]{0,99}$/, 'must be a lower-case slug');
const repoName = storableText().regex(/^[A-Za-z0-9._-]{1,100}$/, 'must be a repository name').refine((n) => !/\.git$/i.test(n), 'must not end in .git');
const repoRef = storableText().regex(/^[^/\s]+\/[^/\s]+$/, 'must be "owner/name"');
const propertyName = customPropertyName;
const timestamp = z.iso.datetime({ offset: true });
const nullableText = storableText().nullable().optional();

const userSchema = z.strictObject({
  login,
  name: nullableText,
  email: storableText().max(255).nullable().optional(),
  site_admin: z.boolean().optional(),
});

const enterpriseSchema = z.strictObject({
  slug,
  name: storableText().min(1).max(255).optional(),
  owners: z.array(login).optional(),
  members: z.array(login).optional(),
});

const customPropertySchema = z.strictObject({
  name: propertyName,
  value_type: z.enum(['string', 'single_select', 'multi_select', 'true_false']).default('string'),
  required: z.boolean().optional(),
  default_value: z.union([storableText(), z.array(storableText())]).nullable().optional(),
  allowed_values: z.array(storableText()).nullable().optional(),
  description: nullableText,
});

const organizationSchema = z.strictObject({
  login,
  name: nullableText,
  description: nullableText,
  enterprise: slug.nullable().optional(),
  organization_roles_enabled: z.boolean().optional(),
  owners: z.array(login).optional(),
  members: z.array(login).optional(),
  custom_properties: z.array(customPropertySchema).optional(),
});

const teamSchema = z.strictObject({
  org: login,
  slug,
  name: storableText().min(1).max(255).optional(),
  description: nullableText,
  privacy: z.enum(['secret', 'closed']).optional(),
  notification_setting: z.enum(['notifications_enabled', 'notifications_disabled']).optional(),
  permission: z.enum(['pull', 'triage', 'push', 'maintain', 'admin']).optional(),
  parent: slug.nullable().optional(),
  members: z.array(login).optional(),
  repositories: z.array(z.strictObject({ name: repoName, permission: z.enum(REPO_PERMISSIONS) })).optional(),
});

const roleSchema = z.strictObject({
  org: login,
  name: storableText().min(1).max(100),
  description: nullableText,
  permissions: z.array(storableText().regex(/^[a-z0-9_]+$/)).default([]),
  base_role: z.enum(REPO_PERMISSIONS).nullable().optional(),
});

const roleAssignmentSchema = z
  .strictObject({
    org: login,
    role: z.union([storableText().min(1), z.number().int().positive()]),
    team: slug.optional(),
    user: login.optional(),
  })
  .refine((a) => (a.team === undefined) !== (a.user === undefined), 'must name exactly one of "team" and "user"');

const repositorySchema = z.strictObject({
  owner: login,
  name: repoName,
  private: z.boolean().optional(),
  description: nullableText,
  fork: z.boolean().optional(),
  // Only snapshots of refs/heads/<default_branch> are applied (interfaces.md Part 2).
  default_branch: branchName.optional(),
  custom_properties: z.record(propertyName, z.union([storableText(), z.array(storableText())])).optional(),
  collaborators: z.array(z.strictObject({ login, permission: z.enum(REPO_PERMISSIONS) })).optional(),
  // Facts the organization alert filters match on (spec §4.4).
  storage_records: z.array(z.strictObject({ artifact_registry: z.enum(ARTIFACT_REGISTRIES), artifact_registry_url: z.url() })).optional(),
  deployment_records: z.array(z.strictObject({ name: storableText().min(1).max(255), runtime_risks: z.array(z.enum(RUNTIME_RISKS)).default([]) })).optional(),
});

const cvss = z.strictObject({ vector_string: storableText().nullable(), score: z.number().min(0).max(10) });

const advisorySchema = z.strictObject({
  svcsa_id: storableText().min(1).max(64),
  cve_id: storableText().max(64).nullable().optional(),
  classification: z.enum(CLASSIFICATIONS).default('general'),
  summary: storableText(),
  description: storableText().default(''),
  severity: z.enum(SEVERITIES),
  cvss: cvss.optional(),
  cvss_severities: z.strictObject({ cvss_v3: cvss.nullable().optional(), cvss_v4: cvss.nullable().optional() }).optional(),
  epss: z.strictObject({ percentage: z.number().min(0).max(1), percentile: storableText() }).nullable().optional(),
  cwes: z.array(z.strictObject({ cwe_id: storableText(), name: storableText() })).default([]),
  identifiers: z.array(z.strictObject({ type: storableText(), value: storableText() })).default([]),
  references: z.array(z.strictObject({ url: storableText() })).default([]),
  published_at: timestamp,
  updated_at: timestamp,
  withdrawn_at: timestamp.nullable().optional(),
  vulnerabilities: z
    .array(
      z.strictObject({
        package: z.strictObject({ ecosystem: z.enum(ECOSYSTEMS), name: storableText().min(1) }),
        severity: z.enum(SEVERITIES),
        vulnerable_version_range: storableText(),
        first_patched_version: z.strictObject({ identifier: storableText() }).nullable().optional(),
      }),
    )
    .default([]),
});

export const alertSchema = z
  .strictObject({
    repository: repoRef,
    number: z.number().int().positive().optional(),
    advisory: storableText().min(1),
    package: z.strictObject({ ecosystem: z.enum(ECOSYSTEMS), name: storableText().min(1) }),
    manifest_path: storableText().min(1).max(1024),
    scope: z.enum(SCOPES).default('runtime'),
    relationship: z.enum(RELATIONSHIPS).default('unknown'),
    state: z.enum(ALERT_STATES).default('open'),
    created_at: timestamp.optional(),
    updated_at: timestamp.optional(),
    fixed_at: timestamp.nullable().optional(),
    auto_dismissed_at: timestamp.nullable().optional(),
    dismissed_at: timestamp.nullable().optional(),
    dismissed_by: login.nullable().optional(),
    dismissed_reason: z.enum(DISMISSED_REASONS).nullable().optional(),
    dismissed_comment: storableText().max(280).nullable().optional(),
    assignees: z.array(login).default([]),
  })
  .superRefine((a, ctx) => {
    // The alert invariants of spec §3: the dismissal fields go with the state.
    const dismissal = [a.dismissed_at, a.dismissed_by, a.dismissed_reason].map((v) => v ?? null);
    if (a.state === 'dismissed' && dismissal.includes(null)) {
      ctx.addIssue({ code: 'custom', message: 'a dismissed alert needs dismissed_at, dismissed_by and dismissed_reason' });
    }
    if (a.state !== 'dismissed' && (dismissal.some((v) => v !== null) || (a.dismissed_comment ?? null) !== null)) {
      ctx.addIssue({ code: 'custom', message: `a ${a.state} alert has no dismissal fields` });
    }
    if (a.state === 'fixed' && (a.fixed_at ?? null) === null) ctx.addIssue({ code: 'custom', message: 'a fixed alert needs fixed_at' });
    if (a.state === 'auto_dismissed' && (a.auto_dismissed_at ?? null) === null) {
      ctx.addIssue({ code: 'custom', message: 'an auto_dismissed alert needs auto_dismissed_at' });
    }
  });

const attestationSchema = z.strictObject({ repository: repoRef, bundle: z.record(storableText(), z.unknown()) });

/** S1's body with the repository it is for, checked as S1 checks it. */
const dependencySnapshotSchema = submissionSchema.extend({ repository: repoRef });

/** Exactly one owner: `org` or `repository`. */
const ruleOwner = { org: login.optional(), repository: repoRef.optional() };
function oneOwner(r: { org?: string | undefined; repository?: string | undefined }, ctx: z.core.$RefinementCtx): void {
  if ((r.org === undefined) === (r.repository === undefined)) ctx.addIssue({ code: 'custom', message: 'needs exactly one of "org" and "repository"' });
}

/** A rule as POST …/dependency-bot/rules takes it, with its owner; checked as the API checks it. */
const dependencyBotRuleSchema = z
  .strictObject({ ...ruleOwner, name: ruleName, enforcement: z.enum(ORG_ENFORCEMENTS).optional(), conditions: repoConditions, action: ruleAction.optional() })
  .superRefine((r, ctx) => {
    oneOwner(r, ctx);
    if (r.org !== undefined && r.conditions.manifest !== undefined) ctx.addIssue({ code: 'custom', path: ['conditions', 'manifest'], message: 'is allowed on repository rules only' });
    if (r.repository !== undefined && r.enforcement === 'enforced') ctx.addIssue({ code: 'custom', path: ['enforcement'], message: 'must be enabled or disabled on a repository rule' });
  });

const dependencyBotPresetSchema = z.strictObject({ ...ruleOwner, low_impact_development: z.boolean().nullable() }).superRefine(oneOwner);

/** A hook as POST …/hooks takes it (`name` aside), with its owner; checked as the API checks it. */
const webhookSchema = z
  .strictObject({ ...ruleOwner, config: hookConfigSchema, events: z.array(z.enum(WEBHOOK_EVENTS)).max(20).optional(), active: z.boolean().optional() })
  .superRefine(oneOwner);

/**
 * An audit-log record carried by a world (issue 37): history a world brings with it. Known by its
 * `document_id` (derived from the record when not given), so loading a world twice adds none twice.
 */
const auditRecordSchema = z.strictObject({
  document_id: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'must be 1 to 32 letters, digits, _ or -').optional(),
  created_at: timestamp,
  action: z.string().max(80).regex(/^[a-z0-9_]+(\.[a-z0-9_]+)+$/, 'must be area.verb in lower case'),
  operation_type: z.enum(OPERATION_TYPES),
  actor: storableText().min(1).max(255),
  actor_is_bot: z.boolean().optional(),
  org: login.optional(),
  repository: repoRef.optional(),
  user: login.optional(),
  /** `org/slug`. */
  team: storableText().regex(/^[^/\s]+\/[^/\s]+$/, 'must be "org/slug"').optional(),
  data: z.record(z.string(), z.unknown()).optional(),
});

const oidcSchema = z.strictObject({
  enterprise_property_inclusions: z.array(z.strictObject({ enterprise: slug, custom_property_name: propertyName })).optional(),
  organization_property_inclusions: z.array(z.strictObject({ org: login, custom_property_name: propertyName })).optional(),
  organization_subject_templates: z
    .array(z.strictObject({ org: login, include_claim_keys: claimKeys, use_immutable_subject: z.boolean().optional() }))
    .optional(),
  repository_subject_templates: z
    .array(
      z.strictObject({
        repository: repoRef,
        use_default: z.boolean(),
        include_claim_keys: claimKeys.optional(),
        use_immutable_subject: z.boolean().optional(),
      }),
    )
    .optional(),
});

const permissions = z.partialRecord(z.enum(PERMISSION_KEYS), z.enum(['read', 'write']));
const repositorySelection = z.union([z.literal('all'), z.array(repoName)]).default('all');
const tokenCommon = {
  token: z
    .string()
    .min(8)
    .max(255)
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .refine(hasValidChecksum, 'looks like a generated token but its checksum is wrong')
    .optional(),
  /** Tells apart tokens of one user (or app) and owner that are declared without a value. */
  name: storableText().min(1).max(100).optional(),
  expires_at: timestamp.nullable().optional(),
  revoked: z.boolean().optional(),
};

export const tokenDeclarationSchema = z.discriminatedUnion('type', [
  z.strictObject({ ...tokenCommon, type: z.enum(['classic', 'oauth']), user: login, scopes: z.array(z.enum(CLASSIC_SCOPES)).default([]) }),
  z.strictObject({
    ...tokenCommon, type: z.enum(['fine_grained', 'app_user']), user: login, app: storableText().min(1).max(100).optional(),
    resource_owner: storableText().min(1), repositories: repositorySelection, permissions,
  }),
  z.strictObject({
    ...tokenCommon, type: z.literal('installation'), app: storableText().min(1).max(100),
    resource_owner: storableText().min(1), repositories: repositorySelection, permissions,
  }),
]);
export type TokenDeclaration = z.output<typeof tokenDeclarationSchema>;

export const worldSchema = z.strictObject({
  users: z.array(userSchema).default([]),
  enterprises: z.array(enterpriseSchema).default([]),
  organizations: z.array(organizationSchema).default([]),
  teams: z.array(teamSchema).default([]),
  organization_roles: z.array(roleSchema).default([]),
  role_assignments: z.array(roleAssignmentSchema).default([]),
  repositories: z.array(repositorySchema).default([]),
  advisories: z.array(advisorySchema).default([]),
  alerts: z.array(alertSchema).default([]),
  attestations: z.array(attestationSchema).default([]),
  dependency_snapshots: z.array(dependencySnapshotSchema).default([]),
  dependency_bot_rules: z.array(dependencyBotRuleSchema).default([]),
  dependency_bot_presets: z.array(dependencyBotPresetSchema).default([]),
  webhooks: z.array(webhookSchema).default([]),
  audit_log: z.array(auditRecordSchema).default([]),
  oidc: oidcSchema.default({}),
  tokens: z.array(tokenDeclarationSchema).default([]),
});

export type World = z.output<typeof worldSchema>;
export type WorldAlertDeclaration = z.output<typeof alertSchema>;
