import { isDeepStrictEqual } from 'node:util';
import { alertPath } from '../durability/alert-lane';
import type { ApiClient } from '../durability/api-client';
import { ALERT_COUNT, MEMBERS } from '../durability/crash-world';

// The crash world's alerts as a client saw them over time, for the tests of copies taken
// while writes go on (`orgsec backup`, pg_dump): a copy must answer each alert as one of
// the acknowledged writes left it, never older than what was acknowledged before it began.

/** Each alert's every acknowledged state, oldest first (index 0: as first read). */
export type AlertHistory = Map<number, any[]>;

export async function readAlertStates(api: ApiClient): Promise<AlertHistory> {
  const history: AlertHistory = new Map();
  for (let number = 1; number <= ALERT_COUNT; number++) history.set(number, [(await api.send('GET', alertPath(number))).body]);
  return history;
}

/** Flips alerts between dismissed and open, one write at a time, until stopped; records each acknowledged answer. */
export async function patchMix(api: ApiClient, history: AlertHistory, isRunning: () => boolean): Promise<number> {
  let writes = 0;
  while (isRunning()) {
    const number = 1 + (writes % ALERT_COUNT);
    const states = history.get(number)!;
    const open = states[states.length - 1].state === 'open';
    const body = open
      ? { state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: `copy-test write ${writes}`, assignees: [MEMBERS[writes % MEMBERS.length]!] }
      : { state: 'open', assignees: [] };
    const answer = await api.send('PATCH', alertPath(number), body);
    if (answer.status !== 200) throw new Error(`PATCH answered ${answer.status} ${JSON.stringify(answer.body)}`);
    states.push(answer.body);
    writes += 1;
  }
  return writes;
}

/** How many writes `patchMix` has had acknowledged so far, over all alerts. */
export function acknowledgedWrites(history: AlertHistory): number {
  let writes = 0;
  for (const states of history.values()) writes += states.length - 1;
  return writes;
}

/** Resolves once `count` more writes than now are acknowledged: the writer is live, however loaded the machine (a fixed wait is not). */
export async function moreWritesAcknowledged(history: AlertHistory, count: number, timeoutMs = 30_000): Promise<void> {
  const target = acknowledgedWrites(history) + count;
  const deadline = Date.now() + timeoutMs;
  while (acknowledgedWrites(history) < target) {
    if (Date.now() > deadline) throw new Error(`fewer than ${count} writes acknowledged in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** How many states each alert had acknowledged at this moment. */
export function acknowledgedSoFar(history: AlertHistory): Map<number, number> {
  return new Map([...history].map(([number, states]) => [number, states.length - 1]));
}

/** The alerts of `copy` that no acknowledged write left so, or older than `before` says. */
export function alertsNotFromHistory(copy: AlertHistory, history: AlertHistory, before: Map<number, number>): string[] {
  const problems: string[] = [];
  for (const [number, [state]] of copy) {
    // The latest equal one: two reopenings of an alert within one second answer the same bytes
    // (updated_at counts seconds), and a copy that shows them is as new as the later.
    const states = history.get(number)!;
    let index = states.length - 1;
    while (index >= 0 && !isDeepStrictEqual(states[index], state)) index -= 1;
    if (index < 0) problems.push(`alert ${number} is as no acknowledged write left it: ${JSON.stringify(state)}`);
    else if (index < before.get(number)!) problems.push(`alert ${number} is older (state ${index}) than acknowledged before the copy began (${before.get(number)})`);
  }
  return problems;
}
