import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../../logger';
import { toTimestamp } from '../../shared/time';
import type { DeliveryPayloads } from './delivery-payload';
import type { AttemptOutcome, AttemptRecord, ClaimedDelivery, DeliveryStore } from './delivery.store';
import { MAX_RESPONSE_BYTES, sendHook, type HookResponse } from './hook-request';

// The delivery worker every instance runs (interfaces.md Part 2 "Webhooks"; issue 22). It claims
// due deliveries (delivery.store.ts: one instance per attempt, a hook's rows in order), sends
// each, writes the attempt, and schedules a retry with exponential back-off and jitter until
// the delivery succeeds or RETRY_WINDOW_MS after it was queued, when it fails and the hook's
// queue moves on. It wakes when this instance queues deliveries (Outbox.onQueued, after the
// commit) and polls for work other instances queued. Deliveries and their attempts are kept
// RETENTION_MS, then deleted.

export const RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
export const RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
const BACKOFF_BASE_MS = 1_000;
const BACKOFF_CAP_MS = 10 * 60 * 1000;
const SWEEP_EVERY_MS = 60_000;
const SWEEP_BATCH = 1_000;
/** A claim outlives its attempt's deadline by this much: only an instance that died loses one. */
const LEASE_MARGIN_MS = 5_000;
/** Rows of one hook claimed together, sent one after another. */
const BATCH_ROWS = 100;
/**
 * No attempt of a batch starts later than this after the claim: its rows stay pending until the
 * batch is recorded, so every one is leased for this, one attempt's deadline and the margin (an
 * instance that dies holds them that long).
 */
const BATCH_BUDGET_MS = 2_000;

/** One hook's claimed rows, in order, with their bodies (undefined: the event is gone). */
type Batch = Array<ClaimedDelivery & { body: string | undefined }>;
/** Request bodies are kept up to this size in the attempt log (the response's bound too). */
const MAX_LOGGED_BODY = MAX_RESPONSE_BYTES;

export interface DeliveryWorkerOptions {
  /** The instance's public API base, before every URL of a payload (PUBLIC_URL). */
  publicUrl: string;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS. */
  allowPrivateTargets: boolean;
  /** The deadline of one attempt (WEBHOOK_TIMEOUT_MS; 10 s). */
  timeoutMs: number;
  /** orgsec's version, in the User-Agent. */
  version: string;
  /** How often to look for work other instances queued. */
  pollMs?: number;
  /** Attempts in flight at once (each for a different hook). */
  maxInFlight?: number;
}

/** Delay before the attempt after `attempts` failed ones: doubling from 1 s to 10 min, with jitter (half to all of it). */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const full = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(full * (0.5 + random() / 2));
}

/** What becomes of a delivery after its `attempts`-th attempt ended in `response` at `now`. */
export function outcomeOf(delivery: Pick<ClaimedDelivery, 'createdMs'>, attempts: number, response: Pick<HookResponse, 'ok'>, now: number): AttemptOutcome {
  if (response.ok) return { state: 'delivered' };
  const deadline = delivery.createdMs + RETRY_WINDOW_MS;
  if (now >= deadline) return { state: 'failed' };
  return { state: 'pending', nextAttemptAt: Math.min(deadline, now + backoffMs(attempts)) };
}

/** The body on the wire: JSON, or `payload=<JSON>` form-encoded for content_type form. */
function wireBody(contentType: 'json' | 'form', json: string): string {
  return contentType === 'form' ? `payload=${encodeURIComponent(json)}` : json;
}

