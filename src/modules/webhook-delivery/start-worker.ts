import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../cli/paths';
import type { Services } from '../../composition';
import type { Config } from '../../config';
import type { Logger } from '../../logger';
import { AccountsStore } from '../accounts/accounts.store';
import { DeliveryPayloads } from './delivery-payload';
import { DeliveryWorker } from './delivery-worker';
import { DeliveryStore } from './delivery.store';

/** orgsec's version (package.json), for the User-Agent of deliveries. */
function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}

/** The instance's delivery worker, started, woken whenever this instance queues deliveries. */
export function startDeliveryWorker(
  services: Pick<Services, 'database' | 'outbox'>,
  logger: Logger,
  config: Pick<Config, 'publicUrl' | 'webhookTimeoutMs' | 'webhookAllowPrivateTargets'>,
): { stop(): Promise<void> } {
  const worker = new DeliveryWorker(
    { db: services.database.knex, store: new DeliveryStore(), payloads: new DeliveryPayloads({ accounts: new AccountsStore() }), logger },
    { publicUrl: config.publicUrl, allowPrivateTargets: config.webhookAllowPrivateTargets, timeoutMs: config.webhookTimeoutMs, version: packageVersion() },
  );
  const unsubscribe = services.outbox.onQueued(() => worker.wake());
  worker.start();
  return {
    stop: async () => {
      unsubscribe();
      await worker.stop();
    },
  };
}
