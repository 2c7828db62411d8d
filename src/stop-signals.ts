import { isMainThread, parentPort, workerData } from 'node:worker_threads';

/** The signals that stop orgsec; the main thread sends the serve thread their names (src/cli/serve-thread.ts). */
export const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;
/** Marks the thread `orgsec serve` runs in (its workerData). */
export const SERVE_THREAD_DATA = { orgsecServeThread: true } as const;

/**
 * Calls `stop` on SIGTERM or SIGINT (each at most once; `stop` must bear being called twice).
 * Signals reach only the main thread, so in the serve thread it is the main thread's relay of them.
 */
export function onStopRequest(stop: (signal: string) => void): void {
  for (const signal of STOP_SIGNALS) process.once(signal, () => stop(signal));
  const isServeThread = !isMainThread && (workerData as Partial<typeof SERVE_THREAD_DATA> | null)?.orgsecServeThread === true;
  if (isServeThread && parentPort) {
    const port = parentPort;
    port.on('message', function relayed(message: unknown) {
      const signal = STOP_SIGNALS.find((s) => s === message);
      if (signal === undefined) return;
      port.off('message', relayed);
      stop(signal);
    });
    port.unref(); // the server keeps the thread alive, not the wait for a message
  }
}
