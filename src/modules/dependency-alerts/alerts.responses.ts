import { z } from 'zod';
import { repositorySummarySchema, userSummarySchema } from '../accounts/accounts.responses';
import { ALERT_STATES, DISMISSED_REASONS } from './alerts.types';

// Response schemas of #23–#27 (spec §2.8–2.9 with reference.md's additions), the shapes
// alerts.serializers.ts produces: every field present, null when empty.

const timestamp = z.iso.datetime();
const packageSchema = z.strictObject({ ecosystem: z.string(), name: z.string() });
const cvssSchema = z.strictObject({ vector_string: z.string().nullable(), score: z.number().nullable() });

/** §2.9 vulnerability entry. */
export const vulnerabilitySchema = z.strictObject({
  package: packageSchema,
  severity: z.string(),
  vulnerable_version_range: z.string().describe('A comma-separated comparator expression'),
  first_patched_version: z.strictObject({ identifier: z.string() }).nullable(),
});

/** §2.9 security advisory. */
export const advisorySchema = z.strictObject({
  svcsa_id: z.string(),
  cve_id: z.string().nullable(),
  summary: z.string(),
  description: z.string(),
  vulnerabilities: z.array(vulnerabilitySchema),
  severity: z.string(),
  cvss: cvssSchema,
  cvss_severities: z.strictObject({ cvss_v3: cvssSchema.nullable(), cvss_v4: cvssSchema.nullable() }),
  epss: z.strictObject({ percentage: z.number(), percentile: z.string().nullable() }).nullable(),
  cwes: z.array(z.strictObject({ cwe_id: z.string(), name: z.string() })),
  identifiers: z.array(z.strictObject({ type: z.string(), value: z.string() })),
  references: z.array(z.strictObject({ url: z.string() })),
  published_at: timestamp,
  updated_at: timestamp,
  withdrawn_at: timestamp.nullable(),
  classification: z.string(),
});

/** §2.8 dependency alert, as #25, #26 and #27 answer it (no `repository`). */
export const alertSchema = z.strictObject({
  number: z.int(),
  state: z.enum(ALERT_STATES),
  dependency: z.strictObject({
    package: packageSchema,
    manifest_path: z.string(),
    scope: z.string().describe('development or runtime'),
    relationship: z.string(),
  }),
  security_advisory: advisorySchema,
  security_vulnerability: vulnerabilitySchema.nullable(),
  url: z.string(),
  html_url: z.string(),
  created_at: timestamp,
  updated_at: timestamp.describe('The time the alert\'s state last changed'),
  dismissed_at: timestamp.nullable(),
  dismissed_by: userSummarySchema.nullable(),
  dismissed_reason: z.enum(DISMISSED_REASONS).nullable(),
  dismissed_comment: z.string().nullable(),
  fixed_at: timestamp.nullable(),
  auto_dismissed_at: timestamp.nullable(),
  assignees: z.array(userSummarySchema),
});

/** §2.8 in the enterprise and organization lists (#23, #24): with its repository. */
export const alertWithRepositorySchema = alertSchema.extend({ repository: repositorySummarySchema });
