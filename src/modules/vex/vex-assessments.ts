import type { AlertRecord, DismissedReason } from '../dependency-alerts/alerts.types';

// What an alert's state says as a VEX statement: the one mapping table, for CycloneDX 1.6
// (`vulnerabilities[].analysis`, https://cyclonedx.org/docs/1.6/json/#vulnerabilities_items_analysis)
// and OpenVEX 0.2.0 (a statement's status, https://github.com/openvex/spec). The README shows it;
// `assessmentFromCycloneDx` and `assessmentFromOpenVex` read it back (tests round-trip it).
//
// An open alert has been assessed by no one: in triage, under investigation. A dismissal is a
// person's assessment: "not used" is code not reachable (not affected), "inaccurate" a false
// positive, and the other three reasons an affected product with the action they chose, told
// apart by CycloneDX's response and by OpenVEX's action statement, whose first sentence is
// fixed per reason. Auto-triage dismisses by the organization's rules (affected, no action),
// or because the advisory was withdrawn (a false positive).

export type CycloneDxState = 'resolved' | 'exploitable' | 'in_triage' | 'false_positive' | 'not_affected';
export type CycloneDxJustification = 'code_not_reachable';
export type CycloneDxResponse = 'can_not_fix' | 'will_not_fix' | 'update';
export type OpenVexStatus = 'not_affected' | 'affected' | 'fixed' | 'under_investigation';
export type OpenVexJustification = 'vulnerable_code_not_in_execute_path';

/** The alert states VEX distinguishes: a dismissal by its reason, an auto-dismissal by its cause. */
export type AssessedState =
  | 'open' | 'fixed' | `dismissed:${DismissedReason}` | 'auto_dismissed:rule' | 'auto_dismissed:withdrawal';

export interface VexAssessment {
  cyclonedx: { state: CycloneDxState; justification?: CycloneDxJustification; response: CycloneDxResponse[] };
  /**
   * `statement` is the first sentence of OpenVEX's `action_statement` (affected) or
   * `impact_statement` (not affected without a justification), the comment following it.
   */
  openvex: { status: OpenVexStatus; justification?: OpenVexJustification; statement?: string };
}

export const VEX_ASSESSMENTS: Readonly<Record<AssessedState, VexAssessment>> = {
  'open': { cyclonedx: { state: 'in_triage', response: [] }, openvex: { status: 'under_investigation' } },
  'fixed': { cyclonedx: { state: 'resolved', response: [] }, openvex: { status: 'fixed' } },
  'dismissed:fix_started': {
    cyclonedx: { state: 'exploitable', response: ['update'] },
    openvex: { status: 'affected', statement: 'A fix has been started.' },
  },
  'dismissed:no_bandwidth': {
    cyclonedx: { state: 'exploitable', response: ['can_not_fix'] },
    openvex: { status: 'affected', statement: 'No fix is planned: there is no bandwidth to fix it.' },
  },
  'dismissed:tolerable_risk': {
    cyclonedx: { state: 'exploitable', response: ['will_not_fix'] },
    openvex: { status: 'affected', statement: 'No fix is planned: the risk is tolerable.' },
  },
  'dismissed:not_used': {
    cyclonedx: { state: 'not_affected', justification: 'code_not_reachable', response: [] },
    openvex: { status: 'not_affected', justification: 'vulnerable_code_not_in_execute_path' },
  },
  'dismissed:inaccurate': {
    cyclonedx: { state: 'false_positive', response: [] },
    openvex: { status: 'not_affected', statement: 'The alert is inaccurate.' },
  },
  'auto_dismissed:rule': {
    cyclonedx: { state: 'exploitable', response: ['will_not_fix'] },
    openvex: { status: 'affected', statement: 'No fix is planned: an auto-triage rule dismissed the alert.' },
  },
  'auto_dismissed:withdrawal': {
    cyclonedx: { state: 'false_positive', response: [] },
    openvex: { status: 'not_affected', statement: 'The advisory was withdrawn.' },
  },
};

/** The assessed state of an alert (an auto-dismissal a world file declared counts as a rule's). */
export function assessedState(alert: Pick<AlertRecord, 'state' | 'dismissedReason' | 'autoDismissedBy'>): AssessedState {
  switch (alert.state) {
    case 'open':
    case 'fixed':
      return alert.state;
    case 'dismissed':
      // The lifecycle never dismisses without a reason (alert-lifecycle.ts); a declared one may lack it.
      return `dismissed:${alert.dismissedReason ?? 'tolerable_risk'}`;
    case 'auto_dismissed':
      return alert.autoDismissedBy === 'withdrawal' ? 'auto_dismissed:withdrawal' : 'auto_dismissed:rule';
  }
}

const STATES = Object.keys(VEX_ASSESSMENTS) as AssessedState[];

/**
 * The assessed state a CycloneDX analysis says, by its standard fields alone; a dismissal by
 * a rule and one for tolerable risk read alike (the document's `orgsec:` properties tell them
 * apart), as do an inaccurate alert and a withdrawn advisory: the dismissal is the answer.
 */
export function assessmentFromCycloneDx(analysis: { state?: string; justification?: string; response?: readonly string[] }): AssessedState | undefined {
  return STATES.find((s) => {
    const c = VEX_ASSESSMENTS[s].cyclonedx;
    return c.state === analysis.state && c.justification === analysis.justification
      && c.response.join() === (analysis.response ?? []).join();
  });
}

/** The assessed state an OpenVEX statement says, by its status, justification and the first sentence of its action or impact statement: each state its own. */
export function assessmentFromOpenVex(statement: { status?: string; justification?: string; action_statement?: string; impact_statement?: string }): AssessedState | undefined {
  const text = statement.action_statement ?? statement.impact_statement;
  return STATES.find((s) => {
    const o = VEX_ASSESSMENTS[s].openvex;
    return o.status === statement.status && o.justification === statement.justification
      && (o.statement === undefined ? text === undefined : text?.startsWith(o.statement) === true);
  });
}
