import path from 'node:path';
import { drive } from './drive';
import { startBytesFloor, type RunningServer } from './floors';
import type { LoadResult, RequestPlan } from './load-plan';
import { readCounters, sqlPerRequest } from './metrics-probe';
import { sampleRss } from './processes';

// One scenario, measured: a sample answer checked, the floor driven with its bytes where
// the scenario has one, then orgsec driven while its RSS and SQL statements are counted.

export type Baseline =
  | { kind: 'bytes' }
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
  /** More SQL statements per request to report beside the scenario's (e.g. GraphQL at first: 100). */
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
  seconds: number;
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

/** SQL statements per request over a few sequential requests, outside any load. */
async function probeSql(server: RunningServer, sample: Sample, requests = 10): Promise<number | undefined> {
  const before = await readCounters(server.url);
  for (let i = 0; i < requests; i++) await fetchSample(server.url, sample);
  return sqlPerRequest(before, await readCounters(server.url));
}

async function driveFloor(bytes: Buffer, ctx: MeasureContext, connections: number): Promise<number> {
  const floor = await startBytesFloor(bytes, path.join(ctx.workDir, 'floor-response.json'), ctx.floorPort);
  try {
    const plan: RequestPlan = { kind: 'same', method: 'GET', path: '/', headers: {}, expectStatus: 200 };
    return (await drive({ url: floor.url, connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds, plan }, ctx.workDir)).rps;
  } finally {
    await floor.stop();
  }
}

export async function measure(server: RunningServer, scenario: Scenario, ctx: MeasureContext): Promise<Row> {
  const row: Row = { scenario: scenario.name, database: ctx.database, connections: scenario.connections, notes: [] };
  try {
    const bytes = await fetchSample(server.url, scenario.sample);
    row.bytes = bytes.length;
    if (scenario.baseline.kind === 'bytes') row.baseline = { name: 'raw node:http, same bytes', rps: await driveFloor(bytes, ctx, scenario.connections) };
    if (scenario.baseline.kind === 'given') {
      const rps = scenario.baseline.rps();
      if (rps !== undefined) row.baseline = { name: scenario.baseline.name, rps };
    }
    const before = await readCounters(server.url);
    const rss = sampleRss(server.pid);
    const load = await drive({ url: server.url, connections: scenario.connections, seconds: ctx.seconds, warmupSeconds: ctx.warmupSeconds, plan: scenario.plan }, ctx.workDir);
    row.rssMb = rss.stop() / 2 ** 20;
    row.sqlPerRequest = sqlPerRequest(before, await readCounters(server.url));
    row.load = load;
    if (scenario.sqlProbes) {
      row.sqlProbes = {};
      for (const probe of scenario.sqlProbes) row.sqlProbes[probe.label] = await probeSql(server, probe.sample);
    }
    if (row.baseline) row.ratio = load.rps / row.baseline.rps;
    if (load.unexpected > 0) row.notes.push(`${load.unexpected} unexpected answers (${Object.entries(load.statuses).map(([s, n]) => `${n}× ${s}`).join(', ')})`);
    if (load.errors > 0 || load.timeouts > 0) row.notes.push(`${load.errors} errors, ${load.timeouts} timeouts`);
    if (load.emptyPages > 0) row.notes.push(`${load.emptyPages} empty pages`);
    if (load.repeated > 0) row.notes.push(`${load.repeated} requests repeated an earlier one`);
    if (load.writes > 0) row.notes.push(`${load.writes} PATCH requests among ${load.requests}, ${load.requests - (load.statuses['200'] ?? 0)} non-2xx answers`);
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
