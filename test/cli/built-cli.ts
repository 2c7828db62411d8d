import { spawn } from 'node:child_process';
import path from 'node:path';
import { SETTINGS } from '../../src/config';

// The built CLI (dist/), as `npm start` and users run it, for the tests of test/cli.

export const CLI = path.join(__dirname, '..', '..', 'dist', 'src', 'cli', 'index.js');

/** An environment with none of our settings, whatever the test runner was given. */
export function cleanEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !(k in SETTINGS) && !k.startsWith('RATE_LIMIT') && !k.startsWith('ORGSEC_')));
  return { ...env, ...extra };
}

export interface ServingCli {
  /** Everything it printed to stdout up to the line `ready` matched. */
  output: string;
  url: string;
  stop(): Promise<void>;
}

/** Starts the built `orgsec serve ...args`; resolves once stdout has a line matching `ready` (by default, the one naming its URL). */
export function serveBuilt(args: string[], env: Record<string, string>, ready = /serving at http:\/\/\S+\n/): Promise<ServingCli> {
  const child = spawn(process.execPath, [CLI, 'serve', ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let stdout = '';
  return new Promise((resolve, reject) => {
    child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}):\n${output}`)));
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      stdout += chunk.toString();
      if (!ready.test(stdout)) return;
      const url = /serving at (http:\/\/\S+)/.exec(stdout)![1]!;
      const stop = () => new Promise<void>((done) => { child.removeAllListeners('exit'); child.once('exit', () => done()); child.kill('SIGTERM'); });
      resolve({ output: stdout, url, stop });
    });
  });
}
