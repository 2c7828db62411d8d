import type { RequestsInFlight } from '../../http/requests-in-flight';

/**
 * How long after the last other request the instance still counts as answering others: on one
 * thread, readers wait in socket buffers unseen while a snapshot runs, so one instant says little.
 */
export const CONTENDED_WINDOW_MS = 100;
/** Snapshot work may run this far ahead of its share before it waits (a burst of a few snapshots). */
export const BURST_SECONDS = 0.25;

/**
 * The time snapshots take from this instance (their requests' own work, from the body read to
 * the answer, and the worker's applications), kept to `share` of the time while other requests
 * are being answered, and free when none are: a leaky bucket of seconds. Each piece of snapshot
 * work adds its duration; the bucket empties at `share` seconds a second while others are
 * answered (or were, within CONTENDED_WINDOW_MS) and at one second a second otherwise. While
 * others are answered, neither the worker nor a new snapshot starts while the bucket is over
 * BURST_SECONDS (snapshot-queue.ts); an admitted snapshot's expected time is set aside at once
 * (reserve), so those arriving beside it see it spent. Durations are wall time: on PostgreSQL
 * the time a snapshot's transaction waits for the database counts too, which keeps the share
 * on the safe side.
 */
export class SnapshotShare {
  private level = 0;
  private spent = 0;
  private settledAt: number;
  /** Until when snapshot work ran that began while others were answered: they waited through it, unseen. */
  private contendedThrough = Number.NEGATIVE_INFINITY;

  /** `clock` in milliseconds, performance.now()'s (tests give their own). */
  constructor(private readonly requests: RequestsInFlight, readonly share: number, private readonly clock: () => number = () => performance.now()) {
    this.settledAt = clock();
  }

  /** Whether other requests are being answered now, or were a moment ago. */
  get contended(): boolean {
    const now = this.clock();
    return this.lastOtherAt(now) > now - CONTENDED_WINDOW_MS;
  }

  /** Sets `seconds` aside for snapshot work about to start (admitted, not yet done): what is admitted beside it sees it spent. */
  reserve(seconds: number): void {
    this.settle(this.clock());
    this.level += seconds;
  }

  /** Adds snapshot work that took `seconds`, ending now, in place of the `reserved` seconds set aside for it. */
  charge(seconds: number, reserved = 0): void {
    const now = this.clock();
    // Work that began while others were answered held them up for all its length: that time is theirs, drained at the share.
    if (this.lastOtherAt(now) >= now - seconds * 1000 - CONTENDED_WINDOW_MS) this.contendedThrough = Math.max(this.contendedThrough, now);
    this.settle(now);
    this.level = Math.max(0, this.level + seconds - reserved);
    this.spent += seconds;
  }

  /** Seconds of snapshot work since the instance started (orgsec_snapshot_work_seconds_total). */
  get spentSeconds(): number {
    return this.spent;
  }

  /**
   * Seconds before `more` seconds of snapshot work may start without taking more than the
   * share from others (0: now, and always while nobody else is answered).
   */
  waitSeconds(more = 0): number {
    this.settle(this.clock());
    const excess = this.level + more - BURST_SECONDS;
    if (excess <= 0 || this.share <= 0 || !this.contended) return 0;
    return excess / this.share;
  }

  /** The last moment others were being answered. */
  private lastOtherAt(now: number): number {
    return now - this.requests.othersIdleMs(now);
  }

  /**
   * Until when, of the time up to now, others count as answered: the window after the last of
   * them, and the snapshot work that began while they were (they waited through it, unseen).
   */
  private contendedUntil(now: number): number {
    return Math.min(now, Math.max(this.lastOtherAt(now) + CONTENDED_WINDOW_MS, this.contendedThrough));
  }

  /** Empties the bucket for the time since it was last settled: at the share while others were answered, fully after. */
  private settle(now: number): void {
    const contendedUntil = Math.max(this.settledAt, this.contendedUntil(now));
    const drained = (this.share * (contendedUntil - this.settledAt) + (now - contendedUntil)) / 1000;
    this.level = Math.max(0, this.level - drained);
    this.settledAt = now;
  }
}
