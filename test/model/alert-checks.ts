import { ORG } from './model-world';
import { alertKey, type Model, type ModelAlert } from './model';
import { expectStatus, send, type Real } from './real';

// What an alert's answer must say: the model's fields, and the invariants of spec §3 and
// reference.md checked on their own (so a model that drifted with the API would still be caught).

type Json = Record<string, any>;
const loginOrNull = (user: Json | null) => (user === null ? null : user.login);
const oneOf = (values: string[]) => expect.stringMatching(new RegExp(`^(${values.join('|')})$`));
const REASON = oneOf(['fix_started', 'inaccurate', 'no_bandwidth', 'not_used', 'tolerable_risk']);
const NO_DISMISSAL = { dismissed_at: null, dismissed_by: null, dismissed_reason: null, dismissed_comment: null };
const STATE_FIELDS = ['dismissed_at', 'dismissed_by', 'dismissed_reason', 'dismissed_comment', 'fixed_at', 'auto_dismissed_at'];
const STAMP = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

/** The fields each state allows, whatever the model says. */
function invariantOf(body: Json) {
  switch (body.state) {
    // An open alert carries no trace of a dismissal, an automatic one or a fix.
    case 'open': return { ...NO_DISMISSAL, fixed_at: null, auto_dismissed_at: null };
    // A dismissed one has its reason, time and dismisser; updated_at is the last state change: the dismissal.
    case 'dismissed': return {
      dismissed_at: body.updated_at, dismissed_by: expect.objectContaining({ login: expect.any(String) }), dismissed_reason: REASON,
      dismissed_comment: body.dismissed_comment === null ? null : expect.any(String), fixed_at: null, auto_dismissed_at: null,
    };
    // Fixed and auto-dismissed alerts come from the world, keep their time, and were never dismissed by anyone.
    case 'fixed': return { ...NO_DISMISSAL, fixed_at: STAMP, auto_dismissed_at: null };
    case 'auto_dismissed': return { ...NO_DISMISSAL, fixed_at: null, auto_dismissed_at: STAMP };
    default: return { state: oneOf(['open', 'dismissed', 'fixed', 'auto_dismissed']) };
  }
}

/** The alert invariants, independent of the model. */
export function expectAlertInvariants(body: Json): void {
  const fields = Object.fromEntries(STATE_FIELDS.map((key) => [key, body[key]]));
  expect({ number: body.number, state: body.state, ...fields }).toEqual({ number: body.number, state: body.state, ...invariantOf(body) });
  expect({ number: body.number, updated_at: body.updated_at, changedAfterCreation: body.updated_at >= body.created_at })
    .toEqual({ number: body.number, updated_at: STAMP, changedAfterCreation: true });
}

/** Every field of an alert's answer that the model knows, exactly. */
export function expectAlertBody(body: Json, alert: ModelAlert): void {
  const d = alert.declared;
  const got = {
    alert: alertKey(d.repository, d.number), number: body.number, state: body.state, dependency: body.dependency, advisory: body.security_advisory?.svcsa_id,
    created_at: body.created_at, updated_at: body.updated_at, fixed_at: body.fixed_at, auto_dismissed_at: body.auto_dismissed_at,
    dismissed_at: body.dismissed_at, dismissed_by: loginOrNull(body.dismissed_by), dismissed_reason: body.dismissed_reason,
    dismissed_comment: body.dismissed_comment, assignees: (body.assignees as Json[]).map((u) => u.login),
  };
  expect(got).toEqual({
    alert: alertKey(d.repository, d.number), number: d.number, state: alert.state,
    dependency: { package: d.package, manifest_path: d.manifest_path, scope: d.scope, relationship: d.relationship }, advisory: d.advisory,
    created_at: d.created_at, updated_at: alert.updatedAt, fixed_at: alert.fixedAt, auto_dismissed_at: alert.autoDismissedAt,
    dismissed_at: alert.dismissedAt, dismissed_by: alert.dismissedBy, dismissed_reason: alert.dismissedReason,
    dismissed_comment: alert.dismissedComment, assignees: alert.assignees,
  });
  expect(body.url).toMatch(new RegExp(`/repos/${d.repository}/dependency-bot/alerts/${d.number}$`));
  expectAlertInvariants(body);
}

/** After every step: the organization's whole alert list (as its owner sees it) against the model. */
export async function expectAllAlertsMatch(m: Model, real: Real): Promise<void> {
  const res = await send(real, 'owner', 'get', `/orgs/${ORG}/dependency-bot/alerts?per_page=100`);
  expectStatus(res, 200);
  const listed = new Map((res.body as Json[]).map((a) => [alertKey(a.repository.full_name, a.number), a]));
  // Same alerts, under the same numbers and repositories.
  expect([...listed.keys()].sort()).toEqual([...m.alerts.keys()].sort());
  for (const [key, alert] of m.alerts) {
    const body = listed.get(key)!;
    const { repository: _repository, ...withoutRepository } = body;
    expectAlertBody(withoutRepository, alert);
  }
}
