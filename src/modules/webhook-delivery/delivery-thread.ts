import { parentPort, workerData } from 'node:worker_threads';
import { createDeliveryWorker } from '../../composition/delivery';
import { openDatabase } from '../../database/connection';
import { createLogger } from '../../logger';
import { deliveryWorkerOptions, type DeliveryThreadSettings, type ToDeliveryThread } from './start-worker';

// The delivery worker's own thread (start-worker.ts starts it): its own event loop and its own
// database connection, so an attempt's few steps never wait behind the requests that keep the
// instance's main event loop busy. Messages: 'wake' (this instance queued deliveries), 'stop'.

const settings = workerData as DeliveryThreadSettings;
const port = parentPort!;
const database = openDatabase(settings.databaseUrl, { poolMax: 2, sqliteFastPaths: settings.sqliteFastPaths });
const worker = createDeliveryWorker(database.knex, createLogger(settings.logLevel), deliveryWorkerOptions(settings));

port.on('message', (message: ToDeliveryThread) => {
  if (message === 'wake') worker.wake();
  else if (message === 'stop') {
    // Then the thread ends, whatever a driver may still hold open (a connection it was making, say).
    void worker.stop().then(() => database.close()).finally(() => {
      port.close();
      process.exit(0); // in a worker thread: ends this thread only
    });
  }
});
worker.start();
