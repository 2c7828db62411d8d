import type { AlertEventAction } from '../dependency-alerts/alert-events';
import type { AlertState, AutoDismissal } from '../dependency-alerts/alerts.types';
import type { TriageFacts, TriageMatch, TriagePolicy } from '../auto-triage/triage-policy';

// The lifecycle table of reference.md Part 2 "Alert lifecycle" as pure decisions: given what an
// alert is and what the evaluation found, the transitions it takes, in order. A person's
// `dismissed` is never changed; a world file's auto_dismissed alert (no recorded reason) is not
// reopened by the engine, which does not know why it was dismissed.

/** What the evaluation found about one alert's finding (advisory, package, manifest). */
export interface Verdict {
  /** The dependency is (still) in a vulnerable range. */
  vulnerable: boolean;
  /** The advisory is withdrawn. */
  withdrawn: boolean;
  /** What the alert is triaged by, as it would be now. */
  facts: TriageFacts;
}

/** One transition: the event action, the state after it, and why it is auto-dismissed after it. */
export interface Step {
  /** null: only the recorded reason of an auto-dismissal changes (no event, no updated_at). */
  action: AlertEventAction | null;
  state: AlertState;
  autoDismissedBy: AutoDismissal | null;
}

function dismissalOf(match: TriageMatch | null): AutoDismissal | null {
  return match === null ? null : match.kind;
}

/** Why an alert that is vulnerable now would be auto-dismissed: withdrawal first, then the policy. */
function autoDismissal(verdict: Verdict, policy: TriagePolicy): AutoDismissal | null {
  return verdict.withdrawn ? 'withdrawal' : dismissalOf(policy(verdict.facts));
}

/**
 * The transitions of an existing alert (state and recorded reason) or, with `current` null, of a
 * finding without an alert. `triageExempt`: a person just reopened it, so this evaluation does
 * not auto-dismiss it again (it may still be fixed at once).
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
