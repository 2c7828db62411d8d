import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { isPostgres, takeWriteLock, toBoolean } from '../../database/dialect';
import { chunksOf } from '../../shared/chunks';

// The delivery queue's reads and writes (db/migrations/20261127080000_create_webhooks.ts).
// A hook's rows go out in id order, one at a time: only the lowest pending id of each hook
// (its head) can be claimed, and it stays the head until its attempt is written. A claim moves
// `claimed_until` forward (the lease); on PostgreSQL, under FOR UPDATE SKIP LOCKED, so two
// instances never take one row; on SQLite, under the one write lock. An instance that dies
// leaves its claims to expire, then any instance takes them again: at least once.

/** A claimed delivery, with its hook. */
export interface ClaimedDelivery {
  id: number;
  hookId: number;
  eventId: number | null;
  event: string;
  action: string | null;
  repoId: number | null;
  payload: string | null;
  guid: string;
  redelivery: boolean;
  /** Attempts made before this one. */
  attempts: number;
  createdMs: number;
  /** The lease this claim holds: the row is ours while claimed_until is this. */
  claimedUntil: number;
  hook: {
    url: string;
    contentType: 'json' | 'form';
    secret: string | null;
    insecureSsl: boolean;
    orgId: number | null;
    repoId: number | null;
  };
}

/** One attempt as written to webhook_delivery_attempts. */
export interface AttemptRecord {
  deliveredAt: string;
  durationSeconds: number;
  status: string;
  statusCode: number;
  url: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  responseHeaders: Record<string, string> | null;
  responseBody: string | null;
}

/** What becomes of a delivery after an attempt. */
export type AttemptOutcome = { state: 'delivered' | 'failed' } | { state: 'pending'; nextAttemptAt: number };

type Row = Record<string, unknown>;

const DELIVERY_COLUMNS = ['d.id', 'd.hook_id', 'd.event_id', 'd.event', 'd.action', 'd.repo_id', 'd.payload', 'd.guid', 'd.redelivery', 'd.attempts', 'd.created_ms', 'd.claimed_until', 'd.next_attempt_at'];

/** A claimed row; the hook's columns come with its batch's head. */
function toClaimed(row: Row, head: Row, guid: string, claimedUntil: number): ClaimedDelivery {
  return {
    id: Number(row.id), hookId: Number(row.hook_id), eventId: row.event_id === null ? null : Number(row.event_id),
    event: row.event as string, action: (row.action as string | null) ?? null, repoId: row.repo_id === null ? null : Number(row.repo_id),
    payload: (row.payload as string | null) ?? null, guid, redelivery: toBoolean(row.redelivery), attempts: Number(row.attempts), createdMs: Number(row.created_ms), claimedUntil,
    hook: {
      url: head.url as string, contentType: head.content_type === 'form' ? 'form' : 'json', secret: (head.secret as string | null) ?? null,
      insecureSsl: head.insecure_ssl === '1', orgId: head.org_id === null ? null : Number(head.org_id), repoId: head.hook_repo_id === null ? null : Number(head.hook_repo_id),
    },
  };
}

const ATTEMPT_CHUNK = 50; // 17 columns

/** `CASE id WHEN … THEN … END`: each row's own value in one UPDATE. */
function caseById(trx: Knex.Transaction, deliveries: readonly ClaimedDelivery[], type: 'BIGINT' | 'VARCHAR(36)', value: (d: ClaimedDelivery) => string | number): Knex.Raw {
  // The CAST: PostgreSQL would otherwise type the parameters text.
  return trx.raw(`CASE id ${deliveries.map(() => `WHEN ? THEN CAST(? AS ${type})`).join(' ')} END`, deliveries.flatMap((d) => [d.id, value(d)]));
}

const due = (query: Knex.QueryBuilder, now: number) =>
  query
    .where('d.state', 'pending')
    .where('d.next_attempt_at', '<=', now)
    .where((q) => q.whereNull('d.claimed_until').orWhere('d.claimed_until', '<', now));

export class DeliveryStore {
  /** Whether any row may be due now: one index read, so an idle poll takes no write lock. */
  async anyDue(db: Knex, now: number): Promise<boolean> {
    return (await due(db('webhook_deliveries as d'), now).first('d.id')) !== undefined;
  }

  /**
   * Runs `work` in a write transaction of the queue. SQLite: the write lock is taken first, so
   * another process cannot claim between a read and its write. PostgreSQL: no data_versions
   * lock (these tables move no data version); claims skip rows others have locked.
   */
  async transaction<T>(db: Knex, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return db.transaction(async (trx) => {
      if (!isPostgres(db)) await takeWriteLock(trx);
      return work(trx);
    });
  }

