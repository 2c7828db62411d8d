import type { Knex } from 'knex';
import { toJsonParts } from '../../shared/json-fragments';
import { alertJsonViews } from './alert-views';
import type { Outbox } from '../webhook-delivery/outbox';
import type { AlertJsonView, AlertReferences, AlertState } from './alerts.types';
import type { AuditActor, AuditChange } from '../audit-log/audit-log.types';
import type { AuditRecorder } from '../audit-log/audit-recorder';
import type { AlertsStore } from './alerts.store';
import { freshFragments, serializeAlert } from './alerts.serializers';

// The outbox of `dependency_bot_alert` webhook events (interfaces.md Part 2 "Webhooks"; issue 22
// delivers them): one row per transition, written in the transaction that makes it, with the
// alert as #26 shows it at that moment, so a delivery never re-reads an alert that has changed
// since. URLs in the stored alert are written under EVENT_API_BASE (the empty base: paths such
// as /repos/o/r/dependency-bot/alerts/1); the delivery puts the instance's API base in front.

const EVENT_API_BASE = '';

export const ALERT_EVENT_ACTIONS = [
  'created', 'dismissed', 'reopened', 'fixed', 'reintroduced', 'auto_dismissed', 'auto_reopened', 'assignees_changed',
] as const;
export type AlertEventAction = (typeof ALERT_EVENT_ACTIONS)[number];

/** One transition to record; senderId null: the engine's bot, dependency-bot[bot]. */
export interface AlertEvent {
  alertId: number;
  action: AlertEventAction;
  senderId: number | null;
  /** The alert's state before the transition (null: it did not exist), for the audit log's record. */
  stateBefore: AlertState | null;
}

/** Each event's action in the audit log. */
const AUDIT_ACTIONS: Record<AlertEventAction, { action: string; operation: 'create' | 'modify' }> = {
  created: { action: 'dependency_alert.create', operation: 'create' },
  dismissed: { action: 'dependency_alert.dismiss', operation: 'modify' },
  reopened: { action: 'dependency_alert.reopen', operation: 'modify' },
  fixed: { action: 'dependency_alert.fix', operation: 'modify' },
  reintroduced: { action: 'dependency_alert.reintroduce', operation: 'modify' },
  auto_dismissed: { action: 'dependency_alert.auto_dismiss', operation: 'modify' },
  auto_reopened: { action: 'dependency_alert.auto_reopen', operation: 'modify' },
  assignees_changed: { action: 'dependency_alert.assignees_update', operation: 'modify' },
};

export class AlertEvents {
  /**
   * `alerts` and `references` read the transaction's own rows: never a cache; the outbox queues
   * the hooks' deliveries; each event is also the audit log's record of the change, by `actor`.
   */
  constructor(private readonly alerts: AlertsStore, private readonly references: AlertReferences, private readonly outbox: Outbox, private readonly audit: AuditRecorder) {}

  /** Writes the events in the order given, each with its alert as it is now in `trx`, and their records by `actor`. */
  async record(trx: Knex.Transaction, events: readonly AlertEvent[], now: string, actor: AuditActor): Promise<void> {
    await this.insert(trx, await this.rowsOf(trx, events, now), actor);
  }

  /**
   * The rows of these events, each with its alert as it is now in `trx`, to be inserted later
   * (insert) when an evaluation writes several transitions of one alert before the events of
   * an earlier one are due in order.
   */
  async rowsOf(trx: Knex.Transaction, events: readonly AlertEvent[], now: string): Promise<EventRow[]> {
    if (events.length === 0) return [];
    const ids = [...new Set(events.map((e) => e.alertId))];
    const records = await this.alerts.rowsAt(trx, ids.map((id) => ({ id })));
    const views = new Map((await alertJsonViews(trx, this.references, records)).map((v) => [v.alert.id, v]));
    return eventRows(events, views, now);
  }

  /** Inserts event rows, ids in the order given, queues their webhook deliveries, and records each change by `actor`. */
  async insert(trx: Knex.Transaction, rows: readonly EventRow[], actor: AuditActor): Promise<void> {
    await this.outbox.insert(trx, rows.map(({ audit: _audit, ...row }) => row));
    await this.audit.record(trx, actor, rows.map((row) => row.audit));
  }
}

function eventRows(events: readonly AlertEvent[], views: ReadonlyMap<number, AlertJsonView>, now: string): EventRow[] {
  return events.flatMap(({ alertId, action, senderId, stateBefore }) => {
    const view = views.get(alertId);
    if (view === undefined) return [];
    const { repository } = view;
    const audit: AuditChange = { ...AUDIT_ACTIONS[action], repo: repository, data: auditData(view, action, stateBefore) };
    const alert = Buffer.concat(toJsonParts(serializeAlert(EVENT_API_BASE, view, { withRepository: false }, freshFragments))).toString('utf8');
    return [{
      event: 'dependency_bot_alert', action, repo_id: repository.id, org_id: repository.ownerType === 'Organization' ? repository.ownerId : null,
      alert_id: alertId, sender_id: senderId, created_at: now, payload: `{"alert":${alert}}`, audit,
    }];
  });
}

/** What the audit log shows of an alert's change: the alert, its state before and after, and what the action set. */
function auditData({ alert, assignees }: AlertJsonView, action: AlertEventAction, stateBefore: AlertState | null): Record<string, unknown> {
  const data: Record<string, unknown> = {
    alert_number: alert.number, advisory_id: alert.advisoryId, ecosystem: alert.ecosystem, package: alert.packageName, manifest_path: alert.manifestPath,
  };
  if (stateBefore !== alert.state) data.changes = { state: { before: stateBefore, after: alert.state } };
  if (action === 'dismissed') Object.assign(data, { dismissed_reason: alert.dismissedReason, dismissed_comment: alert.dismissedComment });
  if (action === 'auto_dismissed') data.auto_dismissed_by = alert.autoDismissedBy;
  if (action === 'assignees_changed') data.assignees = assignees.map((user) => user.login);
  return data;
}

/** An events row as written, with the audit log's record of its change (not a column). */
export interface EventRow {
  event: string;
  action: AlertEventAction;
  repo_id: number;
  org_id: number | null;
  alert_id: number;
  sender_id: number | null;
  created_at: string;
  payload: string;
  audit: AuditChange;
}
