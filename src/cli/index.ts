#!/usr/bin/env node
import { isMainThread } from 'node:worker_threads';
import { CommanderError } from 'commander';
import { runServeThread, serveHeapMb } from './serve-thread';

// A reader that stops early (`orgsec --help | head`) closes the pipe: that ends the output, not in a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** Failures print one clear line and exit 1; the stack only with LOG_LEVEL=debug. */
function runProgram(): void {
  // Required here, not imported at the top: the main thread of `orgsec serve` never needs the commands.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { buildProgram } = require('./program') as typeof import('./program');
  const { processOutput } = require('./output') as typeof import('./output');
  /* eslint-enable @typescript-eslint/no-require-imports */
  buildProgram(processOutput)
    .exitOverride()
    .parseAsync(process.argv)
    .catch((error: unknown) => {
      if (error instanceof CommanderError) process.exit(error.exitCode);
      const message = error instanceof Error ? error.message : String(error);
      const debug = process.env.LOG_LEVEL === 'debug' || process.env.LOG_LEVEL === 'trace';
      processOutput.err(`error: ${message}${debug && error instanceof Error && error.stack ? `\n${error.stack}` : ''}`);
      process.exit(1);
    });
}

const args = process.argv.slice(2);
const heapMb = isMainThread ? serveHeapMb(args) : undefined;
if (heapMb !== undefined) runServeThread(__filename, args, heapMb);
else runProgram();
