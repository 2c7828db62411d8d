import { UnavailableError } from '../../errors/domain';
import type { Executor } from '../../database/transaction';
import type { RequestsInFlight } from '../../http/requests-in-flight';
import type { SnapshotQueueStore } from './snapshot-queue.store';

/** SNAPSHOT_WORKER_SHARE and SNAPSHOT_QUEUE_MAX_DELAY (config.ts). */
export interface SnapshotQueueSettings {
  /** Of the instance's time, what the worker may take while requests are waiting (0 to 1); 0: no queue, every snapshot applied in its request. */
  workerShare: number;
  /** A snapshot whose wait would be longer is refused (503 with Retry-After). */
  maxDelaySeconds: number;
}

export const DEFAULT_SNAPSHOT_QUEUE_SETTINGS: SnapshotQueueSettings = { workerShare: 0.2, maxDelaySeconds: 5 };

/** A first guess of one application's time, until this instance has measured some (EWMA). */
const FIRST_APPLY_SECONDS = 0.05;
const EWMA_WEIGHT = 0.2;

/**
 * When a snapshot of the default branch is applied in its request and when it waits for the
 * worker (snapshot-worker.ts), and when it is refused: interfaces.md, Dependency snapshots.
 * A snapshot is applied at once (answered SUCCESS) when this instance answers no other
 * request: nobody waits behind it. Otherwise it is stored and queued (ACCEPTED), and the
 * worker applies the queue in order, taking at most `workerShare` of the time while requests
 * wait. One that would wait longer than `maxDelaySeconds` at the rate this instance applies
 * them is refused before its body is read.
 */
export class SnapshotQueue {
  private workers = 0;
  private applySeconds = FIRST_APPLY_SECONDS;
  private readonly queuedListeners = new Set<() => void>();

  constructor(
    private readonly deps: { store: SnapshotQueueStore; requests: RequestsInFlight },
    readonly settings: SnapshotQueueSettings = DEFAULT_SNAPSHOT_QUEUE_SETTINGS,
  ) {}

  /** Whether queueing is on: a worker runs on this instance and may take some time. */
  get active(): boolean {
    return this.workers > 0 && this.settings.workerShare > 0;
  }

  /** A snapshot arriving now waits for the worker: another request is being answered. */
  shouldQueue(): boolean {
    return this.active && this.deps.requests.current > 1;
  }

  /** The 503 a snapshot gets when the queue ahead of it would take longer than the most it may wait. */
  async refusal(db: Executor): Promise<UnavailableError | undefined> {
    if (!this.active) return undefined;
    const wait = ((await this.deps.store.length(db)) + 1) * this.applySeconds / this.settings.workerShare;
    if (wait <= this.settings.maxDelaySeconds) return undefined;
    const retryAfter = Math.max(1, Math.ceil(wait - this.settings.maxDelaySeconds));
    return new UnavailableError(`Too many dependency snapshots are waiting to be applied: try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`, retryAfter);
  }

  /** Told by the worker of each application's time (the rate the refusal assumes). */
  recordApplication(seconds: number): void {
    this.applySeconds += EWMA_WEIGHT * (seconds - this.applySeconds);
  }

  /** Whether requests other than the worker's own work are being answered (the worker then keeps to its share). */
  get requestsWaiting(): boolean {
    return this.deps.requests.current > 0;
  }

  /** A worker of this instance started (the queue is on) or stopped. */
  workerStarted(): () => void {
    this.workers++;
    return () => { this.workers--; };
  }

  onQueued(listener: () => void): () => void {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  /** After a transaction that queued a snapshot committed: the worker wakes. */
  queued(): void {
    for (const listener of this.queuedListeners) listener();
  }
}
