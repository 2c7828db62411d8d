import fc from 'fast-check';
import { REPOS, USERS, type Caller, type Login, type RepoName } from './model-world';
import { alertAccess, alertKey, canBeAssigned, type Model } from './model';
import { expectAlertBody } from './alert-checks';
import { expectRefused, expectStatus, loginOf, send, unchangedBy, type Body, type Real } from './real';
import { StepCommand, callerArb, nowStamp } from './step-command';

// #26 and #27: reading an alert, and every kind of update, good and bad.

const REASONS = ['fix_started', 'inaccurate', 'no_bandwidth', 'not_used', 'tolerable_risk'] as const;
/** Alert numbers 1–4 exist in each repository; 5 does not. */
const MISSING_NUMBER = 5;

export interface AlertPatch {
  state?: 'dismissed' | 'open';
  dismissed_reason?: (typeof REASONS)[number];
  dismissed_comment?: string | null;
  assignees?: string[];
}

const alertPath = (repo: RepoName, number: number) => `/repos/${repo}/dependency-bot/alerts/${number}`;
/** A comment that can come back as sent: no NUL (PostgreSQL cannot hold it), no lone surrogate. */
const isStorableComment = (comment: string | null | undefined) => typeof comment !== 'string' || /^[^\u0000\uD800-\uDFFF]*$/u.test(comment);
const sameSet = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x) => b.includes(x));

class UpdateAlert extends StepCommand {
  constructor(readonly caller: Caller, readonly repo: RepoName, readonly number: number, readonly patch: AlertPatch) {
    super();
  }

  toString() {
    return `${this.caller}: PATCH ${this.repo}#${this.number} ${JSON.stringify(this.patch)}`;
  }

  protected async step(m: Model, real: Real): Promise<void> {
    const { patch } = this;
    const request = () => send(real, this.caller, 'patch', alertPath(this.repo, this.number), { json: patch });
    if (!isStorableComment(patch.dismissed_comment)) {
      // The body is checked before the caller: refused alike on both databases, whoever sends it.
      const res = await expectRefused(real, 422, request);
      expect(res.body.errors?.[0]?.field).toBe('dismissed_comment');
      return;
    }
    const who = loginOf(this.caller);
    const access = alertAccess(m, who, this.repo);
    if (access !== 200) return void (await expectRefused(real, access, request));
    const alert = m.alerts.get(alertKey(this.repo, this.number));
    if (!alert) return void (await expectRefused(real, 404, request));
    const invalid = patch.assignees?.find((login) => !canBeAssigned(m, login, this.repo));
    if (invalid !== undefined) {
      const res = await expectRefused(real, 422, request);
      expect({ message: res.body.message, field: res.body.errors?.[0]?.field }).toEqual({ message: expect.stringContaining(invalid), field: 'assignees' });
      return;
    }
    // Only an open alert can be dismissed; a fixed one cannot be reopened.
    const conflict = patch.state === 'dismissed' ? alert.state !== 'open' : patch.state === 'open' && alert.state === 'fixed';
    if (conflict) {
      const res = await expectRefused(real, 409, request);
      if (alert.state === 'dismissed') expect(res.body.message).toBe(`Alert ${this.number} is already dismissed`);
      return;
    }
    const changesState = patch.state === 'dismissed' || (patch.state === 'open' && alert.state !== 'open');
    const assignees = patch.assignees === undefined ? alert.assignees
      : ([...new Set(patch.assignees)] as Login[]).sort((a, b) => real.userId(a) - real.userId(b));
    const changes = changesState || !sameSet(assignees, alert.assignees);
    const started = nowStamp();
    // Reopening an open alert, or naming the same assignees, changes nothing at all.
    const res = changes ? await request() : await unchangedBy(real, request);
    const finished = nowStamp();
    expectStatus(res, 200);
    alert.assignees = assignees;
    if (changesState) {
      // updated_at moves to the time of the change (whole seconds, so never back).
      const updatedAt: string = res.body.updated_at;
      expect({ updatedAt, inWindow: updatedAt >= started && updatedAt <= finished && updatedAt >= alert.updatedAt }).toEqual({ updatedAt, inWindow: true });
      alert.updatedAt = updatedAt;
      if (patch.state === 'dismissed') {
        Object.assign(alert, {
          state: 'dismissed', dismissedAt: updatedAt, dismissedBy: who, dismissedReason: patch.dismissed_reason!, dismissedComment: patch.dismissed_comment ?? null,
        });
      } else {
        Object.assign(alert, { state: 'open', dismissedAt: null, dismissedBy: null, dismissedReason: null, dismissedComment: null, autoDismissedAt: null });
      }
    }
    expectAlertBody(res.body, alert);
  }
}

