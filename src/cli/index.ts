#!/usr/bin/env node
import { CommanderError } from 'commander';
import { ConfigError } from '../config';
import { DomainError } from '../errors/domain';
import { WorldError } from '../modules/world/world.loader';
import { processOutput } from './output';
import { buildProgram } from './program';

/** Known failures print one clear message and exit 1; never a stack trace for bad input. */
buildProgram(processOutput)
  .exitOverride()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    if (error instanceof CommanderError) process.exit(error.exitCode);
    const known = error instanceof WorldError || error instanceof ConfigError || error instanceof DomainError;
    const message = error instanceof Error ? error.message : String(error);
    processOutput.err(known ? `error: ${message}` : `error: ${message}${error instanceof Error && error.stack ? `\n${error.stack}` : ''}`);
    process.exit(1);
  });
