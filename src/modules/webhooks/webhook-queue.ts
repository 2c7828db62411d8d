import type { Knex } from 'knex';
import { NotFoundError } from '../../errors/domain';
import { toTimestamp } from '../../shared/time';

// What goes into the delivery queue from the API (webhook_deliveries, the database as the
// queue: db/migrations/20261127080000). The delivery worker sends pending rows; these two
// writes are all a ping and a redelivery do, each in its caller's transaction.

/** The original's zen lines, one picked for each ping. */
const ZEN = [
  'Design for failure.', 'Favor focus over features.', 'Keep it logically awesome.', 'Speak like a human.', 'Approachable is better than simple.',
  'Non-blocking is better than blocking.', 'Mind your words, they are important.', 'Practicality beats purity.', 'Responsive is better than fast.',
  'Anything added dilutes everything else.', 'Avoid administrative distraction.', 'Half measures are as bad as nothing at all.', 'Encourage flow.',
  'It\'s not fully shipped until it\'s fast.',
];

export interface PingTarget {
  hookId: number;
  /** The repository of a repository hook; null for an organization hook. */
  repoId: number | null;
  /** The hook as the API shows it (webhooks.serializers.ts serializeHook). */
  hookJson: unknown;
}

/**
 * Queues a `ping` for a hook: `{zen, hook_id, hook}`, due now. Its guid is given at its first
 * attempt (the worker's), as for every delivery.
 */
export async function queuePing(trx: Knex.Transaction, target: PingTarget, now: Date = new Date()): Promise<number> {
  const payload = { zen: ZEN[Math.floor(Math.random() * ZEN.length)], hook_id: target.hookId, hook: target.hookJson };
  return insertDelivery(trx, {
    hook_id: target.hookId, event_id: null, event: 'ping', action: null, repo_id: target.repoId, payload: JSON.stringify(payload), guid: null, redelivery: false,
  }, now);
}

/**
 * Queues a person's redelivery of the delivery one attempt belongs to: the same event, payload
 * and guid (X-Service-Delivery stays the same on every attempt of one delivery), marked as a
 * redelivery, due now. The attempt must belong to the hook; else NotFoundError.
 */
export async function queueRedelivery(trx: Knex.Transaction, hookId: number, attemptId: number, now: Date = new Date()): Promise<number> {
  const original = await trx('webhook_delivery_attempts as a')
    .join('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .where({ 'a.id': attemptId, 'a.hook_id': hookId })
    .first('d.event_id', 'd.event', 'd.action', 'd.repo_id', 'd.payload', 'a.guid');
  if (!original) throw new NotFoundError();
  return insertDelivery(trx, {
    hook_id: hookId, event_id: original.event_id, event: original.event, action: original.action, repo_id: original.repo_id,
    payload: original.payload, guid: original.guid, redelivery: true,
  }, now);
}

async function insertDelivery(trx: Knex.Transaction, row: Record<string, unknown>, now: Date): Promise<number> {
  const ms = now.getTime();
  const [inserted] = await trx('webhook_deliveries')
    .insert({
      ...row, state: 'pending', attempts: 0, next_attempt_at: ms, claimed_until: null,
      created_at: toTimestamp(now), created_ms: ms,
    })
    .returning('id');
  return Number(typeof inserted === 'object' ? inserted.id : inserted);
}