  /**
   * Claims the due heads of up to `hooks` active hooks, each with the rows queued after it (up
   * to `perHook` in all, in id order, stopping at the first another claim holds): a batch the
   * caller sends one after another, so a burst costs one claim, not one per row. Every row of a
   * batch is leased `leaseMs` (its rows stay pending until the batch is recorded). A head is locked (PostgreSQL) or
   * read under the write lock (SQLite), so no other claim can take its hook's rows meanwhile.
   * Each row gets its guid at its first attempt. Rows of an inactive hook wait (the expiry
   * sweep fails them at 24 hours).
   */
  async claim(trx: Knex.Transaction, hooks: number, perHook: number, now: number, leaseMs: number): Promise<ClaimedDelivery[][]> {
    if (hooks <= 0) return [];
    const heads = trx('webhook_deliveries').where('state', 'pending').groupBy('hook_id').min({ id: 'id' });
    const query = due(trx('webhook_deliveries as d'), now)
      .join('webhooks as h', 'h.id', 'd.hook_id')
      .where('h.active', true)
      .whereIn('d.id', heads)
      .orderBy([{ column: 'd.next_attempt_at' }, { column: 'd.id' }])
      .limit(hooks)
      .select(...DELIVERY_COLUMNS, 'h.url', 'h.content_type', 'h.secret', 'h.insecure_ssl', 'h.org_id', 'h.repo_id as hook_repo_id');
    // PostgreSQL: heads another instance is claiming right now are skipped, never waited for.
    const headRows: Row[] = isPostgres(trx) ? await query.forUpdate('d').skipLocked() : await query;
    if (headRows.length === 0) return [];
    const followers: Row[] = perHook <= 1 ? [] : await trx
      .from(trx('webhook_deliveries as d')
        .where('d.state', 'pending')
        .whereIn('d.hook_id', headRows.map((r) => r.hook_id as number))
        .whereNotIn('d.id', headRows.map((r) => r.id as number))
        .select(...DELIVERY_COLUMNS)
        .rowNumber('n', 'd.id', 'd.hook_id')
        .as('t'))
      .where('n', '<', perHook)
      .orderBy('id')
      .select('*');
    const batches: ClaimedDelivery[][] = [];
    for (const head of headRows) {
      const rows = [head];
      for (const row of followers.filter((f) => Number(f.hook_id) === Number(head.hook_id))) {
        const isFree = row.claimed_until === null || Number(row.claimed_until) < now;
        if (!isFree || Number(row.next_attempt_at) > now) break;
        rows.push(row);
      }
      batches.push(rows.map((row) => toClaimed(row, head, typeof row.guid === 'string' ? row.guid : randomUUID(), now + leaseMs)));
    }
    // One statement for every row claimed (a CASE per column): a batch costs no round trip per row.
    const claimed = batches.flat();
    await trx('webhook_deliveries').whereIn('id', claimed.map((d) => d.id)).update({
      claimed_until: caseById(trx, claimed, 'BIGINT', (d) => d.claimedUntil),
      guid: caseById(trx, claimed, 'VARCHAR(36)', (d) => d.guid),
    });
    return batches;
  }

  /**
   * Writes attempts and what becomes of their deliveries, in a few statements whatever their
   * number; a lease lost meanwhile leaves a delivery to its new holder.
   */
  async finish(trx: Knex.Transaction, attempts: ReadonlyArray<{ delivery: ClaimedDelivery; record: AttemptRecord; outcome: AttemptOutcome }>): Promise<void> {
    if (attempts.length === 0) return;
    for (const chunk of chunksOf(attempts, ATTEMPT_CHUNK)) {
      await trx('webhook_delivery_attempts').insert(chunk.map(({ delivery, record }) => ({
        delivery_id: delivery.id, hook_id: delivery.hookId, guid: delivery.guid, redelivery: delivery.redelivery,
        delivered_at: record.deliveredAt, duration: record.durationSeconds, status: record.status.slice(0, 255), status_code: record.statusCode,
        event: delivery.event, action: delivery.action, repo_id: delivery.repoId, url: record.url.slice(0, 2048),
        request_headers: JSON.stringify(record.requestHeaders), request_body: record.requestBody,
        response_headers: record.responseHeaders === null ? null : JSON.stringify(record.responseHeaders), response_body: record.responseBody,
      })));
    }
    const mine = (query: Knex.QueryBuilder, deliveries: readonly ClaimedDelivery[]) =>
      query.whereIn('id', deliveries.map((d) => d.id)).whereIn('claimed_until', [...new Set(deliveries.map((d) => d.claimedUntil))]);
    for (const state of ['delivered', 'failed'] as const) {
      const ended = attempts.filter((a) => a.outcome.state === state).map((a) => a.delivery);
      if (ended.length > 0) await mine(trx('webhook_deliveries'), ended).update({ state, claimed_until: null, attempts: trx.raw('attempts + 1') });
    }
    for (const { delivery, outcome } of attempts) {
      if (outcome.state !== 'pending') continue;
      await mine(trx('webhook_deliveries'), [delivery]).update({ claimed_until: null, attempts: trx.raw('attempts + 1'), next_attempt_at: outcome.nextAttemptAt });
    }
  }

  /** Gives claims back without an attempt (not sent: the instance is stopping, or a row before failed). */
  async release(trx: Knex.Transaction, deliveries: readonly ClaimedDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await trx('webhook_deliveries').whereIn('id', deliveries.map((d) => d.id)).whereIn('claimed_until', [...new Set(deliveries.map((d) => d.claimedUntil))]).update({ claimed_until: null });
  }

  /**
   * Housekeeping: pending rows past their retry window that no attempt will end (an inactive
   * hook's) are failed; delivered and failed deliveries created before `keepSince`, with their
   * attempts, are deleted, `batch` at a time.
   */
  async sweep(db: Knex, now: number, expiredBefore: number, keepSince: number, batch: number): Promise<number> {
    await db('webhook_deliveries')
      .where('state', 'pending')
      .where('created_ms', '<', expiredBefore)
      .where((q) => q.whereNull('claimed_until').orWhere('claimed_until', '<', now))
      .update({ state: 'failed', claimed_until: null });
    const old = db('webhook_deliveries').whereIn('state', ['delivered', 'failed']).where('created_ms', '<', keepSince).orderBy('id').limit(batch).select('id');
    const ids: Array<{ id: number | string }> = await old;
    if (ids.length === 0) return 0;
    const idList = ids.map((r) => Number(r.id));
    await db.transaction(async (trx) => {
      await trx('webhook_delivery_attempts').whereIn('delivery_id', idList).delete();
      await trx('webhook_deliveries').whereIn('id', idList).delete();
    });
    return idList.length;
  }
}
