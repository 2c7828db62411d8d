import { z } from 'zod';
import { advisorySchema, vulnerabilitySchema } from '../dependency-alerts/alerts.responses';
import { ADVISORY_TYPES } from './advisories.types';

// The global advisory as `GET /advisories` answers it: spec §2.9 (as alerts show it) plus the
// global list's fields (interfaces.md "Advisory database"); every field present, null when empty.

const timestamp = z.iso.datetime();

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
