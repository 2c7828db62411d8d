import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Logger } from '../../logger';
import { toTimestamp } from '../../shared/time';
import type { DeliveryPayloads } from './delivery-payload';
import type { AttemptOutcome, ClaimedDelivery, DeliveryStore } from './delivery.store';
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
  private readonly inFlight = new Map<number, { delivery: ClaimedDelivery; abort: AbortController; done: Promise<void> }>();
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

  /** Something was queued or finished: claim what is due now. */
  wake(): void {
    if (this.stopped) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    void this.pump();
  }

  private async poll(): Promise<void> {
    if (this.pumping || this.inFlight.size >= (this.options.maxInFlight ?? 16)) return;
    try {
      if (await this.deps.store.anyDue(this.deps.db, Date.now())) this.wake();
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
        this.startAttempts(claimed);
      } while (this.again && !this.stopped);
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'webhook delivery claim failed');
    } finally {
      this.pumping = false;
    }
  }

  /**
   * Claims what is due for the free slots, with the bodies, in the caller's transaction: on
   * SQLite every statement of the worker waits for the one connection behind the requests, so
   * a claim with its reads, or an attempt's record with the next claim, is one wait, not five.
   */
  private async claim(trx: Knex.Transaction): Promise<Array<ClaimedDelivery & { body: string | undefined }>> {
    const free = (this.options.maxInFlight ?? 16) - this.inFlight.size;
    if (free <= 0 || this.stopped) return [];
    const now = Date.now();
    const claimed = await this.deps.store.claim(trx, free, now, now + this.options.timeoutMs + LEASE_MARGIN_MS);
    if (claimed.length === 0) return [];
    const bodies = await this.deps.payloads.bodies(trx, this.options.publicUrl, claimed);
    return claimed.map((delivery) => ({ ...delivery, body: bodies.get(delivery.id) }));
  }

  private startAttempts(claimed: ReadonlyArray<ClaimedDelivery & { body: string | undefined }>): void {
    for (const delivery of claimed) {
      if (this.inFlight.has(delivery.id)) continue;
      const abort = new AbortController();
      const done = this.attempt(delivery, delivery.body, abort.signal)
        .catch((error: unknown) => {
          this.inFlight.delete(delivery.id);
          this.deps.logger.warn({ err: error, delivery: delivery.id }, 'webhook delivery attempt failed to be recorded');
        });
      this.inFlight.set(delivery.id, { delivery, abort, done });
    }
  }

  private async attempt(delivery: ClaimedDelivery, json: string | undefined, signal: AbortSignal): Promise<void> {
    const { store, db } = this.deps;
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
    if (signal.aborted) {
      this.inFlight.delete(delivery.id);
      await store.release(db, [delivery]);
      return;
    }
    const outcome = json === undefined ? { state: 'failed' as const } : outcomeOf(delivery, delivery.attempts + 1, response, Date.now());
    const record = {
      deliveredAt: toTimestamp(new Date(startedAt)),
      durationSeconds: Math.round(response.durationMs) / 1000,
      status: response.status,
      statusCode: response.statusCode,
      url: hook.url,
      requestHeaders: headers,
      requestBody: body.slice(0, MAX_LOGGED_BODY),
      responseHeaders: response.headers,
      responseBody: response.body,
    };
    // The attempt's record and the next claim (this hook's next row is due at once) in one transaction.
    const next = await store.transaction(db, async (trx) => {
      await store.finish(trx, delivery, record, outcome);
      this.inFlight.delete(delivery.id);
      return this.claim(trx);
    });
    this.startAttempts(next);
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
