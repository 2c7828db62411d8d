import { ConflictError } from '../../errors/domain';
import type { TriageFacts, TriageMatch, TriagePolicy } from '../auto-triage/triage-policy';
import type { AlertEventAction } from './alert-events';
import type { AlertChanges } from './alerts.store';
import type { AlertPatch, AlertRecord, AlertState, AutoDismissal, DismissedReason } from './alerts.types';

// The alert lifecycle (spec §3, reference.md Part 2 "Alert lifecycle"), in one place: the
// transitions people ask for (#27), the engine's lifecycle table as pure decisions, and what
// every transition writes (transitionChanges), for DependencyAlertsService.update and the alert
// engine alike. A person's `dismissed` is never changed by the engine; a world file's
// auto_dismissed alert (no recorded reason) is not reopened by the engine, which does not know
// why it was dismissed.

/** What the evaluation found about one alert's finding (advisory, package, manifest). */
export interface Verdict {
  /** The dependency is (still) in a vulnerable range. */
  vulnerable: boolean;
  /** The advisory is withdrawn. */
  withdrawn: boolean;
  /** What the alert is triaged by, as it would be now. */
  facts: TriageFacts;
}

/** One transition the engine takes: the event action, the state after it, and why it is auto-dismissed after it. */
export interface Step {
  /** null: only the recorded reason of an auto-dismissal changes (no event, no updated_at). */
  action: 'created' | 'fixed' | 'reintroduced' | 'auto_dismissed' | 'auto_reopened' | null;
  state: AlertState;
  autoDismissedBy: AutoDismissal | null;
}

/** A transition a person asks for (#27): a dismissal with its reason, or a reopening. */
export type RequestedTransition =
  | { action: 'dismissed'; dismissedById: number | null; reason: DismissedReason | null; comment: string | null }
  | { action: 'reopened' };

export type Transition = Step | RequestedTransition;

function dismissalOf(match: TriageMatch | null): AutoDismissal | null {
  return match === null ? null : match.kind;
}

/** Why an alert that is vulnerable now would be auto-dismissed: withdrawal first, then the policy. */
function autoDismissal(verdict: Verdict, policy: TriagePolicy): AutoDismissal | null {
  return verdict.withdrawn ? 'withdrawal' : dismissalOf(policy(verdict.facts));
}

/**
 * The engine's transitions of an existing alert (state and recorded reason) or, with `current`
 * null, of a finding without an alert, in order. `triageExempt`: a person just reopened it, so
 * this evaluation does not auto-dismiss it again (it may still be fixed at once).
 */
export function stepsFor(current: { state: AlertState; autoDismissedBy: AutoDismissal | null } | null, verdict: Verdict, policy: TriagePolicy, triageExempt = false): Step[] {
  const triage = (): Step[] => {
    if (triageExempt) return [];
    const by = autoDismissal(verdict, policy);
    return by === null ? [] : [{ action: 'auto_dismissed', state: 'auto_dismissed', autoDismissedBy: by }];
  };
  if (current === null) {
    return verdict.vulnerable && !verdict.withdrawn ? [{ action: 'created', state: 'open', autoDismissedBy: null }, ...triage()] : [];
  }
  switch (current.state) {
    case 'dismissed':
      return [];
    case 'open':
      return verdict.vulnerable ? triage() : [{ action: 'fixed', state: 'fixed', autoDismissedBy: null }];
    case 'fixed':
      return verdict.vulnerable && !verdict.withdrawn ? [{ action: 'reintroduced', state: 'open', autoDismissedBy: null }, ...triage()] : [];
    case 'auto_dismissed': {
      if (!verdict.vulnerable) return [{ action: 'fixed', state: 'fixed', autoDismissedBy: null }];
      if (current.autoDismissedBy === null) return [];
      const by = autoDismissal(verdict, policy);
      if (by === null) return [{ action: 'auto_reopened', state: 'open', autoDismissedBy: null }];
      return by === current.autoDismissedBy ? [] : [{ action: null, state: 'auto_dismissed', autoDismissedBy: by }];
    }
  }
}

/**
 * The transition a person's requested state makes (spec §3, reference.md), null when the alert
 * is open already (nothing changes), or a 409. `senderId`: the person (null for an app's token).
 */
export function requestedTransition(
  alert: Pick<AlertRecord, 'number' | 'state'>, patch: AlertPatch & { state: 'dismissed' | 'open' }, senderId: number | null,
): RequestedTransition | null {
  if (patch.state === 'dismissed') {
    if (alert.state === 'dismissed') throw new ConflictError(`Alert ${alert.number} is already dismissed`);
    if (alert.state !== 'open') throw new ConflictError(`Alert ${alert.number} is ${alert.state.replace('_', ' ')} and cannot be dismissed`);
    return { action: 'dismissed', dismissedById: senderId, reason: patch.dismissedReason ?? null, comment: patch.dismissedComment ?? null };
  }
  if (alert.state === 'fixed') throw new ConflictError(`Alert ${alert.number} is fixed and cannot be reopened`);
  return alert.state === 'open' ? null : { action: 'reopened' };
}

/** What a transition writes: the alert's columns, and the action of the event it records (null: none). */
export interface TransitionWrite {
  changes: AlertChanges;
  event: AlertEventAction | null;
}

/** The one place a transition becomes columns and an event, for people and the engine alike. */
export function transitionChanges(transition: Transition, now: string): TransitionWrite {
  switch (transition.action) {
    case null:
      return { changes: { auto_dismissed_by: transition.autoDismissedBy }, event: null };
    case 'created':
      // The engine inserts the alert as it is after this step (open, created now).
      return { changes: {}, event: 'created' };
    case 'fixed':
      return { changes: { state: 'fixed', updated_at: now, fixed_at: now, auto_dismissed_at: null, auto_dismissed_by: null }, event: 'fixed' };
    case 'reintroduced':
      return { changes: { state: 'open', updated_at: now, fixed_at: null }, event: 'reintroduced' };
    case 'auto_dismissed':
      return { changes: { state: 'auto_dismissed', updated_at: now, auto_dismissed_at: now, auto_dismissed_by: transition.autoDismissedBy }, event: 'auto_dismissed' };
    case 'auto_reopened':
      return { changes: { state: 'open', updated_at: now, auto_dismissed_at: null, auto_dismissed_by: null }, event: 'auto_reopened' };
    case 'dismissed':
      return {
        changes: {
          state: 'dismissed', updated_at: now, dismissed_at: now, dismissed_by_id: transition.dismissedById,
          dismissed_reason: transition.reason, dismissed_comment: transition.comment,
        },
        event: 'dismissed',
      };
    case 'reopened':
      return {
        changes: {
          state: 'open', updated_at: now, dismissed_at: null, dismissed_by_id: null, dismissed_reason: null, dismissed_comment: null,
          auto_dismissed_at: null, auto_dismissed_by: null,
        },
        event: 'reopened',
      };
  }
}
