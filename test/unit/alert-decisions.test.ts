import { stepsFor, type Verdict } from '../../src/modules/alert-engine/alert-decisions';
import type { TriageFacts, TriagePolicy } from '../../src/modules/auto-triage/triage-policy';

// The lifecycle table (reference.md Part 2 "Alert lifecycle") as the engine decides it, with
// policies written as plain functions (the rules branch supplies the real ones).

const facts: TriageFacts = {
  ecosystem: 'npm', packageName: 'left-pad', manifestPath: 'package-lock.json', scope: 'development', severity: 'low',
  cweIds: ['CWE-400'], svcsaId: 'GHSA-1', cveId: null, hasPatch: false,
};
const verdict = (o: Partial<Verdict> = {}, f: Partial<TriageFacts> = {}): Verdict => ({ vulnerable: true, withdrawn: false, facts: { ...facts, ...f }, ...o });
const none: TriagePolicy = () => null;
const rule: TriagePolicy = () => ({ kind: 'rule', ruleId: 7, action: 'dismiss' });
/** A dismiss_until_patch rule: by the seam's contract it does not match once a patch exists. */
const untilPatch: TriagePolicy = (f) => (f.hasPatch ? null : { kind: 'rule', ruleId: 8, action: 'dismiss_until_patch' });
const preset: TriagePolicy = (f) => (f.scope === 'development' ? { kind: 'preset', preset: 'low_impact_development' } : null);
const actions = (steps: ReturnType<typeof stepsFor>) => steps.map((s) => [s.action, s.state, s.autoDismissedBy]);

describe('the engine\'s lifecycle decisions', () => {
  it('creates a vulnerable finding, and a rule dismisses it right after: created, then auto_dismissed', () => {
    expect(actions(stepsFor(null, verdict(), none))).toEqual([['created', 'open', null]]);
    expect(actions(stepsFor(null, verdict(), rule))).toEqual([['created', 'open', null], ['auto_dismissed', 'auto_dismissed', 'rule']]);
    expect(stepsFor(null, verdict({ vulnerable: false }), none)).toEqual([]);
    expect(stepsFor(null, verdict({ withdrawn: true }), none)).toEqual([]);
  });

  it('auto-dismisses an open alert a rule or preset matches; reopens it when none matches any more', () => {
    expect(actions(stepsFor({ state: 'open', autoDismissedBy: null }, verdict(), preset))).toEqual([['auto_dismissed', 'auto_dismissed', 'preset']]);
    // The scope moved from development to runtime: the preset no longer matches.
    expect(actions(stepsFor({ state: 'auto_dismissed', autoDismissedBy: 'preset' }, verdict({}, { scope: 'runtime' }), preset))).toEqual([['auto_reopened', 'open', null]]);
    expect(stepsFor({ state: 'auto_dismissed', autoDismissedBy: 'preset' }, verdict(), preset)).toEqual([]);
  });

  it('reopens what a dismiss_until_patch rule dismissed once the vulnerability has a patch', () => {
    expect(actions(stepsFor({ state: 'open', autoDismissedBy: null }, verdict(), untilPatch))).toEqual([['auto_dismissed', 'auto_dismissed', 'rule']]);
    expect(actions(stepsFor({ state: 'auto_dismissed', autoDismissedBy: 'rule' }, verdict({}, { hasPatch: true }), untilPatch))).toEqual([['auto_reopened', 'open', null]]);
  });

  it('auto-dismisses on withdrawal before any rule, and records a change of reason without an event', () => {
    expect(actions(stepsFor({ state: 'open', autoDismissedBy: null }, verdict({ withdrawn: true }), none))).toEqual([['auto_dismissed', 'auto_dismissed', 'withdrawal']]);
    expect(actions(stepsFor({ state: 'auto_dismissed', autoDismissedBy: 'rule' }, verdict({ withdrawn: true }), rule))).toEqual([[null, 'auto_dismissed', 'withdrawal']]);
    expect(actions(stepsFor({ state: 'auto_dismissed', autoDismissedBy: 'withdrawal' }, verdict(), none))).toEqual([['auto_reopened', 'open', null]]);
  });

  it('fixes open and auto-dismissed alerts no longer vulnerable, reintroduces fixed ones (then triages them)', () => {
    expect(actions(stepsFor({ state: 'open', autoDismissedBy: null }, verdict({ vulnerable: false }), rule))).toEqual([['fixed', 'fixed', null]]);
    expect(actions(stepsFor({ state: 'auto_dismissed', autoDismissedBy: 'rule' }, verdict({ vulnerable: false }), rule))).toEqual([['fixed', 'fixed', null]]);
    expect(actions(stepsFor({ state: 'fixed', autoDismissedBy: null }, verdict(), rule))).toEqual([['reintroduced', 'open', null], ['auto_dismissed', 'auto_dismissed', 'rule']]);
    expect(stepsFor({ state: 'fixed', autoDismissedBy: null }, verdict({ withdrawn: true }), none)).toEqual([]);
  });

  it('never changes a person\'s dismissal, nor a world file\'s auto-dismissal it has no reason for (unless fixed)', () => {
    expect(stepsFor({ state: 'dismissed', autoDismissedBy: null }, verdict({ vulnerable: false }), none)).toEqual([]);
    expect(stepsFor({ state: 'dismissed', autoDismissedBy: null }, verdict(), rule)).toEqual([]);
    expect(stepsFor({ state: 'auto_dismissed', autoDismissedBy: null }, verdict(), none)).toEqual([]);
    expect(actions(stepsFor({ state: 'auto_dismissed', autoDismissedBy: null }, verdict({ vulnerable: false }), none))).toEqual([['fixed', 'fixed', null]]);
  });

  it('leaves an alert a person just reopened open in that evaluation', () => {
    expect(stepsFor({ state: 'open', autoDismissedBy: null }, verdict(), rule, true)).toEqual([]);
    expect(actions(stepsFor({ state: 'open', autoDismissedBy: null }, verdict({ vulnerable: false }), rule, true))).toEqual([['fixed', 'fixed', null]]);
  });
});
