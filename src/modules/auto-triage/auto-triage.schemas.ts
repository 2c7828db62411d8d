import { z } from 'zod';
import { integerString, pathName } from '../../http/params';
import type { InputContext } from '../../http/validate';
import { storableText } from '../../shared/storable-text';
import { ECOSYSTEMS } from '../advisories/ecosystems';
import { SCOPES, SEVERITIES } from '../dependency-alerts/alerts.types';
import { ORG_ENFORCEMENTS, REPO_ENFORCEMENTS, RULE_ACTIONS, type RuleConditions, type RuleInput, type RulePatch } from './auto-triage.types';

// Request schemas of the auto-triage operations (interfaces.md Part 2 "Auto-triage rules"):
// every key checked, unknown ones refused, so a 422 names the field and nothing is stored.

export const RULE_INPUT: InputContext = { resource: 'DependencyBotRule', invalidStatus: 422 };
export const PRESET_INPUT: InputContext = { resource: 'DependencyBotPresets', invalidStatus: 422 };

export const MAX_ORG_RULES = 25;
export const MAX_REPO_RULES = 10;
export const MAX_RULE_NAME = 100;
/** Values of one condition list. */
export const MAX_CONDITION_VALUES = 100;

export const orgPath = z.object({ org: pathName });
export const repoPath = z.object({ owner: pathName, repo: pathName });
const ruleId = integerString({ min: 1 });
export const orgRulePath = orgPath.extend({ rule_id: ruleId });
export const repoRulePath = repoPath.extend({ rule_id: ruleId });

const list = <T extends z.ZodType>(item: T) => z.array(item).min(1).max(MAX_CONDITION_VALUES);
const text = (max: number) => storableText().min(1).max(max);

const conditionShape = {
  severity: list(z.enum(SEVERITIES)).optional(),
  scope: list(z.enum(SCOPES)).optional(),
  ecosystem: list(z.enum(ECOSYSTEMS)).optional(),
  package: list(text(255)).optional(),
  cwe: list(z.string().regex(/^CWE-[1-9][0-9]{0,5}$/, 'must be a CWE id such as CWE-400')).optional(),
  svcsa_id: list(text(100)).optional(),
  cve_id: list(z.string().regex(/^CVE-[0-9]{4}-[0-9]{4,10}$/, 'must be a CVE id such as CVE-2026-12345')).optional(),
  manifest: list(text(1024)).optional(),
  has_patch: z.boolean().optional(),
};

const AT_LEAST_ONE = 'must have at least one condition';

/** A repository rule's conditions; an organization's are the same without `manifest`. */
export const repoConditions = z.strictObject(conditionShape).refine((c) => Object.keys(c).length > 0, AT_LEAST_ONE);
const orgConditions = z.strictObject({
  ...conditionShape,
  // Named, not just unknown: the caller learns why (interfaces.md: an organization rule with `manifest` → 422).
  manifest: z.unknown().refine(() => false, 'is allowed on repository rules only').optional(),
}).refine((c) => Object.keys(c).length > 0, AT_LEAST_ONE);

type ConditionsJson = z.output<typeof repoConditions>;

/** The JSON form of conditions (snake_case keys) as the domain writes them; keys not given stay absent. */
function conditionsOfJson(json: Partial<ConditionsJson>): RuleConditions {
  const names: Record<string, keyof RuleConditions> = { svcsa_id: 'svcsaId', cve_id: 'cveId', has_patch: 'hasPatch' };
  return Object.fromEntries(Object.entries(json).filter(([, v]) => v !== undefined).map(([k, v]) => [names[k] ?? k, v])) as RuleConditions;
}

export const ruleName = text(MAX_RULE_NAME);
export const ruleAction = z.enum(RULE_ACTIONS);

/** A created rule's domain input from its checked JSON: `enabled` and `dismiss` unless given. */
export function ruleInputOf(b: { name: string; enforcement?: string | undefined; conditions: object; action?: RuleInput['action'] | undefined }): RuleInput {
  return {
    name: b.name, enforcement: (b.enforcement ?? 'enabled') as RuleInput['enforcement'], conditions: conditionsOfJson(b.conditions as ConditionsJson), action: b.action ?? 'dismiss',
  };
}

/** POST and PATCH bodies at one level: enforcement and conditions differ by level. */
function ruleBodies(enforcement: z.ZodEnum<Record<string, string>>, conditions: typeof repoConditions | typeof orgConditions) {
  const create = z.strictObject({ name: ruleName, enforcement: enforcement.optional(), conditions, action: ruleAction.optional() }).transform(ruleInputOf);
  const update = z.strictObject({ name: ruleName.optional(), enforcement: enforcement.optional(), conditions: conditions.optional(), action: ruleAction.optional() })
    .transform((b): RulePatch => ({
      ...(b.name !== undefined ? { name: b.name } : {}),
      ...(b.enforcement !== undefined ? { enforcement: b.enforcement as RuleInput['enforcement'] } : {}),
      ...(b.conditions !== undefined ? { conditions: conditionsOfJson(b.conditions as ConditionsJson) } : {}),
      ...(b.action !== undefined ? { action: b.action } : {}),
    }));
  return { create, update };
}

const orgBodies = ruleBodies(z.enum(ORG_ENFORCEMENTS), orgConditions);
const repoBodies = ruleBodies(z.enum(REPO_ENFORCEMENTS), repoConditions);
export const orgRuleBody = orgBodies.create;
export const orgRulePatchBody = orgBodies.update;
export const repoRuleBody = repoBodies.create;
export const repoRulePatchBody = repoBodies.update;

export const presetsBody = z.strictObject({ low_impact_development: z.boolean().nullable() })
  .transform((b) => ({ lowImpactDevelopment: b.low_impact_development }));
