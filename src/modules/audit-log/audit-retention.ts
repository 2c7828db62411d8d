import type { Knex } from 'knex';
import type { Logger } from '../../logger';
import type { AuditLogStore } from './audit-log.store';

/** Records deleted per statement: a short transaction, whatever the backlog. */
export const PRUNE_BATCH = 1_000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** How often an instance looks for records past their retention. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * AUDIT_LOG_RETENTION_DAYS: every instance deletes the records older than the retention,
 * oldest first, in batches of PRUNE_BATCH (one statement each, its own transaction), at start
 * and then hourly. Instances pruning at once take different rows (the store skips locked
 * ones on PostgreSQL; SQLite has one writer). A failure (the database away) waits for the next round.
 */
export class AuditRetention {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly deps: { db: Knex; store: AuditLogStore; logger: Logger; retentionDays: number; clock?: () => number }) {}

  start(): void {
    this.running = this.prune();
    this.timer = setInterval(() => {
      this.running ??= this.prune();
    }, PRUNE_EVERY_MS).unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.running;
  }

  /** Deletes every record past the retention, a batch at a time; how many. */
  async pruneNow(): Promise<number> {
    const before = (this.deps.clock ?? Date.now)() - this.deps.retentionDays * DAY_MS;
    let deleted = 0;
    for (;;) {
      const batch = await this.deps.store.prune(this.deps.db, before, PRUNE_BATCH);
      deleted += batch;
      if (batch < PRUNE_BATCH || this.stopped) return deleted;
      // Between batches, the requests waiting on the event loop (and the database) go first.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  private async prune(): Promise<void> {
    try {
      const deleted = await this.pruneNow();
      if (deleted > 0) this.deps.logger.info({ deleted, retentionDays: this.deps.retentionDays }, 'audit log records past their retention deleted');
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'the audit log could not be pruned; the next round tries again');
    } finally {
      this.running = undefined;
    }
  }
}