export class DeliveryWorker {
  /** Batches being sent, by hook. */
  private readonly inFlight = new Map<number, { abort: AbortController; done: Promise<void> }>();
  private pumping = false;
  private again = false;
  private stopped = true;
  private timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly deps: { db: Knex; store: DeliveryStore; payloads: DeliveryPayloads; logger: Logger },
    private readonly options: DeliveryWorkerOptions,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.timers = [
      setInterval(() => void this.poll(), this.options.pollMs ?? 250),
      setInterval(() => void this.sweep(), SWEEP_EVERY_MS),
    ];
    void this.sweep();
    this.wake();
  }

  /** Stops claiming, aborts the attempts in flight and gives their claims back. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    for (const { abort } of this.inFlight.values()) abort.abort();
    await Promise.all([...this.inFlight.values()].map((f) => f.done));
    while (this.pumping) await new Promise((resolve) => setTimeout(resolve, 5));
  }

  /**
   * Something was queued: claim what is due now. While batches are being sent, their ends claim
   * (for every hook, in the transaction that records them) and the poll catches the rest: a
   * claim per committed change would queue for the one SQLite connection behind every request.
   */
  wake(force = false): void {
    if (this.stopped || (!force && this.inFlight.size > 0)) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  private async poll(): Promise<void> {
    if (this.pumping || this.inFlight.size >= (this.options.maxInFlight ?? 16)) return;
    try {
      if (await this.deps.store.anyDue(this.deps.db, Date.now())) this.wake(true);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'webhook delivery poll failed');
    }
  }

  private async pump(): Promise<void> {
    this.pumping = true;
    try {
      do {
        this.again = false;
        if (this.stopped) break;
        const claimed = await this.deps.store.transaction(this.deps.db, (trx) => this.claim(trx));
        this.startBatches(claimed);
      } while (this.again && !this.stopped);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'webhook delivery claim failed');
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Claims what is due for the free slots (one hook's batch each), with the bodies, in the
   * caller's transaction: on SQLite every statement of the worker waits for the one connection
   * behind the requests, so a claim with its reads, or a batch's records with the next claim,
   * is one wait.
   */
  private async claim(trx: Knex.Transaction): Promise<Batch[]> {
    const free = (this.options.maxInFlight ?? 16) - this.inFlight.size;
    if (free <= 0 || this.stopped) return [];
    const batches = await this.deps.store.claim(trx, free, BATCH_ROWS, Date.now(), BATCH_BUDGET_MS + this.options.timeoutMs + LEASE_MARGIN_MS);
    if (batches.length === 0) return [];
    const bodies = await this.deps.payloads.bodies(trx, this.options.publicUrl, batches.flat());
    return batches.map((batch) => batch.map((delivery) => ({ ...delivery, body: bodies.get(delivery.id) })));
  }

  private startBatches(batches: readonly Batch[]): void {
    for (const batch of batches) {
      const hookId = batch[0]!.hookId;
      if (this.inFlight.has(hookId)) continue;
      const abort = new AbortController();
      const done = this.send(batch, abort.signal).catch((error: unknown) => {
        this.inFlight.delete(hookId);
        this.deps.logger.warn({ err: error, hook: hookId }, 'webhook delivery attempts failed to be recorded');
      });
      this.inFlight.set(hookId, { abort, done });
    }
  }

  /**
   * One hook's batch, in order, one at a time: it stops at the first failed attempt (the
   * delivery waits for its retry and the rows after it for the delivery) and once
   * BATCH_BUDGET_MS have passed. Then, in one transaction, the attempts are recorded, the
   * rows not sent are given back, and the next rows are claimed.
   */
  private async send(batch: Batch, signal: AbortSignal): Promise<void> {
    const { store, db } = this.deps;
    const done: Array<{ delivery: ClaimedDelivery; record: AttemptRecord; outcome: AttemptOutcome }> = [];
    const started = Date.now();
    for (const delivery of batch) {
      if (signal.aborted || Date.now() - started > BATCH_BUDGET_MS) break;
      const attempt = await this.attempt(delivery, delivery.body, signal);
      if (signal.aborted) break;
      done.push({ delivery, ...attempt });
      if (attempt.outcome.state !== 'delivered') break;
    }
    const unsent = batch.slice(done.length);
    const next = await store.transaction(db, async (trx) => {
      await store.finish(trx, done);
      await store.release(trx, unsent);
      this.inFlight.delete(batch[0]!.hookId);
      return this.claim(trx);
    });
    this.startBatches(next);
  }

  /** One attempt: the request signed and sent, and what it comes to. */
  private async attempt(delivery: ClaimedDelivery, json: string | undefined, signal: AbortSignal): Promise<{ record: AttemptRecord; outcome: AttemptOutcome }> {
    const { hook } = delivery;
    const body = wireBody(hook.contentType, json ?? '{}');
    const headers: Record<string, string> = {
      Accept: '*/*',
      'Content-Type': hook.contentType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json',
      'User-Agent': `orgsec-Hookshot/${this.options.version}`,
      'X-Service-Event': delivery.event,
      'X-Service-Delivery': delivery.guid,
      'X-Service-Hook-ID': String(delivery.hookId),
      'X-Service-Hook-Installation-Target-Type': hook.repoId !== null ? 'repository' : 'organization',
      'X-Service-Hook-Installation-Target-ID': String(hook.repoId ?? hook.orgId),
    };
    if (hook.secret !== null) headers['X-Hub-Signature-256'] = `sha256=${crypto.createHmac('sha256', hook.secret).update(body).digest('hex')}`;
    const startedAt = Date.now();
    const response: HookResponse = json === undefined
      ? { ok: false, status: 'failed: its event no longer exists', statusCode: 0, headers: null, body: null, durationMs: 0 }
      : await sendHook({ url: hook.url, headers, body, insecureSsl: hook.insecureSsl, timeoutMs: this.options.timeoutMs, allowPrivateTargets: this.options.allowPrivateTargets }, signal);
    return {
      outcome: json === undefined ? { state: 'failed' } : outcomeOf(delivery, delivery.attempts + 1, response, Date.now()),
      record: {
        deliveredAt: toTimestamp(new Date(startedAt)),
        durationSeconds: Math.round(response.durationMs) / 1000,
        status: response.status,
        statusCode: response.statusCode,
        url: hook.url,
        requestHeaders: headers,
        requestBody: body.slice(0, MAX_LOGGED_BODY),
        responseHeaders: response.headers,
        responseBody: response.body,
      },
    };
  }

  private async sweep(): Promise<void> {
    const now = Date.now();
    try {
      while (!this.stopped && (await this.deps.store.sweep(this.deps.db, now, now - RETRY_WINDOW_MS, now - RETENTION_MS, SWEEP_BATCH)) === SWEEP_BATCH);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'webhook delivery sweep failed');
    }
  }
}
