import type { Knex } from 'knex';
import { openDatabase } from '../../src/database/connection';
import { startInstance } from '../helpers/instances';
import { apiClient, type ApiClient } from './api-client';
import { OWNER_TOKEN } from './crash-world';
import type { Lane, Random } from './lane';
import { sigkill, stopIfRunning } from './server-process';

// Start a real server process, check the database against every lane's record, let the
// lanes write for a random while, SIGKILL the process mid-stream, and again; a last start
// checks what the last kill left.

export interface CrashLoopOptions {
  databaseUrl: string;
  lanes: Lane[];
  kills: number;
  random: Random;
  /**
   * How long the lanes write before each kill, in ms, counted from the moment the round's
   * first `acknowledgedBeforeKill` writes were acknowledged: a slow machine then kills later
   * rather than after fewer writes, so the kills' count of acknowledged writes is not a
   * throughput measurement.
   */
  writeMs: { min: number; max: number };
  acknowledgedBeforeKill: number;
  /** Checks of the whole database after each restart (SQLite: integrity_check). */
  checkDatabase?: (knex: Knex) => Promise<string[]>;
  /** Runs between a kill and the next start, while no process has the database open. */
  afterKill?: () => void;
}

export interface CrashLoopResult {
  problems: string[];
  acknowledged: number;
  inFlight: number;
  appliedInFlight: number;
}

/** Every lane's record against the database the restarted server serves. */
async function verifyAll(options: CrashLoopOptions, api: ApiClient): Promise<string[]> {
  const knex = openDatabase(options.databaseUrl, { poolMax: 1 }).knex;
  try {
    const problems: string[] = [];
    for (const lane of options.lanes) problems.push(...(await lane.verify(api, knex)));
    if (options.checkDatabase) problems.push(...(await options.checkDatabase(knex)));
    return problems;
  } finally {
    await knex.destroy();
  }
}

/** One lane writing until `isRunning` turns false; a failure while running is a problem. */
async function drive(lane: Lane, api: ApiClient, isRunning: () => boolean): Promise<string[]> {
  while (isRunning()) {
    try {
      const problem = await lane.write(api);
      if (problem) return [problem];
    } catch (error) {
      // After the kill the write is merely in flight; before it, nothing should fail.
      return isRunning() ? [`${lane.name}: a write failed while the server was up: ${String(error)}`] : [];
    }
  }
  return [];
}

function acknowledgedSoFar(lanes: Lane[]): number {
  return lanes.reduce((sum, lane) => sum + lane.counts().acknowledged, 0);
}

/** Resolves once the lanes have `count` more acknowledged writes, or a lane has stopped. */
async function untilAcknowledged(lanes: Lane[], count: number, stopped: () => boolean): Promise<void> {
  const target = acknowledgedSoFar(lanes) + count;
  while (acknowledgedSoFar(lanes) < target && !stopped()) await new Promise((resolve) => setTimeout(resolve, 5));
}

export async function runCrashLoop(options: CrashLoopOptions): Promise<CrashLoopResult> {
  const problems: string[] = [];
  for (let round = 0; ; round++) {
    const instance = await startInstance(options.databaseUrl);
    try {
      const api = apiClient(instance.url, OWNER_TOKEN);
      problems.push(...(await verifyAll(options, api)).map((p) => `after start ${round}: ${p}`));
      if (round === options.kills) break;
      let running = true;
      let laneStopped = false;
      const lanes = options.lanes.map((lane) => drive(lane, api, () => running).finally(() => { laneStopped = true; }));
      await untilAcknowledged(options.lanes, options.acknowledgedBeforeKill, () => laneStopped);
      const { min, max } = options.writeMs;
      await new Promise((resolve) => setTimeout(resolve, min + options.random() * (max - min)));
      running = false;
      await sigkill(instance);
      for (const laneProblems of await Promise.all(lanes)) problems.push(...laneProblems.map((p) => `before kill ${round + 1}: ${p}`));
      options.afterKill?.();
    } finally {
      // A check that threw must not leave a server running behind the test.
      await stopIfRunning(instance);
    }
  }
  const totals = { acknowledged: 0, inFlight: 0, appliedInFlight: 0 };
  for (const lane of options.lanes) {
    const counts = lane.counts();
    totals.acknowledged += counts.acknowledged;
    totals.inFlight += counts.inFlight;
    totals.appliedInFlight += counts.appliedInFlight;
  }
  return { problems, ...totals };
}
