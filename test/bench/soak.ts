import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/cli/paths';
import { createServices } from '../../src/composition';
import { openDatabase } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { drive } from './drive';
import { BIG_ORG, generateWorld } from './generate-world';
import type { AlertRef, LoadResult } from './load-plan';
import { startOrgsec } from './orgsec-server';
import { recreateSchema, schemaUrl } from './postgres';
import { freePort, readStatusBytes } from './processes';
import { patchMixScenario } from './scenarios';
import { readWorldFacts } from './world-facts';
import { worldSize } from './world-setup';

// `npm run soak` (issue 36, part 5): the benchmark's mixed workload (distinct organization
// pages, 1 request in 10 a PATCH) on PostgreSQL through two instances for SOAK_MINUTES (30),
// measured per interval (SOAK_INTERVAL_SECONDS, 60). After the warm-up (SOAK_WARM_MINUTES, 5)
// it must hold: each instance's RSS grows ≤ 10%, no error answer, the instances' connections
// to the database flat, p99 stable. Prints a table and the verdicts; exits 1 when one fails. The suite
// runs a short version (test/faults/soak.test.ts). Settings:
//   SOAK_DATABASE_URL  PostgreSQL server (default TEST_DATABASE_URL, else the local test database); schema orgsec_soak
//   SOAK_ALERTS        alerts in the world (20,000)      SOAK_CONNECTIONS  connections per instance (10)
//   SOAK_JUDGE_P99     off: report the tail without judging it (the suite's short version)

const env = (name: string, fallback: number) => (process.env[name] === undefined ? fallback : Number(process.env[name]));
const MINUTES = env('SOAK_MINUTES', 30);
const INTERVAL_SECONDS = env('SOAK_INTERVAL_SECONDS', 60);
const WARM_MINUTES = env('SOAK_WARM_MINUTES', 5);
const ALERTS = env('SOAK_ALERTS', 20_000);
const CONNECTIONS = env('SOAK_CONNECTIONS', 10);
const BASE_URL = process.env.SOAK_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'orgsec_soak';
const DATABASE_PORT = Number(new URL(BASE_URL).port || 5432);

/** The limits the verdicts hold the run to. */
const RSS_GROWTH_MAX = 0.1;
const SESSION_GROWTH_MAX = 2;
const P99_DRIFT_MAX = 1.25;
/** p99s this close are equal, whatever their ratio (a few ms of scheduling noise on loopback). */
const P99_SLACK_MS = 10;

interface Interval {
  second: number;
  rps: number;
  p99: number;
  failures: number;
  /** What the failures were: non-2xx statuses by code, socket errors, timeouts. */
  failureKinds: Record<string, number>;
  writes: number;
  rssMb: number[];
  /** The instances' open connections to the database server. */
  sessions: number;
}

async function prepareDatabase(url: string): Promise<void> {
  await recreateSchema(BASE_URL, SCHEMA);
  const db = openDatabase(url);
  try {
    await migrateLatest(db);
    // The bench's shape; advisories scaled down with a small world, so a short soak loads fast.
    const world = generateWorld({ ...worldSize(ALERTS), advisories: Math.min(20_000, Math.max(1_000, ALERTS)) });
    const started = Date.now();
    await createServices(db).world.load(world);
    process.stderr.write(`loaded ${ALERTS.toLocaleString('en')} alerts in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  } finally {
    await db.close();
  }
}

/** The patch alerts' states as they are now: the next interval's PATCHes flip them from there. */
async function currentStates(url: string, alerts: AlertRef[]): Promise<AlertRef[]> {
  const db = openDatabase(url);
  try {
    const rows: Array<{ name: string; number: number; state: string }> = await db.knex('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id')
      .where('a.owner_id', db.knex('accounts').where('login', BIG_ORG).select('id'))
      .whereIn('a.number', [...new Set(alerts.map((a) => a.number))]).select('r.name', 'a.number', 'a.state');
    const stateOf = new Map(rows.map((r) => [`${BIG_ORG}/${r.name}#${r.number}`, r.state]));
    return alerts.map((a) => ({ ...a, state: stateOf.get(`${a.repository}#${a.number}`) === 'open' ? 'open' : 'dismissed' }));
  } finally {
    await db.close();
  }
}

/**
 * The instance's open connections to the database server: its TCP sockets (from /proc) whose
 * peer is the server's port. Counted per process, so other clients of a shared server are not.
 */
function databaseConnectionsOf(pid: number, port: number): number {
  const peerPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(table)) continue;
    for (const line of fs.readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // rem_address is HEX_IP:HEX_PORT; st 01 is ESTABLISHED; field 9 the socket's inode.
      if (fields.length > 9 && fields[2]!.endsWith(`:${peerPort}`) && fields[3] === '01') inodes.add(fields[9]!);
    }
  }
  let count = 0;
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    const target = (() => { try { return fs.readlinkSync(`/proc/${pid}/fd/${fd}`); } catch { return ''; } })();
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode && inodes.has(inode)) count += 1;
  }
  return count;
}

