import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/cli/paths';
import { SERVER_CORE, spawnPinned, timedRun } from './processes';
import { worldSize } from './world-setup';
import { writeWorldFile } from './world-file';

// The world loader at scale: a world file of `alerts` alerts (written streaming, never held in
// memory here), loaded by `orgsec load` into a fresh SQLite database, timed, its peak RSS
// (VmHWM) sampled until it exits. Stopped after `timeoutSeconds` and reported as such.

export interface WorldLoadResult {
  alerts: number;
  fileMb: number;
  seconds?: number;
  alertsPerSecond?: number;
  peakRssMb: number;
  error?: string;
}

export async function benchWorldLoad(alerts: number, workDir: string, timeoutSeconds: number): Promise<WorldLoadResult> {
  const file = path.join(workDir, `world-${alerts}.json`);
  const database = path.join(workDir, 'load.sqlite');
  const writeStarted = Date.now();
  const bytes = await writeWorldFile(file, worldSize(alerts));
  process.stderr.write(`  wrote ${file} (${(bytes / 2 ** 20).toFixed(0)} MB) in ${((Date.now() - writeStarted) / 1000).toFixed(1)} s\n`);
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(database + suffix, { force: true });
  const cli = path.join(packageRoot(), 'dist', 'src', 'cli', 'index.js');
  const child = spawnPinned(SERVER_CORE, process.execPath, [cli, 'load', file, '--database', database], { env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const { code, seconds, peakRssBytes, timedOut } = await timedRun(child, timeoutSeconds);
  const result: WorldLoadResult = { alerts, fileMb: bytes / 2 ** 20, peakRssMb: peakRssBytes / 2 ** 20 };
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(database + suffix, { force: true });
  fs.rmSync(file, { force: true });
  if (timedOut) {
    // The loader's last progress line ("alerts: 54000/1000000") gives the rate it had reached.
    const progress = [...stderr.matchAll(/(\d+)\/(\d+)/g)].pop();
    const reached = progress ? ` at ${Number(progress[1]).toLocaleString('en')} of ${Number(progress[2]).toLocaleString('en')} (${Math.round(Number(progress[1]) / seconds)}/s)` : '';
    return { ...result, error: `stopped after ${timeoutSeconds} s${reached}` };
  }
  if (code !== 0) return { ...result, error: `orgsec load exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}` };
  process.stderr.write(`  orgsec load: ${alerts} alerts in ${seconds.toFixed(1)} s, peak RSS ${result.peakRssMb.toFixed(0)} MB\n`);
  return { ...result, seconds, alertsPerSecond: alerts / seconds };
}
