import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/cli/paths';
import { openDatabase } from '../../src/database/connection';
import { schemaUrl } from './postgres';
import { SERVER_CORE, spawnPinned, timedRun } from './processes';
import { removeSqliteFile, worldSize } from './world-setup';
import { writeWorldFile } from './world-file';

// The world loader at scale: a world file of `alerts` alerts (written streaming, never held in
// memory here), loaded by `orgsec load` into a fresh SQLite database and, when PostgreSQL is
// configured, into a fresh schema there; each load timed, its peak RSS (VmHWM) sampled until
// it exits, stopped after its timeout and reported as such.

export interface WorldLoadResult {
  database: 'SQLite' | 'PostgreSQL';
  alerts: number;
  fileMb: number;
  seconds?: number;
  alertsPerSecond?: number;
  peakRssMb: number;
  error?: string;
}

/** Where a load goes: a database URL (or file), made empty before the load and removed after. */
interface LoadTarget {
  database: WorldLoadResult['database'];
  url: string;
  timeoutSeconds: number;
  prepare(): Promise<void>;
  remove(): Promise<void>;
}

const LOAD_SCHEMA = 'orgsec_load';

function sqliteTarget(workDir: string, timeoutSeconds: number): LoadTarget {
  const file = path.join(workDir, 'load.sqlite');
  const remove = async () => { removeSqliteFile(file); };
  return { database: 'SQLite', url: file, timeoutSeconds, prepare: remove, remove };
}

/** A schema of its own in the configured database, dropped before and after. */
function postgresTarget(baseUrl: string, timeoutSeconds: number): LoadTarget {
  const url = schemaUrl(baseUrl, LOAD_SCHEMA);
  const dropThen = async (create: boolean) => {
    const admin = openDatabase(baseUrl);
    try {
      await admin.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [LOAD_SCHEMA]);
      if (create) await admin.knex.raw('CREATE SCHEMA ??', [LOAD_SCHEMA]);
    } finally {
      await admin.close();
    }
  };
  return { database: 'PostgreSQL', url, timeoutSeconds, prepare: () => dropThen(true), remove: () => dropThen(false) };
}

/** What runs over a loaded world before it is removed (the large world served). */
export type AfterLoad = (loaded: { database: WorldLoadResult['database']; url: string }) => Promise<void>;

async function timedLoad(file: string, fileMb: number, alerts: number, target: LoadTarget, afterLoad?: AfterLoad): Promise<WorldLoadResult> {
  await target.prepare();
  const cli = path.join(packageRoot(), 'dist', 'src', 'cli', 'index.js');
  // Pinned to one core, as the server is; PostgreSQL's own processes run on the other.
  const child = spawnPinned(SERVER_CORE, process.execPath, [cli, 'load', file, '--database', target.url], { env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const { code, seconds, peakRssBytes, timedOut } = await timedRun(child, target.timeoutSeconds);
  const result: WorldLoadResult = { database: target.database, alerts, fileMb, peakRssMb: peakRssBytes / 2 ** 20 };
  try {
    if (!timedOut && code === 0 && afterLoad) await afterLoad({ database: target.database, url: target.url });
  } finally {
    await target.remove();
  }
  if (timedOut) {
    // The loader's last progress line ("alerts: 54000/1000000") gives the rate it had reached.
    const progress = [...stderr.matchAll(/(\d+)\/(\d+)/g)].pop();
    const reached = progress ? ` at ${Number(progress[1]).toLocaleString('en')} of ${Number(progress[2]).toLocaleString('en')} (${Math.round(Number(progress[1]) / seconds)}/s)` : '';
    return { ...result, error: `stopped after ${target.timeoutSeconds} s${reached}` };
  }
  if (code !== 0) return { ...result, error: `orgsec load exited with ${code}: ${stderr.trim().split('\n').pop() ?? ''}` };
  process.stderr.write(`  orgsec load (${target.database}): ${alerts} alerts in ${seconds.toFixed(1)} s, peak RSS ${result.peakRssMb.toFixed(0)} MB\n`);
  return { ...result, seconds, alertsPerSecond: alerts / seconds };
}

/**
 * One world file of `alerts` alerts, loaded into SQLite and, with `postgresUrl`, into PostgreSQL
 * (given twice SQLite's time before it is stopped: its target is twice SQLite's); `afterLoad`
 * runs over each loaded world before it is removed.
 */
export async function benchWorldLoads(alerts: number, workDir: string, timeoutSeconds: number, postgresUrl?: string, afterLoad?: AfterLoad): Promise<WorldLoadResult[]> {
  const file = path.join(workDir, `world-${alerts}.json`);
  const writeStarted = Date.now();
  try {
    const bytes = await writeWorldFile(file, worldSize(alerts));
    process.stderr.write(`  wrote ${file} (${(bytes / 2 ** 20).toFixed(0)} MB) in ${((Date.now() - writeStarted) / 1000).toFixed(1)} s\n`);
    const targets = [sqliteTarget(workDir, timeoutSeconds), ...(postgresUrl ? [postgresTarget(postgresUrl, 2 * timeoutSeconds)] : [])];
    const results: WorldLoadResult[] = [];
    for (const target of targets) results.push(await timedLoad(file, bytes / 2 ** 20, alerts, target, afterLoad));
    return results;
  } finally {
    fs.rmSync(file, { force: true });
  }
}