function rotated<T>(items: T[], by: number): T[] {
  const k = items.length === 0 ? 0 : by % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

function failureKinds(results: LoadResult[]): Record<string, number> {
  const kinds: Record<string, number> = {};
  const add = (kind: string, n: number) => { if (n > 0) kinds[kind] = (kinds[kind] ?? 0) + n; };
  for (const r of results) {
    for (const [status, n] of Object.entries(r.statuses)) if (!status.startsWith('2')) add(status, n);
    add('socket errors', r.errors);
    add('timeouts', r.timeouts);
  }
  return kinds;
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
}

/** The verdicts over the intervals after the warm-up; each line says what it compared. */
export function verdicts(intervals: Interval[], warmSeconds: number, judgeP99 = true): Array<{ ok: boolean; line: string }> {
  const warm = intervals.filter((i) => i.second <= warmSeconds);
  const after = intervals.filter((i) => i.second > warmSeconds);
  if (warm.length === 0 || after.length < 3) return [{ ok: false, line: 'too short: the run needs one interval of warm-up and three after it' }];
  const base = warm[warm.length - 1]!;
  const out: Array<{ ok: boolean; line: string }> = [];
  base.rssMb.forEach((start, instance) => {
    const peak = Math.max(...after.map((i) => i.rssMb[instance]!));
    const growth = peak / start - 1;
    out.push({ ok: growth <= RSS_GROWTH_MAX, line: `instance ${instance + 1} RSS: ${start.toFixed(0)} MB after the warm-up, at most ${peak.toFixed(0)} MB after (${(growth * 100).toFixed(1)}%, limit ${RSS_GROWTH_MAX * 100}%)` });
  });
  const failures = intervals.reduce((n, i) => n + i.failures, 0);
  const kinds: Record<string, number> = {};
  for (const i of intervals) for (const [kind, n] of Object.entries(i.failureKinds)) kinds[kind] = (kinds[kind] ?? 0) + n;
  const breakdown = Object.entries(kinds).map(([kind, n]) => `${kind}: ${n}`).join(', ');
  out.push({ ok: failures === 0, line: `error answers (non-2xx, socket errors, timeouts): ${failures}${breakdown ? ` (${breakdown})` : ''}` });
  const sessions = Math.max(...after.map((i) => i.sessions));
  out.push({ ok: sessions - base.sessions <= SESSION_GROWTH_MAX, line: `connections to the database: ${base.sessions} after the warm-up, at most ${sessions} after (limit +${SESSION_GROWTH_MAX})` });
  const third = Math.max(1, Math.floor(after.length / 3));
  const first = mean(after.slice(0, third).map((i) => i.p99));
  const last = mean(after.slice(-third).map((i) => i.p99));
  const p99Line = `p99: ${first.toFixed(0)} ms over the first third after the warm-up, ${last.toFixed(0)} ms over the last`;
  // The suite's short version reports the tail without judging it: no timed assertion in a test.
  out.push(judgeP99 ? { ok: last <= first * P99_DRIFT_MAX + P99_SLACK_MS, line: `${p99Line} (limit ×${P99_DRIFT_MAX} + ${P99_SLACK_MS} ms)` } : { ok: true, line: `${p99Line} (not judged: SOAK_JUDGE_P99=off)` });
  return out;
}

async function main(): Promise<void> {
  const url = schemaUrl(BASE_URL, SCHEMA);
  process.stderr.write(`soak: ${MINUTES} min on ${BASE_URL} (schema ${SCHEMA}), ${ALERTS.toLocaleString('en')} alerts, two instances, ${CONNECTIONS} connections each\n`);
  await prepareDatabase(url);
  const facts = await (async () => {
    const db = openDatabase(url);
    try { return await readWorldFacts(db, BIG_ORG, 1); } finally { await db.close(); }
  })();
  const servers = await Promise.all([0, 1].map(async () => startOrgsec(url, await freePort(), { pinned: false })));
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-soak-'));
  const intervals: Interval[] = [];
  try {
    const plan = patchMixScenario(facts, { connections: CONNECTIONS }).plan;
    if (plan.kind !== 'patch-mix') throw new Error('the mixed workload is a patch-mix plan');
    // Each instance toggles alerts of its own, so no two PATCHes of one alert race.
    let halves = [0, 1].map((k) => plan.alerts.filter((_, i) => i % 2 === k));
    const issued = [0, 0];
    const rounds = Math.max(1, Math.round((MINUTES * 60) / INTERVAL_SECONDS));
    process.stdout.write('second   req/s   p99 ms  failures  writes  RSS MB (1, 2)  sessions\n');
    for (let round = 1; round <= rounds; round++) {
      const results: LoadResult[] = await Promise.all(servers.map((server, k) => drive({
        url: server.url, connections: CONNECTIONS, seconds: INTERVAL_SECONDS, warmupSeconds: 0,
        plan: { ...plan, alerts: halves[k]!, firstIndex: plan.firstIndex + k * 1_000_000_000 + issued[k]! },
      }, workDir)));
      results.forEach((r, k) => { issued[k]! += r.issued; });
      // The next interval flips each alert from its state now, beginning after the last one
      // patched: a PATCH still in flight when the interval ended is not sent again until the
      // list comes round, read afresh by then.
      halves = await Promise.all(halves.map((alerts, k) => currentStates(url, rotated(alerts, results[k]!.writes))));
      const interval: Interval = {
        second: round * INTERVAL_SECONDS,
        rps: results.reduce((n, r) => n + r.rps, 0),
        p99: Math.max(...results.map((r) => r.p99)),
        failures: results.reduce((n, r) => n + r.unexpected + r.errors + r.timeouts, 0),
        failureKinds: failureKinds(results),
        writes: results.reduce((n, r) => n + r.writes, 0),
        rssMb: servers.map((s) => (readStatusBytes(s.pid, 'VmRSS') ?? 0) / 2 ** 20),
        sessions: servers.reduce((n, server) => n + databaseConnectionsOf(server.pid, DATABASE_PORT), 0),
      };
      intervals.push(interval);
      process.stdout.write(`${String(interval.second).padStart(6)}  ${interval.rps.toFixed(0).padStart(6)}  ${interval.p99.toFixed(0).padStart(7)}  ${String(interval.failures).padStart(8)}  ${String(interval.writes).padStart(6)}  ${interval.rssMb.map((m) => m.toFixed(0).padStart(4)).join(', ').padStart(13)}  ${String(interval.sessions).padStart(8)}\n`);
    }
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    fs.rmSync(workDir, { recursive: true, force: true });
  }
  const results = verdicts(intervals, WARM_MINUTES * 60, process.env.SOAK_JUDGE_P99 !== 'off');
  for (const v of results) process.stdout.write(`${v.ok ? 'ok  ' : 'FAIL'}  ${v.line}\n`);
  const file = path.join(packageRoot(), '.bench', `soak-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ minutes: MINUTES, alerts: ALERTS, connections: CONNECTIONS, intervals, verdicts: results }, null, 2)}\n`);
  process.stdout.write(`figures written to ${path.relative(process.cwd(), file)}\n`);
  process.exitCode = results.every((v) => v.ok) ? 0 : 1;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`soak failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(1);
  });
}
