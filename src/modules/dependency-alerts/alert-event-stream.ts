import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import type { DataVersions } from '../../database/data-version';
import { AuthenticationError, DomainError, UnavailableError } from '../../errors/domain';
import { BoundedQueue } from '../../shared/bounded-queue';
import type { RepositoryRecord, UserRecord } from '../accounts/accounts.types';
import type { EventFeed } from '../live-events/event-feed';
import type { FeedEvent } from '../live-events/event-feed.store';
import { ALERT_EVENT_ACTIONS, type AlertEventAction } from './alert-events';
import { alertViews } from './alert-views';
import type { DependencyAlertsService } from './alerts.service';
import type { AlertsStore } from './alerts.store';
import { ALERT_STATES, DISMISSED_REASONS, type AlertEventScope, type AlertRecord, type AlertReferences, type AlertView } from './alerts.types';

// Live alert events (GraphQL's dependencyAlertEvents): the outbox's dependency_bot_alert events,
// as the instance's feed reads them, each shown with the alert as it was when the event happened
// (its lifecycle fields from the event's own payload, written in the event's transaction; what
// an alert refers to, such as its advisory and repository, as it is now). Each subscriber gets
// only the events of its organization or repository, and only while it may list their alerts:
// that is checked again for every batch, under the data versions of the moment (a role taken
// away stops the flow). An event is built once for all the subscribers that get it.

/** An alert event as a subscriber gets it. */
export interface AlertEventMoment {
  /** The event's id: unique, increasing in commit order. */
  id: number;
  action: AlertEventAction;
  occurredAt: string;
  /** Who made the change; null for the engine (dependency-bot[bot]). */
  sender: UserRecord | null;
  /** The alert as the event left it. */
  view: AlertView;
}

export interface AlertEventSubscription {
  /** The subscriber's events, in commit order; ends when the subscriber leaves. */
  events: AsyncIterable<AlertEventMoment>;
  /** Leaves: the iteration ends after what is queued. */
  close(): void;
}

export interface AlertEventStreamDeps {
  db: Knex;
  feed: EventFeed;
  alerts: AlertsStore;
  /** The data versions of the moment (each batch is authorized under them). */
  versions: () => Promise<DataVersions>;
  /** The alert service and references bound to those versions (their caches). */
  at: (versions: DataVersions) => { dependencyAlerts: DependencyAlertsService; references: AlertReferences };
}

export interface SubscribeOptions {
  /**
   * The subscriber's caller under these data versions (its token checked again), or null when its
   * credentials no longer authenticate (the transport closes the connection): asked at subscribe
   * time and for every batch, so a revoked or expired token gets nothing more.
   */
  principalAt: (versions: DataVersions) => Promise<Principal | null>;
  /** Only these actions (undefined: all). */
  actions?: ReadonlySet<AlertEventAction> | undefined;
  /** Events queued for the subscriber at most. */
  maxPending: number;
  /**
   * Called when the subscriber would miss events: more than `maxPending` waiting for it, or a
   * batch that could not be built (the database lost between reading and building it). The
   * subscription ends; the transport closes the connection, so no event is missed while it is open.
   */
  onLost: (reason: 'overflow' | 'failure') => void;
}

interface Subscriber {
  principalAt: SubscribeOptions['principalAt'];
  scope: AlertEventScope;
  /** The organization or repository followed, by id, to pick its events before any authorization. */
  targetId: number;
  actions: ReadonlySet<AlertEventAction> | undefined;
  queue: BoundedQueue<AlertEventMoment>;
  onLost: SubscribeOptions['onLost'];
}

/** Subscribers with equal keys are authorized alike: the same token (as it is now) following the same organization or repository. */
function decisionKey(principal: Principal, subscriber: Subscriber): string {
  const who = principal.kind === 'anonymous' ? 'anonymous' : `token ${principal.tokenId}`;
  const what = subscriber.scope.kind === 'org' ? `org ${subscriber.scope.login}` : `repo ${subscriber.scope.owner}/${subscriber.scope.name}`;
  return `${who} ${subscriber.targetId} ${what}`;
}

const isAlertAction = (action: string): action is AlertEventAction => (ALERT_EVENT_ACTIONS as readonly string[]).includes(action);

