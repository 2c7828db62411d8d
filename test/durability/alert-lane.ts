import { isDeepStrictEqual } from 'node:util';
import type { ApiClient } from './api-client';
import { MEMBERS, ORG, OWNER, REPO } from './crash-world';
import { LaneCounts, pick, subset, type Lane, type Random } from './lane';

// #27 on a few alerts of its own: each write flips the state (dismiss with a reason, a
// comment unique to the write and new assignees; reopen with new assignees), so a write
// touches the alert row and its assignee rows together, and which write left an alert as
// it is can always be told.

const REASONS = ['fix_started', 'inaccurate', 'no_bandwidth', 'not_used', 'tolerable_risk'];
/** What an update may change; every other field must stay as it was. */
const CHANGED_BY_UPDATE = ['state', 'updated_at', 'dismissed_at', 'dismissed_by', 'dismissed_reason', 'dismissed_comment', 'assignees'];

export interface AlertUpdate {
  state: 'dismissed' | 'open';
  dismissed_reason?: string;
  dismissed_comment?: string;
  assignees: string[];
}

interface InFlight {
  number: number;
  request: AlertUpdate;
  before: any;
}

export const alertPath = (number: number) => `/repos/${ORG}/${REPO}/dependency-bot/alerts/${number}`;
const logins = (users: Array<{ login: string }>) => users.map((u) => u.login).sort();

function unchangedFields(alert: any) {
  return Object.fromEntries(Object.entries(alert).filter(([key]) => !CHANGED_BY_UPDATE.includes(key)));
}

/** Whether `actual` is `before` with the whole of `request` applied, by the owner, and nothing else. */
export function isWholeUpdate(actual: any, before: any, request: AlertUpdate): boolean {
  const dismissed = request.state === 'dismissed';
  return isDeepStrictEqual(unchangedFields(actual), unchangedFields(before))
    && actual.state === request.state
    && actual.updated_at >= before.updated_at
    && isDeepStrictEqual(logins(actual.assignees), [...request.assignees].sort())
    && (dismissed
      ? actual.dismissed_at === actual.updated_at && actual.dismissed_by?.login === OWNER
        && actual.dismissed_reason === request.dismissed_reason && actual.dismissed_comment === request.dismissed_comment
      : actual.dismissed_at === null && actual.dismissed_by === null && actual.dismissed_reason === null && actual.dismissed_comment === null);
}

export class AlertLane implements Lane {
  private readonly acknowledged = new Map<number, any>();
  private inFlight: InFlight | undefined;
  private sequence = 0;
  private readonly tally = new LaneCounts();

  constructor(readonly name: string, private readonly numbers: number[], private readonly random: Random) {}

  async write(api: ApiClient): Promise<string | undefined> {
    const number = pick(this.random, this.numbers);
    const before = this.acknowledged.get(number);
    const request: AlertUpdate = before.state === 'open'
      ? { state: 'dismissed', dismissed_reason: pick(this.random, REASONS), dismissed_comment: `${this.name} write ${++this.sequence}`, assignees: subset(this.random, MEMBERS) }
      : { state: 'open', assignees: subset(this.random, MEMBERS) };
    this.inFlight = { number, request, before };
    const answer = await api.send('PATCH', alertPath(number), request);
    this.inFlight = undefined;
    if (answer.status !== 200) return `${this.name}: PATCH alert ${number} answered ${answer.status} ${JSON.stringify(answer.body)}`;
    if (!isWholeUpdate(answer.body, before, request)) return `${this.name}: PATCH alert ${number} answered ${JSON.stringify(answer.body)} for ${JSON.stringify(request)}`;
    this.acknowledged.set(number, answer.body);
    this.tally.acknowledged += 1;
    return undefined;
  }

  async verify(api: ApiClient): Promise<string[]> {
    const problems: string[] = [];
    for (const number of this.numbers) {
      const { status, body: actual } = await api.send('GET', alertPath(number));
      if (status !== 200) {
        problems.push(`${this.name}: GET alert ${number} answered ${status}`);
        continue;
      }
      const expected = this.acknowledged.get(number);
      const pending = this.inFlight?.number === number ? this.inFlight : undefined;
      const asAcknowledged = expected === undefined || isDeepStrictEqual(actual, expected);
      const asInFlight = pending !== undefined && isWholeUpdate(actual, pending.before, pending.request);
      if (!asAcknowledged && !asInFlight) {
        problems.push(`${this.name}: alert ${number} is ${JSON.stringify(actual)}; acknowledged ${JSON.stringify(expected)}`
          + (pending ? `; in flight ${JSON.stringify(pending.request)}` : ''));
      }
      if (pending) this.tally.settle(!asAcknowledged);
      this.acknowledged.set(number, actual);
    }
    this.inFlight = undefined;
    return problems;
  }

  counts() {
    return this.tally.snapshot();
  }
}
