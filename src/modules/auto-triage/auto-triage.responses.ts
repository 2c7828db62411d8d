import { z } from 'zod';
import { ECOSYSTEMS } from '../advisories/ecosystems';
import { SCOPES, SEVERITIES } from '../dependency-alerts/alerts.types';
import { ORG_ENFORCEMENTS, RULE_ACTIONS } from './auto-triage.types';

// Response schemas of the auto-triage operations (interfaces.md Part 2 "Auto-triage rules").

/** A rule's conditions: only those it gives. */
export const ruleConditionsSchema = z.strictObject({
  severity: z.array(z.enum(SEVERITIES)).optional(),
  scope: z.array(z.enum(SCOPES)).optional(),
  ecosystem: z.array(z.enum(ECOSYSTEMS)).optional(),
  package: z.array(z.string()).optional(),
  cwe: z.array(z.string()).optional(),
  svcsa_id: z.array(z.string()).optional(),
  cve_id: z.array(z.string()).optional(),
  manifest: z.array(z.string()).optional().describe('repository rules only'),
  has_patch: z.boolean().optional(),
});

export const ruleSchema = z.strictObject({
  id: z.int(),
  name: z.string(),
  enforcement: z.enum(ORG_ENFORCEMENTS).describe('organization rules: enforced, enabled or disabled; repository rules: enabled or disabled'),
  conditions: ruleConditionsSchema,
  action: z.enum(RULE_ACTIONS),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const presetsSchema = z.strictObject({
  low_impact_development: z.boolean().nullable()
    .describe('Dismiss low impact issues for development-scoped npm dependencies. null: the default (the organization\'s setting, else on for public repositories and off for private ones)'),
});