export class AlertEventStream {
  private readonly subscribers = new Set<Subscriber>();
  private leaveFeed: (() => void) | undefined;
  private joining: Promise<void> | undefined;

  constructor(private readonly deps: AlertEventStreamDeps) {}

  /**
   * Subscribes the caller `options.principalAt` names to the events of `scope`, authorized now
   * as #24 or #25 would be: throws their errors (404 for what the caller may not see). Events
   * committed from now on reach it.
   */
  async subscribe(scope: AlertEventScope, options: SubscribeOptions): Promise<AlertEventSubscription> {
    const versions = await this.deps.versions();
    const principal = await options.principalAt(versions);
    if (principal === null) throw new AuthenticationError('Bad credentials');
    const { targetId } = await this.deps.at(versions).dependencyAlerts.followable(principal, scope);
    let subscriber: Subscriber | undefined;
    const queue = new BoundedQueue<AlertEventMoment>(options.maxPending, () => { if (subscriber) this.leave(subscriber); });
    subscriber = { principalAt: options.principalAt, scope, targetId, actions: options.actions, queue, onLost: options.onLost };
    this.subscribers.add(subscriber);
    try {
      await this.joinFeed();
    } catch (error) {
      queue.end();
      throw error;
    }
    return { events: queue, close: () => queue.end() };
  }

  /** How many subscribe on this instance (metrics, tests). */
  get size(): number {
    return this.subscribers.size;
  }

  private async joinFeed(): Promise<void> {
    if (this.leaveFeed) return;
    this.joining ??= this.deps.feed.add((events) => this.deliver(events)).then((leave) => {
      this.leaveFeed = leave;
    }).finally(() => { this.joining = undefined; });
    await this.joining;
  }

  private leave(subscriber: Subscriber): void {
    this.subscribers.delete(subscriber);
    if (this.subscribers.size === 0 && this.leaveFeed) {
      this.leaveFeed();
      this.leaveFeed = undefined;
    }
  }

  /** One batch of the feed: picked per subscriber, authorized, built once, queued. */
  private async deliver(events: readonly FeedEvent[]): Promise<void> {
    const alertEvents = events.filter((e) => e.event === 'dependency_bot_alert' && e.alertId !== null && e.repoId !== null && isAlertAction(e.action));
    if (alertEvents.length === 0 || this.subscribers.size === 0) return;
    const picked = new Map<Subscriber, FeedEvent[]>();
    for (const subscriber of this.subscribers) {
      const mine = alertEvents.filter((e) => (subscriber.scope.kind === 'org' ? e.orgId : e.repoId) === subscriber.targetId
        && (subscriber.actions === undefined || subscriber.actions.has(e.action as AlertEventAction)));
      if (mine.length > 0) picked.set(subscriber, mine);
    }
    if (picked.size === 0) return;
    try {
      await this.deliverPicked(picked);
    } catch {
      for (const subscriber of picked.keys()) this.lose(subscriber, 'failure');
    }
  }

  private lose(subscriber: Subscriber, reason: 'overflow' | 'failure'): void {
    subscriber.onLost(reason);
    subscriber.queue.end();
  }

  private async deliverPicked(picked: ReadonlyMap<Subscriber, FeedEvent[]>): Promise<void> {
    const { db } = this.deps;
    const versions = await this.deps.versions();
    const services = this.deps.at(versions);
    const repositories = await services.references.repositoriesByIds(db, [...new Set([...picked.values()].flat().map((e) => e.repoId!))]);
    const allowed = new Map<Subscriber, FeedEvent[]>();
    // Asked once per token and scope (a dashboard's tabs, many subscriptions of one token): each batch comes under new data versions, so no cache answers it.
    const decisions = new Map<string, Promise<(repo: RepositoryRecord) => boolean>>();
    for (const [subscriber, mine] of picked) {
      const principal = await subscriber.principalAt(versions);
      if (principal === null) continue;
      const key = decisionKey(principal, subscriber);
      let decision = decisions.get(key);
      if (!decision) decisions.set(key, (decision = this.followableNow(services.dependencyAlerts, principal, subscriber)));
      const follows = await decision;
      const shown = mine.filter((e) => { const repo = repositories.get(e.repoId!); return repo !== undefined && follows(repo); });
      if (shown.length > 0) allowed.set(subscriber, shown);
    }
    if (allowed.size === 0) return;
    const moments = await this.momentsOf(services.references, [...new Set([...allowed.values()].flat())]);
    for (const [subscriber, shown] of allowed) {
      for (const event of shown) {
        const moment = moments.get(event.id);
        if (moment && !subscriber.queue.push(moment)) {
          this.lose(subscriber, 'overflow');
          break;
        }
      }
    }
  }