/** #27 with a body the schema refuses (by the owner, so the body is the only thing wrong). */
class UpdateAlertBadly extends StepCommand {
  constructor(readonly repo: RepoName, readonly number: number, readonly what: string, readonly body: Body, readonly status: 400 | 422) {
    super();
  }

  toString() {
    return `owner: PATCH ${this.repo}#${this.number} with ${this.what}`;
  }

  protected async step(_m: Model, real: Real): Promise<void> {
    await expectRefused(real, this.status, () => send(real, 'owner', 'patch', alertPath(this.repo, this.number), this.body));
  }
}

class GetAlert extends StepCommand {
  constructor(readonly caller: Caller, readonly repo: RepoName, readonly number: number) {
    super();
  }

  toString() {
    return `${this.caller}: GET ${this.repo}#${this.number}`;
  }

  protected async step(m: Model, real: Real): Promise<void> {
    const access = alertAccess(m, loginOf(this.caller), this.repo);
    const alert = m.alerts.get(alertKey(this.repo, this.number));
    const request = () => send(real, this.caller, 'get', alertPath(this.repo, this.number));
    if (access !== 200 || !alert) return void (await expectRefused(real, access !== 200 ? access : 404, request));
    const res = await request();
    expectStatus(res, 200);
    expect(res.body.repository).toBeUndefined();
    expectAlertBody(res.body, alert);
  }
}

const repoArb = fc.constantFrom(...REPOS);
const numberArb = fc.oneof({ arbitrary: fc.integer({ min: 1, max: 4 }), weight: 6 }, { arbitrary: fc.constant(MISSING_NUMBER), weight: 1 });
/**
 * Mostly users who can be assigned at the start (an owner, a writer, a security manager), so
 * assignments happen; sometimes any login, one of them nobody, so refusals happen too.
 */
const assigneesArb = fc.oneof(
  { weight: 4, arbitrary: fc.uniqueArray(fc.constantFrom<string>('mb-owner', 'mb-writer', 'mb-secmgr'), { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.uniqueArray(fc.constantFrom<string>(...USERS, 'mb-nobody'), { maxLength: 3 }) },
);
const commentArb = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'binary', maxLength: 12 }), // any code point, NUL included
  fc.constant('c'.repeat(280)), // the longest allowed
  fc.constant('a lone \ud800 surrogate'),
  fc.constant(null),
);

const patchArb: fc.Arbitrary<AlertPatch> = fc.oneof(
  fc.record({ state: fc.constant('dismissed' as const), dismissed_reason: fc.constantFrom(...REASONS), dismissed_comment: commentArb, assignees: assigneesArb },
    { requiredKeys: ['state', 'dismissed_reason'] }),
  fc.record({ state: fc.constant('open' as const), assignees: assigneesArb }, { requiredKeys: ['state'] }),
  fc.record({ assignees: assigneesArb }),
);

const BAD_BODIES: Array<[string, Body, 400 | 422]> = [
  ['nothing to change', { json: {} }, 422],
  ['dismissed without a reason', { json: { state: 'dismissed' } }, 422],
  ['a reason outside the list', { json: { state: 'dismissed', dismissed_reason: 'meh' } }, 422],
  ['the fixed state', { json: { state: 'fixed' } }, 422],
  ['a reason with state open', { json: { state: 'open', dismissed_reason: 'not_used' } }, 422],
  ['a comment over 280 characters', { json: { state: 'dismissed', dismissed_reason: 'not_used', dismissed_comment: 'c'.repeat(281) } }, 422],
  ['eleven assignees', { json: { assignees: Array.from({ length: 11 }, (_, i) => `mb-user-${i}`) } }, 422],
  ['a read-only key', { json: { state: 'open', number: 9 } }, 422],
  ['a body that is not an object', { raw: '["open"]' }, 400],
  ['malformed JSON', { raw: '{"state": "open"' }, 400],
];

/** Updates most often: they are what the invariants are about. */
export const alertCommands: Array<fc.WeightedArbitrary<fc.AsyncCommand<Model, Real>>> = [
  { weight: 6, arbitrary: fc.tuple(callerArb, repoArb, numberArb, patchArb).map(([caller, repo, number, patch]) => new UpdateAlert(caller, repo, number, patch)) },
  { weight: 1, arbitrary: fc.tuple(repoArb, numberArb, fc.constantFrom(...BAD_BODIES)).map(([repo, number, [what, body, status]]) => new UpdateAlertBadly(repo, number, what, body, status)) },
  { weight: 2, arbitrary: fc.tuple(callerArb, repoArb, numberArb).map(([caller, repo, number]) => new GetAlert(caller, repo, number)) },
];
