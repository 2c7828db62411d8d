import { Command } from 'commander';
import { registerLoad } from './load.command';
import { registerMigrate } from './migrate.command';
import type { Output } from './output';
import { registerServe } from './serve.command';
import { registerToken } from './token.command';

export function buildProgram(output: Output): Command {
  const program = new Command('orgsec')
    .description('orgsec: organization and repository security administration (REST API)')
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => output.out(s.trimEnd()), writeErr: (s) => output.err(s.trimEnd()) });
  registerServe(program, output);
  registerMigrate(program, output);
  registerLoad(program, output);
  registerToken(program, output);
  return program;
}
