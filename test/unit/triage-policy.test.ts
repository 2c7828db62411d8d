import type { RuleConditions, TriageRule } from '../../src/modules/auto-triage/auto-triage.types';
import type { TriageFacts } from '../../src/modules/auto-triage/triage-policy';
import { LOW_IMPACT_CWES, conditionsMatch, triagePolicy, type PolicyInputs } from '../../src/modules/auto-triage/triage-rules';

// The auto-triage decision against reference.md Part 2 "Alert lifecycle" and interfaces.md
// Part 2 "Auto-triage rules": enforcement across the two levels, the preset's defaults by
// visibility, each condition kind, and dismiss_until_patch.

const FACTS: TriageFacts = {
  ecosystem: 'npm', packageName: 'left-pad', manifestPath: 'app/package-lock.json', scope: 'development', severity: 'low',
  cweIds: ['CWE-400'], svcsaId: 'GHSA-3fvg-4v2m-98jf', cveId: 'CVE-2026-0001', hasPatch: false,
};
const facts = (over: Partial<TriageFacts> = {}): TriageFacts => ({ ...FACTS, ...over });

let nextId = 1;
function rule(conditions: RuleConditions, over: Partial<TriageRule> = {}): TriageRule {
  return { id: nextId++, name: 'r', enforcement: 'enabled', conditions, action: 'dismiss', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z', ...over };
}
/** A private repository with the preset off everywhere, unless said. */
const inputs = (over: Partial<PolicyInputs> = {}): PolicyInputs => ({ isPrivate: true, repoPreset: null, orgPreset: null, orgRules: [], repoRules: [], ...over });

describe('conditions', () => {
  it.each<[string, RuleConditions, Partial<TriageFacts>]>([
    ['severity', { severity: ['low', 'medium'] }, { severity: 'high' }],
    ['scope', { scope: ['development'] }, { scope: 'runtime' }],
    ['ecosystem', { ecosystem: ['npm'] }, { ecosystem: 'pip' }],
    ['package (case aside)', { package: ['Left-Pad'] }, { packageName: 'right-pad' }],
    ['cwe (any of the advisory\'s)', { cwe: ['CWE-79', 'CWE-400'] }, { cweIds: ['CWE-79x', 'CWE-89'] }],
    ['svcsa_id (case aside)', { svcsaId: ['ghsa-3fvg-4v2m-98jf'] }, { svcsaId: 'GHSA-35jh-r3h4-6jhm' }],
    ['cve_id', { cveId: ['CVE-2026-0001'] }, { cveId: null }],
    ['manifest', { manifest: ['app/package-lock.json'] }, { manifestPath: 'package-lock.json' }],
    ['has_patch', { hasPatch: false }, { hasPatch: true }],
  ])('%s matches any of its values and nothing else', (_kind, conditions, miss) => {
    expect(conditionsMatch(conditions, facts())).toBe(true);
    expect(conditionsMatch(conditions, facts(miss))).toBe(false);
  });

  it('needs every condition given to hold', () => {
    const conditions: RuleConditions = { severity: ['low'], ecosystem: ['npm'], scope: ['runtime'] };
    expect(conditionsMatch(conditions, facts())).toBe(false);
    expect(conditionsMatch(conditions, facts({ scope: 'runtime' }))).toBe(true);
  });
});

describe('enforcement across the two levels', () => {
  const low = { severity: ['low'] } as RuleConditions;

  it('applies an enabled organization rule', () => {
    const org = rule(low);
    expect(triagePolicy(inputs({ orgRules: [org] }))(facts())).toEqual({ kind: 'rule', ruleId: org.id, action: 'dismiss' });
  });

  it('lets a disabled repository rule with the same conditions opt out of an enabled organization rule', () => {
    const org = rule({ severity: ['low'], ecosystem: ['npm', 'pip'] });
    const optOut = rule({ ecosystem: ['pip', 'npm'], severity: ['low'] }, { enforcement: 'disabled' });
    expect(triagePolicy(inputs({ orgRules: [org], repoRules: [optOut] }))(facts())).toBeNull();
  });

  it('keeps an enabled organization rule when the disabled repository rule says something else', () => {
    const org = rule(low);
    const other = rule({ severity: ['low'], scope: ['development'] }, { enforcement: 'disabled' });
    expect(triagePolicy(inputs({ orgRules: [org], repoRules: [other] }))(facts())).toMatchObject({ ruleId: org.id });
  });

  it('applies an enforced organization rule whatever the repository says', () => {
    const org = rule(low, { enforcement: 'enforced' });
    const optOut = rule(low, { enforcement: 'disabled' });
    expect(triagePolicy(inputs({ orgRules: [org], repoRules: [optOut] }))(facts())).toMatchObject({ ruleId: org.id });
  });

  it('never applies a disabled rule at either level', () => {
    expect(triagePolicy(inputs({ orgRules: [rule(low, { enforcement: 'disabled' })], repoRules: [rule(low, { enforcement: 'disabled' })] }))(facts())).toBeNull();
  });

  it('applies an enabled repository rule', () => {
    const own = rule({ manifest: ['app/package-lock.json'] });
    expect(triagePolicy(inputs({ repoRules: [own] }))(facts())).toEqual({ kind: 'rule', ruleId: own.id, action: 'dismiss' });
  });
});

describe('dismiss_until_patch', () => {
  it('dismisses while the vulnerability has no patch, and lets go once it has one', () => {
    const untilPatch = rule({ severity: ['low'] }, { action: 'dismiss_until_patch' });
    const policy = triagePolicy(inputs({ repoRules: [untilPatch] }));
    expect(policy(facts({ hasPatch: false }))).toEqual({ kind: 'rule', ruleId: untilPatch.id, action: 'dismiss_until_patch' });
    expect(policy(facts({ hasPatch: true }))).toBeNull();
  });

  it('leaves a plain dismiss rule matching after the patch', () => {
    const dismiss = rule({ severity: ['low'] });
    expect(triagePolicy(inputs({ repoRules: [dismiss] }))(facts({ hasPatch: true }))).toMatchObject({ ruleId: dismiss.id });
  });
});

describe('the preset low_impact_development', () => {
  const PRESET = { kind: 'preset', preset: 'low_impact_development' };

  it('is on by default for public repositories and off for private ones', () => {
    expect(triagePolicy(inputs({ isPrivate: false }))(facts())).toEqual(PRESET);
    expect(triagePolicy(inputs({ isPrivate: true }))(facts())).toBeNull();
  });

  it('follows the organization where the repository says null', () => {
    expect(triagePolicy(inputs({ isPrivate: true, orgPreset: true }))(facts())).toEqual(PRESET);
    expect(triagePolicy(inputs({ isPrivate: false, orgPreset: false }))(facts())).toBeNull();
  });

  it('lets the repository\'s own true or false beat its organization\'s', () => {
    expect(triagePolicy(inputs({ isPrivate: false, orgPreset: true, repoPreset: false }))(facts())).toBeNull();
    expect(triagePolicy(inputs({ isPrivate: true, orgPreset: false, repoPreset: true }))(facts())).toEqual(PRESET);
  });

  it('matches npm development dependencies with one of its 23 CWEs, and nothing else', () => {
    expect(LOW_IMPACT_CWES.size).toBe(23);
    const on = triagePolicy(inputs({ repoPreset: true }));
    for (const cwe of LOW_IMPACT_CWES) expect(on(facts({ cweIds: ['CWE-79', cwe] }))).toEqual(PRESET);
    expect(on(facts({ cweIds: ['CWE-79'] }))).toBeNull();
    expect(on(facts({ cweIds: [] }))).toBeNull();
    expect(on(facts({ scope: 'runtime' }))).toBeNull();
    expect(on(facts({ ecosystem: 'pip' }))).toBeNull();
  });

  it('comes after the rules: a matching rule is named first', () => {
    const own = rule({ severity: ['low'] });
    expect(triagePolicy(inputs({ repoPreset: true, repoRules: [own] }))(facts())).toMatchObject({ kind: 'rule', ruleId: own.id });
  });
});
