import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import { isDatabaseFault } from '../../database/driver-errors';
import { withTransaction } from '../../database/transaction';
import type { Logger } from '../../logger';
import { nowTimestamp } from '../../shared/time';
import type { SnapshotEvaluation } from '../alert-engine/alert-reevaluation';
import type { DependencySnapshotsStore } from './dependency-snapshots.store';
import type { SnapshotQueue } from './snapshot-queue';
import type { SnapshotQueueStore } from './snapshot-queue.store';
import { applySnapshot } from './snapshot-recording';

/** How often an idle worker looks for snapshots other instances queued. */
const POLL_MS = 1_000;
/** A snapshot that failed this many times is left stored but unapplied (logged), so one bad row cannot stop the queue. */
const MAX_ATTEMPTS = 3;
const RETRY_AFTER_FAILURE_MS = 1_000;
/** The longest rest the share imposes before it is looked at again. */
const MAX_SHARE_REST_MS = 250;

/**
 * Applies the queued snapshots of every instance, oldest first, one transaction each (the
 * queue row goes in the transaction that applies it: a crash leaves it queued). It runs on
 * the instance's event loop and keeps, with the snapshot requests, to the share of snapshot
 * work (snapshot-share.ts): while other requests are answered it rests as long as the share
 * says; with none it goes straight on.
 */
export class SnapshotWorker {
  private stopped = true;
  private running: Promise<void> | undefined;
  /** Ends an idle wait (a snapshot queued here); never the rest that keeps the worker to its share. */
  private wakeUp: (() => void) | undefined;
  /** Ends any wait (stop). */
  private interrupt: (() => void) | undefined;
  private release: Array<() => void> = [];

  constructor(
    private readonly deps: {
      db: Knex; queue: SnapshotQueue; store: SnapshotQueueStore; snapshots: DependencySnapshotsStore; alerts: SnapshotEvaluation; logger: Logger;
    },
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.release = [this.deps.queue.workerStarted(), this.deps.queue.onQueued(() => this.wake())];
    this.running = this.loop();
  }

  /** Ends after the application under way, if any (the rest stay queued for the next start or another instance). */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const release of this.release) release();
    this.interrupt?.();
    await this.running;
  }

  wake(): void {
    this.wakeUp?.();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      // Kept to the share of snapshot work (snapshot-share.ts), looked at again at least every
      // MAX_SHARE_REST_MS: the wait shortens when the other requests stop.
      const owed = this.deps.queue.workerWaitSeconds();
      if (owed > 0) {
        await this.rest(Math.min(owed * 1000, MAX_SHARE_REST_MS), { wakeable: false });
        continue;
      }
      let outcome: 'applied' | 'empty' | 'failed';
      const started = performance.now();
      try {
        outcome = await this.applyNext();
      } catch (error) {
        this.deps.logger.warn({ err: error }, 'the snapshot queue could not be read');
        outcome = 'failed';
      }
      if (this.stopped) break;
      if (outcome === 'applied') {
        this.deps.queue.recordApplication((performance.now() - started) / 1000);
        await new Promise((resolve) => setImmediate(resolve));
      } else {
        await this.rest(outcome === 'empty' ? POLL_MS : RETRY_AFTER_FAILURE_MS, { wakeable: outcome === 'empty' });
      }
    }
  }

  /** Waits `ms`, or until stopped, or (if wakeable) until a snapshot is queued here. */
  private async rest(ms: number, { wakeable }: { wakeable: boolean }): Promise<void> {
    const abort = new AbortController();
    this.interrupt = () => abort.abort();
    this.wakeUp = wakeable ? this.interrupt : undefined;
    await sleep(ms, undefined, { signal: abort.signal, ref: false }).catch(() => undefined);
    this.wakeUp = undefined;
    this.interrupt = undefined;
  }

  /** Applies the oldest queued snapshot; a failure is counted against it, and past MAX_ATTEMPTS it leaves the queue. */
  private async applyNext(): Promise<'applied' | 'empty' | 'failed'> {
    const { db, store, snapshots, alerts, logger } = this.deps;
    let tried: number | undefined;
    try {
      const applied = await withTransaction(db, async (trx) => {
        const oldest = await store.oldest(trx);
        if (oldest === undefined) return false;
        tried = oldest.snapshotId;
        const input = await snapshots.storedInput(trx, oldest.snapshotId);
        await store.remove(trx, oldest.snapshotId);
        if (input !== undefined) await applySnapshot(trx, { snapshots, alerts }, oldest.repoId, oldest.snapshotId, input, nowTimestamp());
        return true;
      });
      return applied ? 'applied' : 'empty';
    } catch (error) {
      if (tried === undefined || isDatabaseFault(error)) throw error;
      const snapshotId = tried;
      const attempts = await withTransaction(db, async (trx) => {
        const count = await store.countFailure(trx, snapshotId);
        if (count >= MAX_ATTEMPTS) await store.remove(trx, snapshotId);
        return count;
      });
      logger.error({ err: error, snapshotId, attempts }, attempts >= MAX_ATTEMPTS
        ? 'a queued dependency snapshot could not be applied; it stays stored, unapplied'
        : 'a queued dependency snapshot could not be applied; it will be tried again');
      return 'failed';
    }
  }
}
