import { Worker } from 'node:worker_threads';
import { Command } from 'commander';
import { SERVE_THREAD_DATA, STOP_SIGNALS } from '../stop-signals';
import { addServeOptions } from './serve-options';
import { configFromOptions } from './setting-options';

// `orgsec serve` runs the server in a worker thread whose V8 heap is sized by HEAP_MB (by
// default from the cache settings): a process's own heap limit can only be set by node's
// command line, which `npm start`, `npx orgsec` and service managers each build their own
// way, and which every other command (a bulk load needs more) would share. The main thread
// only relays the stop signals, reports how the thread ended and exits with its code.

/** V8's young generation is three semi-spaces: 4 MB ones keep scavenges short and hold little. */
const YOUNG_GENERATION_MB = 12;

/**
 * The heap `orgsec ARGS` serves with, or undefined when ARGS are no `serve` that will start
 * (help, a bad flag or setting): the program then runs in this thread and says why, as always.
 */
export function serveHeapMb(args: readonly string[]): number | undefined {
  if (args[0] !== 'serve') return undefined;
  const command = addServeOptions(new Command('serve'))
    .helpOption(false)
    .exitOverride()
    .configureOutput({ writeOut: () => undefined, writeErr: () => undefined })
    .action(() => undefined);
  try {
    command.parse(args.slice(1), { from: 'user' });
    return configFromOptions(command.opts()).heapMb;
  } catch {
    return undefined;
  }
}

/** Runs `entry ARGS` (the CLI) in the serve thread; the process ends when the thread does, with its exit code. */
export function runServeThread(entry: string, args: readonly string[], heapMb: number): void {
  const thread = new Worker(entry, {
    argv: [...args],
    workerData: SERVE_THREAD_DATA,
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  });
  for (const signal of STOP_SIGNALS) process.once(signal, () => thread.postMessage(signal));
  thread.on('error', (error: NodeJS.ErrnoException) => {
    const message = error.code === 'ERR_WORKER_OUT_OF_MEMORY'
      ? `orgsec ran out of its ${heapMb} MB heap: raise HEAP_MB (--heap-mb), or lower CACHE_MB`
      : error.message;
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
  });
  thread.on('exit', (code) => process.exit(typeof process.exitCode === 'number' ? process.exitCode : code));
}
