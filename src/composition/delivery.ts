import type { Knex } from 'knex';
import type { Logger } from '../logger';
import { AccountsStore } from '../modules/accounts/accounts.store';
import { DeliveryPayloads } from '../modules/webhook-delivery/delivery-payload';
import { DeliveryWorker, type DeliveryWorkerOptions } from '../modules/webhook-delivery/delivery-worker';
import { DeliveryStore } from '../modules/webhook-delivery/delivery.store';

// The composition root's part for the webhook delivery thread: a file of its own so that the
// thread loads only what a delivery needs, not every service of index.ts (19 MB of RSS).

/**
 * The webhook delivery worker over `db`, not started: over the instance's connection on its
 * event loop, or over the delivery thread's own connection in that thread (start-worker.ts).
 */
export function createDeliveryWorker(db: Knex, logger: Logger, options: DeliveryWorkerOptions): DeliveryWorker {
  return new DeliveryWorker({ db, store: new DeliveryStore(), payloads: new DeliveryPayloads({ accounts: new AccountsStore() }), logger }, options);
}
