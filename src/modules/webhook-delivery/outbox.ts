import type { Knex } from 'knex';
import { chunksOf } from '../../shared/chunks';
import { nowTimestamp } from '../../shared/time';
import { announceEvents } from '../live-events/event-wakeups';

// The outbox (interfaces.md Part 2 "Webhooks"): every event row is written in the transaction of
// the change that causes it, and in the same transaction one webhook_deliveries row per hook that
// subscribes to it, so a change that was acknowledged is never left undelivered by a crash. The
// hooks concerned are read once per write (an index look-up of a few rows); with none, the events
// are inserted as before and nothing else happens: a write without hooks pays that one read.

/** An events row as written. */
export interface OutboxRow {
  event: string;
  action: string;
  repo_id: number | null;
  org_id: number | null;
  alert_id: number | null;
  sender_id: number | null;
  created_at: string;
  payload: string;
}

interface HookRow {
  id: number;
  org_id: number | null;
  repo_id: number | null;
  events: string;
}

const EVENT_CHUNK = 100; // 8 columns
const DELIVERY_CHUNK = 200; // 10 columns
const MAX_TARGET_IDS = 500;

/** Whether a hook gets this event: a repository hook its repository's, an organization hook its organization's. */
function subscribes(hook: { orgId: number | null; repoId: number | null; events: readonly string[] }, row: OutboxRow): boolean {
  const target = hook.repoId !== null ? hook.repoId === row.repo_id : hook.orgId !== null && hook.orgId === row.org_id;
  return target && (hook.events.includes(row.event) || hook.events.includes('*'));
}

export class Outbox {
  private readonly listeners = new Set<() => void>();
  private readonly eventListeners = new Set<() => void>();

  /** Called after a transaction that queued deliveries commits (the instance's worker wakes). */
  onQueued(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Called after a transaction that wrote events commits (this instance's live-event feed wakes). */
  onEvents(listener: () => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Inserts the events in the order given (ids follow it, in commit order: event-wakeups.ts) and queues their deliveries. */
  async insert(trx: Knex.Transaction, rows: readonly OutboxRow[]): Promise<void> {
    if (rows.length === 0) return;
    await announceEvents(trx);
    trx.executionPromise.then(() => { for (const listener of this.eventListeners) listener(); }, () => undefined);
    const hooks = await this.activeHooksOf(trx, rows);
    if (hooks.length === 0) {
      for (const chunk of chunksOf(rows, EVENT_CHUNK)) await trx('events').insert(chunk);
      return;
    }
    const ids: number[] = [];
    for (const chunk of chunksOf(rows, EVENT_CHUNK)) {
      const inserted: Array<{ id: number | string }> = await trx('events').insert(chunk).returning('id');
      // One statement's ids are given in its rows' order (a sequence or rowid per row, in turn).
      ids.push(...inserted.map((r) => Number(r.id)).sort((a, b) => a - b));
    }
    const now = Date.now();
    const createdAt = nowTimestamp();
    const parsed = hooks.map((h) => ({ id: Number(h.id), orgId: h.org_id === null ? null : Number(h.org_id), repoId: h.repo_id === null ? null : Number(h.repo_id), events: eventsOf(h.events) }));
    // In event order: each hook's rows get ids in the order its events happened.
    const deliveries = rows.flatMap((row, i) => parsed.filter((hook) => subscribes(hook, row)).map((hook) => ({
      hook_id: hook.id, event_id: ids[i]!, event: row.event, action: row.action, repo_id: row.repo_id,
      state: 'pending', attempts: 0, next_attempt_at: now, created_at: createdAt, created_ms: now,
    })));
    if (deliveries.length === 0) return;
    for (const chunk of chunksOf(deliveries, DELIVERY_CHUNK)) await trx('webhook_deliveries').insert(chunk);
    // Wakes this instance's worker once the rows are visible; a rollback queued nothing.
    trx.executionPromise.then(() => this.notify(), () => undefined);
  }

  /** Tells the listeners rows were queued (a ping or redelivery written outside insert, too). */
  notify(): void {
    for (const listener of this.listeners) listener();
  }

  private async activeHooksOf(trx: Knex.Transaction, rows: readonly OutboxRow[]): Promise<HookRow[]> {
    const repoIds = [...new Set(rows.flatMap((r) => (r.repo_id === null ? [] : [r.repo_id])))];
    const orgIds = [...new Set(rows.flatMap((r) => (r.org_id === null ? [] : [r.org_id])))];
    const query = trx('webhooks').where('active', true).orderBy('id').select('id', 'org_id', 'repo_id', 'events');
    // A write over many repositories (an advisory import) reads every active hook: there are few.
    if (repoIds.length + orgIds.length > MAX_TARGET_IDS) return query;
    return query
      .where((q) => {
        if (repoIds.length > 0) q.orWhereIn('repo_id', repoIds);
        if (orgIds.length > 0) q.orWhereIn('org_id', orgIds);
        if (repoIds.length === 0 && orgIds.length === 0) q.whereRaw('1 = 0');
      });
  }
}

/** A hook's events column (a JSON array of names); anything else subscribes to nothing. */
function eventsOf(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((e): e is string => typeof e === 'string') : [];
  } catch {
    return [];
  }
}
