import { z } from 'zod';
import { repositorySummarySchema, userSummarySchema } from '../accounts/accounts.responses';
import { advisorySchema, packageSchema, vulnerabilitySchema } from '../advisories/advisories.responses';
import { ALERT_STATES, DISMISSED_REASONS } from './alerts.types';

// Response schemas of #23–#27 (spec §2.8 with reference.md's additions; the advisory's, §2.9,
// are advisories.responses.ts's), the shapes alerts.serializers.ts produces: every field present,
// null when empty.

const timestamp = z.iso.datetime();
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

/** #71: one path from a direct dependency of the alert's manifest (first) to its vulnerable package (last). */
export const dependencyPathSchema = z.strictObject({
  manifest_path: z.string(),
  packages: z.array(z.strictObject({
    package_url: z.string(),
    ecosystem: z.string().nullable().describe('The advisory ecosystem; null for package URL types no advisory names'),
    name: z.string(),
    version: z.string().nullable(),
    relationship: z.enum(['direct', 'indirect', 'unknown']).describe('As the snapshot or SBOM gave it'),
    scope: z.enum(['runtime', 'development']),
  })),
});
