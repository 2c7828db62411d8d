import { ConflictError } from '../../src/errors/domain';
import { requestedTransition, stepsFor, transitionChanges, type Verdict } from '../../src/modules/dependency-alerts/alert-lifecycle';
import type { AlertState } from '../../src/modules/dependency-alerts/alerts.types';
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

describe('people\'s transitions (#27)', () => {
  const alert = (state: AlertState) => ({ number: 3, state });
  const refused = (state: AlertState, to: 'dismissed' | 'open') => {
    try {
      requestedTransition(alert(state), { state: to }, 5);
    } catch (error) {
      return error instanceof ConflictError ? error.message : error;
    }
    return undefined;
  };

  it('dismisses an open alert with the reason and comment given, by the sender', () => {
    expect(requestedTransition(alert('open'), { state: 'dismissed', dismissedReason: 'tolerable_risk', dismissedComment: 'fine' }, 5))
      .toEqual({ action: 'dismissed', dismissedById: 5, reason: 'tolerable_risk', comment: 'fine' });
    expect(requestedTransition(alert('open'), { state: 'dismissed' }, null)).toEqual({ action: 'dismissed', dismissedById: null, reason: null, comment: null });
  });

  it('reopens a dismissed or auto-dismissed alert; an open one stays as it is', () => {
    expect(requestedTransition(alert('dismissed'), { state: 'open' }, 5)).toEqual({ action: 'reopened' });
    expect(requestedTransition(alert('auto_dismissed'), { state: 'open' }, 5)).toEqual({ action: 'reopened' });
    expect(requestedTransition(alert('open'), { state: 'open' }, 5)).toBeNull();
  });

  it('answers 409 to what the lifecycle does not allow', () => {
    expect(refused('dismissed', 'dismissed')).toBe('Alert 3 is already dismissed');
    expect(refused('fixed', 'dismissed')).toBe('Alert 3 is fixed and cannot be dismissed');
    expect(refused('auto_dismissed', 'dismissed')).toBe('Alert 3 is auto dismissed and cannot be dismissed');
    expect(refused('fixed', 'open')).toBe('Alert 3 is fixed and cannot be reopened');
  });
});

describe('what a transition writes', () => {
  const now = '2026-12-01T00:00:00Z';

  it('writes a person\'s dismissal and reopening, each with its event', () => {
    expect(transitionChanges({ action: 'dismissed', dismissedById: 5, reason: 'not_used', comment: null }, now)).toEqual({
      changes: { state: 'dismissed', updated_at: now, dismissed_at: now, dismissed_by_id: 5, dismissed_reason: 'not_used', dismissed_comment: null },
      event: 'dismissed',
    });
    expect(transitionChanges({ action: 'reopened' }, now)).toEqual({
      changes: {
        state: 'open', updated_at: now, dismissed_at: null, dismissed_by_id: null, dismissed_reason: null, dismissed_comment: null, auto_dismissed_at: null, auto_dismissed_by: null,
      },
      event: 'reopened',
    });
  });

  it('writes the engine\'s steps, each with its event; a change of reason alone has none and keeps updated_at', () => {
    const write = (step: ReturnType<typeof stepsFor>[number]) => transitionChanges(step, now);
    expect(write({ action: 'created', state: 'open', autoDismissedBy: null })).toEqual({ changes: {}, event: 'created' });
    expect(write({ action: 'fixed', state: 'fixed', autoDismissedBy: null })).toEqual({
      changes: { state: 'fixed', updated_at: now, fixed_at: now, auto_dismissed_at: null, auto_dismissed_by: null }, event: 'fixed',
    });
    expect(write({ action: 'reintroduced', state: 'open', autoDismissedBy: null })).toEqual({ changes: { state: 'open', updated_at: now, fixed_at: null }, event: 'reintroduced' });
    expect(write({ action: 'auto_dismissed', state: 'auto_dismissed', autoDismissedBy: 'preset' })).toEqual({
      changes: { state: 'auto_dismissed', updated_at: now, auto_dismissed_at: now, auto_dismissed_by: 'preset' }, event: 'auto_dismissed',
    });
    expect(write({ action: 'auto_reopened', state: 'open', autoDismissedBy: null })).toEqual({
      changes: { state: 'open', updated_at: now, auto_dismissed_at: null, auto_dismissed_by: null }, event: 'auto_reopened',
    });
    expect(write({ action: null, state: 'auto_dismissed', autoDismissedBy: 'withdrawal' })).toEqual({ changes: { auto_dismissed_by: 'withdrawal' }, event: null });
  });
});
