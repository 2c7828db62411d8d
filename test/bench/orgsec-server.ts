import path from 'node:path';
import { packageRoot } from '../../src/cli/paths';
import type { RunningServer } from './floors';
import { SERVER_CORE, spawnPinned, stopProcess, waitForHttp } from './processes';

/**
 * `orgsec serve` as users run it, pinned to the server core (unpinned for PostgreSQL, whose
 * server needs a core too). Rate limits off: the bench is one client sending thousands of requests.
 */
export async function startOrgsec(database: string, port: number, options: { pinned: boolean; env?: Record<string, string> }): Promise<RunningServer> {
  // A server left by an earlier run that was killed would answer in this one's place.
  if (await answers(`http://127.0.0.1:${port}/healthz`)) throw new Error(`port ${port} is answered already (an orgsec left running by an earlier bench?): stop it first`);
  const cli = path.join(packageRoot(), 'dist', 'src', 'cli', 'index.js');
  const child = spawnPinned(options.pinned ? SERVER_CORE : undefined, process.execPath, [cli, 'serve', '--port', String(port), '--database', database], {
    env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', DATABASE_URL: '', ...options.env }, stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/healthz`, child);
  } catch (error) {
    await stopProcess(child);
    throw error;
  }
  return { url, pid: child.pid!, stop: () => stopProcess(child) };
}

async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(1000) });
    return true;
  } catch {
    return false;
  }
}
