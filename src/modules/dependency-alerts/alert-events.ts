import type { Knex } from 'knex';
import { toJsonParts } from '../../shared/json-fragments';
import { alertJsonViews } from './alert-views';
import type { Outbox } from '../webhook-delivery/outbox';
import type { AlertJsonView, AlertReferences } from './alerts.types';
import type { AlertsStore } from './alerts.store';
import { freshFragments, serializeAlert } from './alerts.serializers';

// The outbox of `dependency_bot_alert` webhook events (interfaces.md Part 2 "Webhooks"; issue 22
// delivers them): one row per transition, written in the transaction that makes it, with the
// alert as #26 shows it at that moment, so a delivery never re-reads an alert that has changed
// since. URLs in the stored alert are written under EVENT_API_BASE (the empty base: paths such
// as /repos/o/r/dependency-bot/alerts/1); the delivery puts the instance's API base in front.

const EVENT_API_BASE = '';

const ALERT_EVENT_ACTIONS = [
  'created', 'dismissed', 'reopened', 'fixed', 'reintroduced', 'auto_dismissed', 'auto_reopened', 'assignees_changed',
] as const;
export type AlertEventAction = (typeof ALERT_EVENT_ACTIONS)[number];

/** One transition to record; senderId null: the engine's bot, dependency-bot[bot]. */
export interface AlertEvent {
  alertId: number;
  action: AlertEventAction;
  senderId: number | null;
}

export class AlertEvents {
  /** `alerts` and `references` read the transaction's own rows: never a cache; the outbox queues the hooks' deliveries. */
  constructor(private readonly alerts: AlertsStore, private readonly references: AlertReferences, private readonly outbox: Outbox) {}

  /** Writes the events in the order given, each with its alert as it is now in `trx`. */
  async record(trx: Knex.Transaction, events: readonly AlertEvent[], now: string): Promise<void> {
    await this.insert(trx, await this.rowsOf(trx, events, now));
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

  /** Inserts event rows, ids in the order given, and queues their webhook deliveries. */
  async insert(trx: Knex.Transaction, rows: readonly EventRow[]): Promise<void> {
    await this.outbox.insert(trx, rows);
  }
}

function eventRows(events: readonly AlertEvent[], views: ReadonlyMap<number, AlertJsonView>, now: string): EventRow[] {
  return events.flatMap(({ alertId, action, senderId }) => {
    const view = views.get(alertId);
    if (view === undefined) return [];
    const { repository } = view;
    const alert = Buffer.concat(toJsonParts(serializeAlert(EVENT_API_BASE, view, { withRepository: false }, freshFragments))).toString('utf8');
    return [{
      event: 'dependency_bot_alert', action, repo_id: repository.id, org_id: repository.ownerType === 'Organization' ? repository.ownerId : null,
      alert_id: alertId, sender_id: senderId, created_at: now, payload: `{"alert":${alert}}`,
    }];
  });
}

/** An events row as written. */
export interface EventRow {
  event: string;
  action: AlertEventAction;
  repo_id: number;
  org_id: number | null;
  alert_id: number;
  sender_id: number | null;
  created_at: string;
  payload: string;
}
