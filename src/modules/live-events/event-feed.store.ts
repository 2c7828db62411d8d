import type { Executor } from '../../database/transaction';
import type { OutboxRow } from '../webhook-delivery/outbox';

/** An outbox event as the live feed reads it (the events table, written by the outbox). */
export interface FeedEvent {
  id: number;
  event: string;
  action: string;
  repoId: number | null;
  orgId: number | null;
  alertId: number | null;
  senderId: number | null;
  createdAt: string;
  /** The webhook payload's JSON, as written in the event's transaction. */
  payload: string;
}

/** An events row as read: as the outbox wrote it, with its id. */
type EventRow = OutboxRow & { id: number | string };

const toFeedEvent = (row: EventRow): FeedEvent => ({
  id: Number(row.id), event: row.event, action: row.action, repoId: row.repo_id, orgId: row.org_id, alertId: row.alert_id, senderId: row.sender_id,
  createdAt: row.created_at, payload: row.payload,
});

/** Reads of the events table in id order, by its primary key. */
export class EventFeedStore {
  /** The newest event's id (0 with none): where a feed that starts now begins. */
  async newestId(db: Executor): Promise<number> {
    const row = await db('events').max({ id: 'id' }).first();
    return Number(row?.id ?? 0);
  }

  /** Up to `limit` events after `afterId`, in id order. */
  async after(db: Executor, afterId: number, limit: number): Promise<FeedEvent[]> {
    const rows: EventRow[] = await db('events').where('id', '>', afterId).orderBy('id').limit(limit)
      .select('id', 'event', 'action', 'repo_id', 'org_id', 'alert_id', 'sender_id', 'created_at', 'payload');
    return rows.map(toFeedEvent);
  }
}
