import type { Knex } from 'knex';
import type { Logger } from '../../logger';
import type { EventFeedStore, FeedEvent } from './event-feed.store';

// The outbox as a stream, for live subscribers (GraphQL subscriptions): every instance reads the
// events table after its cursor, in id order, and hands each batch to its consumers. Id order is
// commit order: every transaction that writes events holds the data_versions row lock before it
// takes their ids (outbox.ts), so the events any read sees are a prefix of the ids that will ever
// commit, save those of rolled-back transactions, which never appear. A cursor therefore loses
// nothing and repeats nothing. The feed reads when woken (a commit on this instance, a NOTIFY
// from another: event-wakeups.ts) and every `pollMs` besides; it runs only while it has consumers.

export interface EventFeedSettings {
  /** Milliseconds between reads when nothing wakes the feed (SUBSCRIPTION_POLL_MS). */
  pollMs: number;
}

/** The settings of live events: the feed's poll and, on PostgreSQL, whether it LISTENs (SUBSCRIPTION_LISTEN). */
export interface LiveEventSettings extends EventFeedSettings {
  /** Off behind poolers that cannot LISTEN, such as PgBouncer in transaction mode. */
  listen: boolean;
}

export const DEFAULT_LIVE_EVENTS: LiveEventSettings = { pollMs: 250, listen: true };

/** Gets each batch of new events; the feed waits for every consumer before it reads on. */
export type FeedConsumer = (events: readonly FeedEvent[]) => Promise<void>;

/** What tells the feed of commits elsewhere (PostgreSQL's LISTEN); started with the first consumer. */
export interface FeedWakeups {
  start(wake: () => void): void;
  stop(): Promise<void>;
}

const BATCH = 500;
/** After a failed read (the database restarting, say), the feed tries again this much later. */
const RETRY_MS = 1_000;

export class EventFeed {
  private readonly consumers = new Set<FeedConsumer>();
  private cursor: number | undefined;
  private starting: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reading: Promise<void> | undefined;
  private wanted = false;

  constructor(private readonly deps: { db: Knex; store: EventFeedStore; wakeups?: FeedWakeups | undefined; logger?: Logger | undefined }, private readonly settings: EventFeedSettings) {}

  /**
   * Adds a consumer: it gets every event committed after the feed's cursor once this resolves
   * (the newest event, when the feed starts now). Returns what removes it.
   */
  async add(consumer: FeedConsumer): Promise<() => void> {
    this.consumers.add(consumer);
    try {
      if (this.cursor === undefined) await (this.starting ??= this.start());
    } catch (error) {
      // The database could not say where the feed starts: this consumer is not added; the next one tries again.
      this.consumers.delete(consumer);
      throw error;
    }
    return () => this.remove(consumer);
  }

  /** Asks for a read as soon as the one under way (if any) ends. */
  wake(): void {
    if (this.consumers.size === 0 || this.cursor === undefined) return;
    this.wanted = true;
    this.reading ??= this.readWhileWanted().finally(() => { this.reading = undefined; });
  }

  /** Stops reading and forgets its consumers (the instance is closing). */
  async close(): Promise<void> {
    this.consumers.clear();
    await this.stopReading();
  }

  private async start(): Promise<void> {
    try {
      this.cursor = await this.deps.store.newestId(this.deps.db);
    } finally {
      this.starting = undefined;
    }
    if (this.consumers.size === 0) {
      this.cursor = undefined;
      return;
    }
    this.timer = setInterval(() => this.wake(), this.settings.pollMs).unref();
    this.deps.wakeups?.start(() => this.wake());
  }

  private remove(consumer: FeedConsumer): void {
    this.consumers.delete(consumer);
    if (this.consumers.size === 0) void this.stopReading();
  }

  private async stopReading(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.cursor = undefined;
    this.wanted = false;
    await this.deps.wakeups?.stop();
    await this.reading;
  }

  private async readWhileWanted(): Promise<void> {
    while (this.wanted && this.cursor !== undefined) {
      this.wanted = false;
      try {
        await this.readToEnd();
      } catch (error) {
        this.deps.logger?.warn({ err: error }, 'live events: reading the events table failed; trying again');
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS).unref());
        this.wanted = true;
      }
    }
  }

  private async readToEnd(): Promise<void> {
    for (;;) {
      const from = this.cursor;
      if (from === undefined) return;
      const events = await this.deps.store.after(this.deps.db, from, BATCH);
      if (events.length === 0 || this.cursor !== from) return;
      this.cursor = events[events.length - 1]!.id;
      await Promise.all([...this.consumers].map((consume) => consume(events)));
      if (events.length < BATCH) return;
    }
  }
}
