import path from 'node:path';
import { drive } from './drive';
import { startBytesFloor, startExpressFloor, type RunningServer } from './floors';
import type { LoadResult, RequestPlan } from './load-plan';
import { readCounters, sqlPerRequest } from './metrics-probe';
import { sampleRss } from './processes';

// One scenario, measured: a sample answer checked, then rounds of its floor and orgsec driven
// in turn (the floor answering the same bytes, or the one-route Express app), so both meet the
// same machine; the ratio is the median of the rounds' ratios. orgsec's RSS and SQL statements
// are counted over all its rounds.

export type Baseline =
  | { kind: 'bytes' }
  | { kind: 'express' }
  | { kind: 'given'; name: string; rps: () => number | undefined }
  | { kind: 'none' };

export interface Sample {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  /** Throws when the answer is not what the scenario promises (e.g. fewer alerts than a page). */
  check?: (json: unknown) => void;
}

export interface Scenario {
  name: string;
  connections: number;
  /** A request answered like the scenario's: checked first, and its bytes are the floor's. */
  sample: Sample;
  plan: RequestPlan;
  baseline: Baseline;
  target?: { text: string; isMet: (row: Row) => boolean };
  /** Statements of single requests to report beside the scenario's (e.g. GraphQL built at first: 30 and 100). */
  sqlProbes?: Array<{ label: string; sample: Sample }>;
}

export interface Row {
  scenario: string;
  database: string;
  connections: number;
  load?: LoadResult;
  rssMb?: number;
  sqlPerRequest?: number | undefined;
  sqlProbes?: Record<string, number | undefined>;
  bytes?: number;
  baseline?: { name: string; rps: number };
  ratio?: number;
  target?: string;
  met?: boolean;
  notes: string[];
  error?: string;
}

export interface MeasureContext {
  workDir: string;
  /** Seconds per round. */
  seconds: number;
  /** Rounds of floor and orgsec in turn, for scenarios with a floor; one longer round otherwise. */
  rounds: number;
  warmupSeconds: number;
  floorPort: number;
  database: string;
}

async function fetchSample(baseUrl: string, sample: Sample): Promise<Buffer> {
  const response = await fetch(`${baseUrl}${sample.path}`, { method: sample.method, headers: sample.headers, ...(sample.body === undefined ? {} : { body: sample.body }) });
  const bytes = Buffer.from(await response.arrayBuffer());
  if (response.status !== sample.status) throw new Error(`${sample.method} ${sample.path} answered ${response.status}, expected ${sample.status}: ${bytes.toString().slice(0, 200)}`);
  if (sample.check) sample.check(JSON.parse(bytes.toString()));
  return bytes;
}

/** SQL statements per request over sequential requests, outside any load. */
async function probeSql(server: RunningServer, sample: Sample, requests = 1): Promise<number | undefined> {
  const before = await readCounters(server.url);
  for (let i = 0; i < requests; i++) await fetchSample(server.url, sample);
  return sqlPerRequest(before, await readCounters(server.url));
}

/** The floor a scenario is measured against, running for the whole scenario. */
async function startFloor(baseline: Baseline, bytes: Buffer, ctx: MeasureContext): Promise<{ server: RunningServer; name: string } | undefined> {
  if (baseline.kind === 'bytes') return { server: await startBytesFloor(bytes, path.join(ctx.workDir, 'floor-response.json'), ctx.floorPort), name: 'raw node:http, same bytes' };
  if (baseline.kind === 'express') return { server: await startExpressFloor(ctx.floorPort), name: 'Express route' };
  return undefined;
}

const FLOOR_PLAN: RequestPlan = { kind: 'same', method: 'GET', path: '/', headers: {}, expectStatus: 200 };

/** The plan of a round: distinct requests continue where the last round stopped. */
function planOfRound(plan: RequestPlan, issuedBefore: number): RequestPlan {
  return plan.kind === 'same' ? plan : { ...plan, firstIndex: plan.firstIndex + issuedBefore };
}

