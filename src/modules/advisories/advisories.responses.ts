import { z } from 'zod';
import { ADVISORY_TYPES } from './advisories.types';

// The advisory's response schemas, the shapes advisories.serializers.ts produces: spec §2.9 as
// alerts show it, and the global advisory as `GET /advisories` answers it, with the global list's
// fields (interfaces.md "Advisory database"); every field present, null when empty.

const timestamp = z.iso.datetime();
export const packageSchema = z.strictObject({ ecosystem: z.string(), name: z.string() });
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

/** The global list writes `first_patched_version` as a string, and names vulnerable functions. */
export const globalVulnerabilitySchema = vulnerabilitySchema.extend({
  first_patched_version: z.string().nullable(),
  vulnerable_functions: z.array(z.string()),
});

export const globalAdvisorySchema = advisorySchema.extend({
  url: z.string(),
  html_url: z.string(),
  type: z.enum(ADVISORY_TYPES),
  vulnerabilities: z.array(globalVulnerabilitySchema),
  source_code_location: z.string().nullable(),
  credits: z.array(z.strictObject({ name: z.string(), type: z.string().nullable(), contact: z.array(z.string()) })),
  reviewed_at: timestamp.nullable(),
  nvd_published_at: timestamp.nullable(),
});
