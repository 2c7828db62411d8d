import type { Executor } from '../../database/transaction';
import type { AlertEventAction } from './alert-events';

// An alert's history: the transitions recorded as its `dependency_bot_alert` events (written in
// the transaction of each change, alert-events.ts), oldest first. An alert a world file declared
// has none until it changes. Each event's stored alert tells what the change set (a dismissal's
// reason and comment, the assignees), as the webhook delivering it showed it. Read only after
// the caller was allowed the alert itself (DependencyAlertsService.viewsWithHistory).

/** At most this many of an alert's latest changes are read for one answer. */
export const ALERT_HISTORY_LIMIT = 100;

export interface AlertHistoryEntry {
  action: AlertEventAction;
  at: string;
  /** Who made the change; null for the engine (dependency-bot[bot]). */
  sender: string | null;
  dismissedReason: string | null;
  dismissedComment: string | null;
  assignees: string[];
}

export interface AlertHistory {
  /** The latest changes, at most ALERT_HISTORY_LIMIT, oldest first. */
  entries: AlertHistoryEntry[];
  /** How many changes are recorded in all. */
  total: number;
}

interface EventRow { action: AlertEventAction; created_at: string; login: string | null; payload: string }

export async function readAlertHistory(db: Executor, alertId: number): Promise<AlertHistory> {
  const rows: EventRow[] = await db('events as e').leftJoin('accounts as a', 'a.id', 'e.sender_id')
    .where('e.alert_id', alertId).orderBy('e.id', 'desc').limit(ALERT_HISTORY_LIMIT)
    .select('e.action', 'e.created_at', 'a.login', 'e.payload');
  const total = rows.length < ALERT_HISTORY_LIMIT ? rows.length : Number((await db('events').where('alert_id', alertId).count({ n: '*' }).first())!.n);
  return { entries: rows.reverse().map(entryOf), total };
}

function entryOf(row: EventRow): AlertHistoryEntry {
  const { alert } = JSON.parse(row.payload) as { alert: Record<string, unknown> };
  const assignees = Array.isArray(alert.assignees) ? alert.assignees.map((user: { login: string }) => user.login) : [];
  return {
    action: row.action, at: row.created_at, sender: row.login,
    dismissedReason: (alert.dismissed_reason as string | null) ?? null,
    dismissedComment: (alert.dismissed_comment as string | null) ?? null,
    assignees,
  };
}
