#!/usr/bin/env node
import { CommanderError } from 'commander';
import { processOutput } from './output';
import { buildProgram } from './program';

// A reader that stops early (`orgsec --help | head`) closes the pipe: that ends the output, not in a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** Failures print one clear line and exit 1; the stack only with LOG_LEVEL=debug. */
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