  /** What the subscriber may follow under the versions of this batch; nothing, when it may no longer list them. */
  private async followableNow(service: DependencyAlertsService, principal: Principal, subscriber: Subscriber): Promise<(repo: RepositoryRecord) => boolean> {
    try {
      const { targetId, follows } = await service.followable(principal, subscriber.scope);
      // A name that now names another organization or repository (renamed, deleted, made again) is not what was followed.
      return targetId === subscriber.targetId ? follows : () => false;
    } catch (error) {
      if (error instanceof DomainError && !(error instanceof UnavailableError)) return () => false;
      throw error;
    }
  }

  /** Each event with its alert as the event left it, by event id (an alert deleted since is left out). */
  private async momentsOf(references: AlertReferences, events: readonly FeedEvent[]): Promise<Map<number, AlertEventMoment>> {
    const { db, alerts } = this.deps;
    const current = await alerts.findByIds(db, [...new Set(events.map((e) => e.alertId!))]);
    const states = events.flatMap((event) => {
      const record = current.get(event.alertId!);
      const lifecycle = record ? lifecycleOf(event.payload) : undefined;
      return record && lifecycle ? [{ event, record: { ...record, ...lifecycle.record }, assigneeIds: lifecycle.assigneeIds }] : [];
    });
    const views = await alertViews(db, references, states.map((s) => s.record));
    const userIds = [...new Set(states.flatMap((s) => [...s.assigneeIds, ...(s.event.senderId === null ? [] : [s.event.senderId])]))];
    const users = await references.usersByIds(db, userIds);
    return new Map(states.map(({ event, assigneeIds }, i) => [event.id, {
      id: event.id,
      action: event.action as AlertEventAction,
      occurredAt: event.createdAt,
      sender: event.senderId === null ? null : users.get(event.senderId) ?? null,
      view: { ...views[i]!, assignees: assigneeIds.flatMap((id) => users.get(id) ?? []) },
    }]));
  }
}

type Lifecycle = Pick<AlertRecord, 'state' | 'updatedAt' | 'fixedAt' | 'autoDismissedAt' | 'dismissedAt' | 'dismissedById' | 'dismissedReason' | 'dismissedComment'>;

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const idOf = (value: unknown): number | null => {
  const id = (value as { id?: unknown } | null)?.id;
  return typeof id === 'number' ? id : null;
};

/** The alert's lifecycle fields and assignees as the event's payload (#26's JSON of that moment) shows them; undefined if it is not such a payload. */
export function lifecycleOf(payload: string): { record: Lifecycle; assigneeIds: number[] } | undefined {
  let alert: Record<string, unknown>;
  try {
    alert = (JSON.parse(payload) as { alert: Record<string, unknown> }).alert;
  } catch {
    return undefined;
  }
  if (typeof alert !== 'object' || alert === null) return undefined;
  const state = alert.state;
  const reason = alert.dismissed_reason;
  if (!(ALERT_STATES as readonly unknown[]).includes(state) || typeof alert.updated_at !== 'string') return undefined;
  return {
    record: {
      state: state as AlertRecord['state'],
      updatedAt: alert.updated_at,
      fixedAt: text(alert.fixed_at),
      autoDismissedAt: text(alert.auto_dismissed_at),
      dismissedAt: text(alert.dismissed_at),
      dismissedById: idOf(alert.dismissed_by),
      dismissedReason: (DISMISSED_REASONS as readonly unknown[]).includes(reason) ? (reason as AlertRecord['dismissedReason']) : null,
      dismissedComment: text(alert.dismissed_comment),
    },
    assigneeIds: Array.isArray(alert.assignees) ? alert.assignees.flatMap((user) => idOf(user) ?? []) : [],
  };
}
