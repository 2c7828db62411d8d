import type { z } from 'zod';
import type { ruleConditionsSchema, ruleSchema, presetsSchema } from './auto-triage.responses';
import type { PresetSettings, RuleConditions, TriageRule } from './auto-triage.types';

// Domain → the REST shapes of auto-triage.responses.ts.

function serializeConditions(c: RuleConditions): z.output<typeof ruleConditionsSchema> {
  return {
    ...(c.severity ? { severity: c.severity } : {}),
    ...(c.scope ? { scope: c.scope } : {}),
    ...(c.ecosystem ? { ecosystem: c.ecosystem } : {}),
    ...(c.package ? { package: c.package } : {}),
    ...(c.cwe ? { cwe: c.cwe } : {}),
    ...(c.svcsaId ? { svcsa_id: c.svcsaId } : {}),
    ...(c.cveId ? { cve_id: c.cveId } : {}),
    ...(c.manifest ? { manifest: c.manifest } : {}),
    ...(c.hasPatch !== undefined ? { has_patch: c.hasPatch } : {}),
  };
}

export function serializeRule(rule: TriageRule): z.output<typeof ruleSchema> {
  return {
    id: rule.id, name: rule.name, enforcement: rule.enforcement, conditions: serializeConditions(rule.conditions), action: rule.action,
    created_at: rule.createdAt, updated_at: rule.updatedAt,
  };
}

export function serializePresets(presets: PresetSettings): z.output<typeof presetsSchema> {
  return { low_impact_development: presets.lowImpactDevelopment };
}