/** The value below which a share `p` of the values lie (the nearest rank). */
export const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export async function measure(server: RunningServer, scenario: Scenario, ctx: MeasureContext): Promise<Row> {
  const row: Row = { scenario: scenario.name, database: ctx.database, connections: scenario.connections, notes: [] };
  try {
    const bytes = await fetchSample(server.url, scenario.sample);
    row.bytes = bytes.length;
    const floor = await startFloor(scenario.baseline, bytes, ctx);
    const before = await readCounters(server.url);
    const rss = sampleRss(server.pid);
    const rounds: Array<{ load: LoadResult; floorRps?: number }> = [];
    try {
      let issued = 0;
      // Warm-up before each server's first round only: later rounds find them warm.
      for (let round = 0; round < (floor ? ctx.rounds : 1); round++) {
        const warmupSeconds = round === 0 ? ctx.warmupSeconds : 0;
        const seconds = floor ? ctx.seconds : ctx.seconds * ctx.rounds;
        const floorRps = floor ? (await drive({ url: floor.server.url, connections: scenario.connections, seconds, warmupSeconds, plan: FLOOR_PLAN }, ctx.workDir)).rps : undefined;
        const load = await drive({ url: server.url, connections: scenario.connections, seconds, warmupSeconds, plan: planOfRound(scenario.plan, issued) }, ctx.workDir);
        issued += load.issued;
        rounds.push({ load, ...(floorRps === undefined ? {} : { floorRps }) });
      }
    } finally {
      await floor?.server.stop();
    }
    row.rssMb = rss.stop() / 2 ** 20;
    row.sqlPerRequest = sqlPerRequest(before, await readCounters(server.url));
    // The round whose throughput is the median stands for the scenario (its latencies with it).
    const byRps = [...rounds].sort((a, b) => a.load.rps - b.load.rps);
    const load = { ...byRps[Math.floor((byRps.length - 1) / 2)]!.load };
    for (const key of ['requests', 'unexpected', 'errors', 'timeouts', 'emptyPages', 'repeated', 'writes'] as const) load[key] = rounds.reduce((n, r) => n + r.load[key], 0);
    row.load = load;
    if (floor) {
      row.baseline = { name: floor.name, rps: median(rounds.map((r) => r.floorRps!)) };
      row.ratio = median(rounds.map((r) => r.load.rps / r.floorRps!));
    }
    if (scenario.baseline.kind === 'given') {
      const rps = scenario.baseline.rps();
      if (rps !== undefined) {
        row.baseline = { name: scenario.baseline.name, rps };
        row.ratio = load.rps / rps;
      }
    }
    if (scenario.sqlProbes) {
      row.sqlProbes = {};
      for (const probe of scenario.sqlProbes) row.sqlProbes[probe.label] = await probeSql(server, probe.sample);
    }
    if (load.unexpected > 0) row.notes.push(`${load.unexpected} unexpected answers (${Object.entries(load.statuses).map(([s, n]) => `${n}× ${s}`).join(', ')})`);
    if (load.errors > 0 || load.timeouts > 0) row.notes.push(`${load.errors} errors, ${load.timeouts} timeouts`);
    if (load.emptyPages > 0) row.notes.push(`${load.emptyPages} empty pages`);
    if (load.repeated > 0) row.notes.push(`${load.repeated} requests repeated an earlier one`);
    if (load.writes > 0) row.notes.push(`${load.writes} PATCH requests among ${load.requests}, ${load.unexpected} non-2xx answers`);
  } catch (error) {
    row.error = error instanceof Error ? error.message : String(error);
  }
  if (scenario.target) {
    row.target = scenario.target.text;
    row.met = row.error === undefined && row.load !== undefined && scenario.target.isMet(row);
  }
  process.stderr.write(`  ${row.database} ${row.scenario}: ${row.error ?? `${row.load!.rps.toFixed(0)} req/s${row.baseline ? ` vs ${row.baseline.rps.toFixed(0)}` : ''}`}\n`);
  return row;
}
