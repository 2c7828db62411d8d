import type { RuleConditions, TriageRule } from './auto-triage.types';
import type { TriageFacts, TriageMatch, TriagePolicy } from './triage-policy';

// The auto-triage decision as a pure function over domain types (reference.md Part 2 "Alert
// lifecycle"): which rules are in force for a repository, whether one matches an alert, and the
// preset `low_impact_development`.

/** reference.md Part 2: the CWEs of "dismiss low impact issues for development-scoped dependencies". */
export const LOW_IMPACT_CWES: ReadonlySet<string> = new Set([
  400, 770, 409, 908, 1333, 835, 674, 1119, 185, 754, 755, 248, 252, 391, 696, 1254, 665, 703, 178, 544, 377, 451, 668,
].map((n) => `CWE-${n}`));

/** What a repository's policy is built from. */
export interface PolicyInputs {
  isPrivate: boolean;
  repoPreset: boolean | null;
  orgPreset: boolean | null;
  orgRules: readonly TriageRule[];
  repoRules: readonly TriageRule[];
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const anyOf = (values: readonly string[] | undefined, fact: string | null, equal = (a: string, b: string) => a === b) =>
  values === undefined || (fact !== null && values.some((v) => equal(v, fact)));

/** Whether every condition a rule gives holds for the alert (a list matches any of its values). */
export function conditionsMatch(conditions: RuleConditions, facts: TriageFacts): boolean {
  return anyOf(conditions.severity, facts.severity)
    && anyOf(conditions.scope, facts.scope)
    && anyOf(conditions.ecosystem, facts.ecosystem)
    // Package and advisory ids are compared as their registries do: case aside.
    && anyOf(conditions.package, facts.packageName, same)
    && (conditions.cwe === undefined || conditions.cwe.some((cwe) => facts.cweIds.some((id) => same(id, cwe))))
    && anyOf(conditions.svcsaId, facts.svcsaId, same)
    && anyOf(conditions.cveId, facts.cveId, same)
    && anyOf(conditions.manifest, facts.manifestPath)
    && (conditions.hasPatch === undefined || conditions.hasPatch === facts.hasPatch);
}

/** Conditions written so that two rules saying the same thing compare equal (value order and case aside). */
function conditionsKey(conditions: RuleConditions): string {
  const entries = Object.entries(conditions)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => [key, Array.isArray(value) ? [...new Set(value.map((v: string) => v.toLowerCase()))].sort() : value] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/**
 * The rules in force for one repository, in the order they are tried: the organization's
 * `enforced` rules whatever the repository says, its `enabled` ones unless the repository has a
 * `disabled` rule with the same conditions, then the repository's `enabled` rules.
 */
function rulesInForce(orgRules: readonly TriageRule[], repoRules: readonly TriageRule[]): TriageRule[] {
  const optedOut = new Set(repoRules.filter((r) => r.enforcement === 'disabled').map((r) => conditionsKey(r.conditions)));
  return [
    ...orgRules.filter((r) => r.enforcement === 'enforced'),
    ...orgRules.filter((r) => r.enforcement === 'enabled' && !optedOut.has(conditionsKey(r.conditions))),
    ...repoRules.filter((r) => r.enforcement === 'enabled'),
  ];
}

/** The preset's setting in force: the repository's own, else its organization's, else on for public repositories only. */
function isLowImpactDevelopmentOn(inputs: Pick<PolicyInputs, 'isPrivate' | 'repoPreset' | 'orgPreset'>): boolean {
  return inputs.repoPreset ?? inputs.orgPreset ?? !inputs.isPrivate;
}

function lowImpactDevelopmentMatches(facts: TriageFacts): boolean {
  return facts.ecosystem === 'npm' && facts.scope === 'development' && facts.cweIds.some((id) => LOW_IMPACT_CWES.has(id.toUpperCase()));
}

/** One repository's policy: the first rule in force that matches, else the preset, else null. */
export function triagePolicy(inputs: PolicyInputs): TriagePolicy {
  const rules = rulesInForce(inputs.orgRules, inputs.repoRules);
  const presetOn = isLowImpactDevelopmentOn(inputs);
  return (facts: TriageFacts): TriageMatch | null => {
    for (const rule of rules) {
      // A dismiss_until_patch rule lets go of an alert once its vulnerability has a patch.
      if (rule.action === 'dismiss_until_patch' && facts.hasPatch) continue;
      if (conditionsMatch(rule.conditions, facts)) return { kind: 'rule', ruleId: rule.id, action: rule.action };
    }
    return presetOn && lowImpactDevelopmentMatches(facts) ? { kind: 'preset', preset: 'low_impact_development' } : null;
  };
}
