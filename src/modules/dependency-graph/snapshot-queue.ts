import { UnavailableError } from '../../errors/domain';
import type { Executor } from '../../database/transaction';
import type { RequestsInFlight } from '../../http/requests-in-flight';
import type { SnapshotQueueStore } from './snapshot-queue.store';
import { SnapshotShare } from './snapshot-share';

/** SNAPSHOT_WORKER_SHARE and SNAPSHOT_QUEUE_MAX_DELAY (config.ts). */
export interface SnapshotQueueSettings {
  /** Of the instance's time, what snapshots (their requests and the worker) may take while other requests are answered (0 to 1); 0: no queue, every snapshot applied in its request. */
  workerShare: number;
  /** A snapshot whose wait would be longer is refused (503 with Retry-After). */
  maxDelaySeconds: number;
}

export const DEFAULT_SNAPSHOT_QUEUE_SETTINGS: SnapshotQueueSettings = { workerShare: 0.1, maxDelaySeconds: 5 };

/** First guesses of an application's time and of a request's own, until this instance has measured some (EWMA). */
const FIRST_APPLY_SECONDS = 0.05;
const FIRST_REQUEST_SECONDS = 0.02;
const EWMA_WEIGHT = 0.2;

/** What a snapshot's request tells the queue about itself. */
export interface SnapshotRequestWork {
  /** When its own work began (performance.now(): REST, the body read; GraphQL, the resolver): charged to the share. */
  startedAt?: number | undefined;
  /** Whether its request counts among the others (REST's are excluded on arrival, GraphQL's cannot be). */
  countedAsOther?: boolean | undefined;
  /** Its admission, when it was admitted before its body was read (REST). */
  admission?: SnapshotAdmission | undefined;
}

/**
 * A snapshot let in: the time it is expected to take is set aside in the share at once (its
 * request's own work, and its application when it is applied in the request), so that
 * snapshots arriving beside it, before it is done, see it spent; when it is done, what it took
 * replaces the estimate (once, however often it is told).
 */
export class SnapshotAdmission {
  private done = false;

  constructor(private readonly queue: SnapshotQueue, private reserved: number) {}

  /** More set aside: it is applied in its request. */
  reserve(seconds: number): void {
    this.queue.share.reserve(seconds);
    this.reserved += seconds;
  }

  finish(seconds: number, { applied }: { applied: boolean }): void {
    if (this.done) return;
    this.done = true;
    this.queue.recordRequest(seconds, { applied, reservedSeconds: this.reserved });
  }
}

/**
 * When a snapshot of the default branch is applied in its request and when it waits for the
 * worker (snapshot-worker.ts), and when it is refused: interfaces.md, Dependency snapshots.
 * All snapshot work is kept to `workerShare` of the instance's time while other requests are
 * answered (snapshot-share.ts). A snapshot is applied at once (answered SUCCESS) when no other
 * request is being answered and snapshots are within their share; otherwise it is stored and
 * queued (ACCEPTED), and the worker applies the queue in order as the share allows. One that
 * arrives while snapshots are past their share, or would wait longer than `maxDelaySeconds`,
 * is refused before its body is read.
 */
export class SnapshotQueue {
  private workers = 0;
  private applySeconds = FIRST_APPLY_SECONDS;
  private requestSeconds = FIRST_REQUEST_SECONDS;
  private readonly queuedListeners = new Set<() => void>();
  private refused = 0;
  readonly share: SnapshotShare;

  constructor(
    private readonly deps: { store: SnapshotQueueStore; requests: RequestsInFlight },
    readonly settings: SnapshotQueueSettings = DEFAULT_SNAPSHOT_QUEUE_SETTINGS,
  ) {
    this.share = new SnapshotShare(deps.requests, settings.workerShare);
  }

  /** Whether queueing is on: a worker runs on this instance and may take some time. */
  get active(): boolean {
    return this.workers > 0 && this.settings.workerShare > 0;
  }

  /**
   * Whether an admitted snapshot waits for the worker: another request is being answered, or
   * applying it now would take snapshots past their share. Otherwise it is applied in its
   * request, and its application is set aside in the share at once.
   */
  shouldQueue(admission: SnapshotAdmission, work: SnapshotRequestWork = {}): boolean {
    if (!this.active) return false;
    const others = this.deps.requests.others - (work.countedAsOther ? 1 : 0);
    if (others > 0 || this.share.waitSeconds(this.applySeconds) > 0) return true;
    admission.reserve(this.applySeconds);
    return false;
  }

  /** Lets a snapshot in (its request's expected time set aside), or throws the 503 it gets (refusal). */
  async admit(db: Executor): Promise<SnapshotAdmission> {
    const refusal = await this.refusal(db);
    if (refusal !== undefined) throw refusal;
    const reserved = this.active ? this.requestSeconds : 0;
    if (reserved > 0) this.share.reserve(reserved);
    return new SnapshotAdmission(this, reserved);
  }

  /**
   * The 503 a snapshot gets, before its body is read: while snapshots have run ahead of their
   * share (even reading one more would take from the others), or when the queue ahead of it
   * would take longer than `maxDelaySeconds` to apply at the share.
   */
  private async refusal(db: Executor): Promise<UnavailableError | undefined> {
    if (!this.active) return undefined;
    const ahead = this.share.waitSeconds();
    const queued = await this.deps.store.length(db);
    const rate = this.share.contended ? this.settings.workerShare : 1;
    const wait = Math.max(ahead, ((queued + 1) * (this.applySeconds + this.requestSeconds)) / rate);
    if (ahead === 0 && wait <= this.settings.maxDelaySeconds) return undefined;
    const retryAfter = Math.max(1, Math.ceil(ahead > 0 ? ahead : wait - this.settings.maxDelaySeconds));
    this.refused++;
    const why = ahead > 0 ? 'Dependency snapshots have had their share of this instance while it answers other requests' : 'Too many dependency snapshots are waiting to be applied';
    return new UnavailableError(`${why}: try again in ${retryAfter} second${retryAfter === 1 ? '' : 's'}.`, retryAfter);
  }

  /** Snapshots refused since the instance started (orgsec_snapshots_refused_total). */
  get refusals(): number {
    return this.refused;
  }

  /** Told by the worker of each application's time: charged to the share, and the rate the refusal assumes. */
  recordApplication(seconds: number): void {
    this.share.charge(seconds);
    this.applySeconds += EWMA_WEIGHT * (seconds - this.applySeconds);
  }

  /** Told of a snapshot request's own work once answered (an application in it included, when `applied`), in place of what its admission set aside. */
  recordRequest(seconds: number, { applied, reservedSeconds = 0 }: { applied: boolean; reservedSeconds?: number }): void {
    this.share.charge(seconds, reservedSeconds);
    if (!applied) this.requestSeconds += EWMA_WEIGHT * (seconds - this.requestSeconds);
  }

  /** Seconds the worker waits before its next application (0: now). */
  workerWaitSeconds(): number {
    return this.share.waitSeconds();
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
