import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { packageVersion } from '../../cli/paths';
import type { Services } from '../../composition';
import { createDeliveryWorker } from '../../composition/delivery';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import type { DeliveryWorkerOptions } from './delivery-worker';

/** What the delivery thread is started with (plain data: it crosses to the thread). */
export type DeliveryThreadSettings = Pick<Config, 'databaseUrl' | 'sqliteFastPaths' | 'logLevel' | 'publicUrl' | 'webhookTimeoutMs' | 'webhookAllowPrivateTargets'>;
/** The messages the thread takes. */
export type ToDeliveryThread = 'wake' | 'stop';

/** The worker's options from the instance's settings, the same on either path. */
export function deliveryWorkerOptions(settings: Omit<DeliveryThreadSettings, 'databaseUrl' | 'sqliteFastPaths' | 'logLevel'>): DeliveryWorkerOptions {
  return { publicUrl: settings.publicUrl, allowPrivateTargets: settings.webhookAllowPrivateTargets, timeoutMs: settings.webhookTimeoutMs, version: packageVersion() };
}

/** The compiled thread entry; absent when this module runs from TypeScript source. */
const THREAD_ENTRY = path.join(__dirname, 'delivery-thread.js');
/**
 * The thread's heap: it holds one batch of payloads at a time (about 13 MB used when busy);
 * one that outgrows this ends and is started again, never the server.
 */
const THREAD_HEAP = { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 12 };
/** A thread that failed is started again after this long. */
const RESTART_AFTER_MS = 1_000;
/** How long a stopping thread is given to end its attempts. */
const STOP_GRACE_MS = 10_000;

/**
 * The instance's delivery worker, started and woken whenever this instance queues deliveries:
 * in a worker thread of its own (with its own database connection), or, run from source
 * without the compiled entry, on this event loop over the instance's connection.
 */
export function startDeliveryWorker(
  services: Pick<Services, 'database' | 'outbox'>,
  logger: Logger,
  settings: DeliveryThreadSettings,
): { stop(): Promise<void> } {
  if (!fs.existsSync(THREAD_ENTRY)) {
    const worker = createDeliveryWorker(services.database.knex, logger, deliveryWorkerOptions(settings));
    const unsubscribe = services.outbox.onQueued(() => worker.wake());
    worker.start();
    return { stop: async () => { unsubscribe(); await worker.stop(); } };
  }
  const data: DeliveryThreadSettings = {
    databaseUrl: settings.databaseUrl, sqliteFastPaths: settings.sqliteFastPaths, logLevel: settings.logLevel, publicUrl: settings.publicUrl,
    webhookTimeoutMs: settings.webhookTimeoutMs, webhookAllowPrivateTargets: settings.webhookAllowPrivateTargets,
  };
  let stopping = false;
  let running = false;
  let thread: Worker;
  const start = () => {
    thread = new Worker(THREAD_ENTRY, { workerData: data, resourceLimits: THREAD_HEAP });
    running = true;
    thread.on('error', (error) => logger.error({ err: error }, 'webhook delivery thread failed'));
    thread.on('exit', (code) => {
      running = false;
      if (stopping) return;
      logger.error({ code }, 'webhook delivery thread exited; starting it again');
      setTimeout(() => { if (!stopping) start(); }, RESTART_AFTER_MS).unref();
    });
  };
  start();
  const unsubscribe = services.outbox.onQueued(() => { if (running) thread.postMessage('wake' satisfies ToDeliveryThread); });
  return {
    stop: async () => {
      stopping = true;
      unsubscribe();
      if (!running) return;
      const exited = new Promise<void>((resolve) => thread.once('exit', () => resolve()));
      thread.postMessage('stop' satisfies ToDeliveryThread);
      // It aborts its attempts and gives their claims back; one that does not end in time is ended.
      const deadline = setTimeout(() => void thread.terminate(), STOP_GRACE_MS);
      await exited;
      clearTimeout(deadline);
    },
  };
}
