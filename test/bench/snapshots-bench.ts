import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { openDatabase, type Database } from '../../src/database/connection';
import { insertBenchAdvisories } from './advisories-bench';
import { timedImport } from './advisory-import-bench';
import { drive } from './drive';
import { BENCH_TOKEN, BIG_ORG } from './generate-world';
import type { LoadResult } from './load-plan';
import { median, percentile, sleep } from './measure';
import { readCounters } from './metrics-probe';
import { LOAD_CORE, cpuSeconds, pinSelf } from './processes';
import { startOrgsec } from './orgsec-server';
import { readWorldFacts } from './world-facts';
import { copyOfWorld } from './world-setup';

// Issue 21's benchmark: computed alerts over the benchmark world (100,000 alerts in 1,000
// repositories) with 20,000 advisories added, on SQLite, served by `orgsec serve`:
// 1. one snapshot of 2,000 resolved dependencies in 5 manifests, request to 201, one client,
//    each a new scan of one repository with a few dependencies moved in and out of vulnerable
//    versions (alerts open, get fixed and come back): p50 (target ≤ 50 ms);
// 2. snapshots as CI sends them (issue 35): the same 2,000 dependencies in 5 manifests, 10% at
//    a vulnerable version, open-loop at 20 a second to the organization's repositories in turn,
//    each past its first snapshot (timed apart: it reconciles the alerts the world declared),
//    while distinct organization alert pages are read: the answers (SUCCESS, ACCEPTED, 503),
//    the rate answered, and the read throughput beside the read-only figure (target ≥ 80%);
// 3. one advisory that affects all 1,000 repositories (each holds the package in a snapshot),
//    imported with `orgsec advisories import` while the server runs, until its 1,000 alerts are
//    open (target ≤ 2 s), beside the import of an advisory that affects none.

export const SNAPSHOT_SCENARIO = 'dependency snapshots and computed alerts';
const SNAPSHOT_P50_LIMIT_MS = 50;
const STREAM_RATE = 20;
/** Reads beside the stream, against reads alone. */
const READS_KEPT_TARGET = 0.8;
/** Of snapshots answered ACCEPTED, queued to applied. */
const QUEUE_DELAY_P99_LIMIT_MS = 5000;
const IMPORT_LIMIT_SECONDS = 2;
const SHARED_PACKAGE = 'bench-shared-lib';
const SHARED_ADVISORY = 'GHSA-4f7m-pq2v-9w3c';
const UNRELATED_ADVISORY = 'GHSA-6h2r-vx8q-c5mj';

/** The five manifests of a snapshot, 400 packages each, and how a name becomes a package URL. */
const MANIFESTS = [
  { file: 'package-lock.json', ecosystem: 'npm', purl: (name: string, v: string) => `pkg:npm/${name}@${v}` },
  { file: 'requirements.txt', ecosystem: 'pip', purl: (name: string, v: string) => `pkg:pypi/${name}@${v}` },
  { file: 'pom.xml', ecosystem: 'maven', purl: (name: string, v: string) => `pkg:maven/${name.replace(':', '/')}@${v}` },
  { file: 'go.mod', ecosystem: 'go', purl: (name: string, v: string) => `pkg:golang/${name}@v${v}` },
  { file: 'Cargo.lock', ecosystem: 'rust', purl: (name: string, v: string) => `pkg:cargo/${name}@${v}` },
] as const;
const PACKAGES_PER_MANIFEST = 400;
/** A version no generated advisory covers (their ranges are within majors 1–5). */
const SAFE_VERSION = '9.0.0';
/** Dependencies at a vulnerable version in every snapshot (10%, spread over the five manifests); TOGGLED of them move each scan. */
const VULNERABLE = 200;
const TOGGLED = 5;

export interface VulnerablePick {
  ecosystem: string;
  name: string;
  version: string;
}

export interface SnapshotBenchResult {
  advisories: number;
  single?: { p50: number; p99: number; count: number; alertsOpen: number; cpuMs: number | undefined };
  stream?: {
    rate: number; snapshotP50: number; snapshotP99: number; readOnly: LoadResult; withSnapshots: LoadResult;
    /** The stream's answers: 201 by result, 503 (with Retry-After), and what was scheduled but not sent for the in-flight cap. */
    answers: { success: number; accepted: number; unavailable: number; unsent: number };
    /** Over the stream: the snapshots' own work (the server's count of it) and the server's CPU, each a fraction of the time. */
    work: { snapshotShare: number; serverBusy: number | undefined };
    repositories: number;
    /** A repository's first snapshot, which reconciles the alerts its world declared. */
    firstP50: number; declaredPerRepository: number;
    /** Of the snapshots answered ACCEPTED: queued to applied, ms (from the database), and the wait for the last after the stream stopped. */
    queueDelay: { p50: number; p99: number; max: number; count: number; drainSeconds: number };
  };
  advisoryImport?: { seconds: number; unrelatedSeconds: number; alertsOpened: number; repositories: number };
  error?: string;
}

/** `count` packages of an ecosystem the advisories affect, each at the version its first range is introduced at (inside it). */
export async function vulnerablePicks(db: Database, ecosystem: string, count: number): Promise<VulnerablePick[]> {
  const rows: Array<{ package_name: string; ranges: string }> = await db.knex('advisory_vulnerabilities')
    .where('ecosystem', ecosystem).whereNotNull('ranges').orderBy('id').limit(count * 4).select('package_name', 'ranges');
  const seen = new Set<string>();
  const found = rows.flatMap((row) => {
    const introduced = (JSON.parse(row.ranges) as Array<{ events: Array<{ introduced?: string }> }>)[0]?.events[0]?.introduced;
    if (!introduced || introduced === '0' || seen.has(row.package_name)) return [];
    seen.add(row.package_name);
    return [{ ecosystem, name: row.package_name, version: introduced }];
  }).slice(0, count);
  if (found.length < count) throw new Error(`only ${found.length} vulnerable ${ecosystem} packages for the snapshots, ${count} wanted`);
  return found;
}

/** Scan `seq`'s version of the `i`-th vulnerable pick: TOGGLED of the first 2 × TOGGLED are fixed (SAFE_VERSION) in turn, so alerts open, get fixed and come back. */
export function pickVersionInScan(pick: VulnerablePick, i: number, seq: number): string {
  const isFixedThisScan = i < TOGGLED * 2 && (i + seq) % 2 === 0;
  return isFixedThisScan ? SAFE_VERSION : pick.version;
}

const packageName = (ecosystem: string, n: number) => (ecosystem === 'maven' ? `org.p${n}:p${n}` : ecosystem === 'go' ? `example.com/p${n}` : `p${n}`);

/**
 * The snapshot body of scan `seq` of a repository: 400 packages in each of its first `manifests`
 * manifests (all five: 2,000), VULNERABLE of them vulnerable but for TOGGLED that move each scan.
 */
function snapshotBody(seq: number, picks: readonly VulnerablePick[], manifests: number = MANIFESTS.length): string {
  const vulnerable = new Map(picks.map((pick, i) => [`${pick.ecosystem}/${pick.name}`, pickVersionInScan(pick, i, seq)]));
  const described: Record<string, unknown> = {};
  for (const [m, manifest] of MANIFESTS.slice(0, manifests).entries()) {
    const resolved: Record<string, unknown> = {};
    const names = [
      ...picks.filter((p) => p.ecosystem === manifest.ecosystem).map((p) => p.name),
      ...Array.from({ length: PACKAGES_PER_MANIFEST }, (_, k) => packageName(manifest.ecosystem, 1000 * m + k + 100_000)),
    ].slice(0, PACKAGES_PER_MANIFEST);
    for (const [k, name] of names.entries()) {
      resolved[name] = { package_url: manifest.purl(name, vulnerable.get(`${manifest.ecosystem}/${name}`) ?? SAFE_VERSION), relationship: k % 4 === 0 ? 'direct' : 'indirect', scope: k % 5 === 0 ? 'development' : 'runtime' };
    }
    described[manifest.file] = { name: manifest.file, file: { source_location: manifest.file }, resolved };
  }
  return scanOf(seq, 'bench-ci', described);
}

function scanOf(seq: number, correlator: string, manifests: Record<string, unknown>): string {
  return JSON.stringify({
    version: 0, sha: seq.toString(16).padStart(40, '0'), ref: 'refs/heads/main', scanned: new Date(Date.UTC(2026, 10, 1) + seq * 1000).toISOString(),
    job: { id: `run-${seq}`, correlator }, detector: { name: 'bench-detector', version: '1.0.0', url: 'https://example.com/detector' }, manifests,
  });
}

/** A small snapshot under its own correlator that adds the shared package to a repository. */
function sharedSnapshotBody(seq: number): string {
  return scanOf(seq, 'bench-shared', {
    'tools/package-lock.json': { name: 'tools/package-lock.json', resolved: { [SHARED_PACKAGE]: { package_url: `pkg:npm/${SHARED_PACKAGE}@1.0.0`, relationship: 'direct' } } },
  });
}

function osvAdvisory(id: string, packageName: string): string {
  return JSON.stringify({
    schema_version: '1.4.0', id, modified: '2026-11-20T00:00:00Z', published: '2026-11-20T00:00:00Z', aliases: [],
    summary: `Benchmark advisory for ${packageName}`, details: 'A vulnerability used by the benchmark.',
    affected: [{ package: { ecosystem: 'npm', name: packageName }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.0.1' }] }] }],
    database_specific: { severity: 'HIGH', github_reviewed: true, cwe_ids: ['CWE-400'] },
  });
}

/**
 * The stream is open-loop: a snapshot is sent when it is due whatever is outstanding, up to
 * this many in flight; one due beyond that is counted as unsent (the server is not keeping up).
 */
const STREAM_IN_FLIGHT = 64;
const agent = new http.Agent({ keepAlive: true, maxSockets: STREAM_IN_FLIGHT });

/** Where a repository's dependencies are sent (under /repos/{owner}/{repo}/dependency-graph/), and as what. */
export interface SnapshotDoor {
  path: string;
  contentType: string;
}
/** #30's submissions. */
export const SUBMISSIONS: SnapshotDoor = { path: 'snapshots', contentType: 'application/json' };

interface SnapshotAnswer {
  ms: number;
  status: 201 | 503;
  result: 'SUCCESS' | 'ACCEPTED' | undefined;
  /** Of a 503. */
  retryAfterSeconds?: number;
}

/**
 * One POST of a snapshot: its time in ms, and the answer (201 or 503; anything else fails the
 * bench). A kept-alive socket the server closed as idle (its keepAliveTimeout, 5 s, passes
 * between the stream's rounds) just as it was reused is retried on another, as Node's
 * documentation of `request.reusedSocket` shows, until one is fresh.
 */
async function postSnapshot(base: string, repository: string, body: string | Buffer, door: SnapshotDoor = SUBMISSIONS): Promise<SnapshotAnswer> {
  for (let tries = 1; ; tries++) {
    try {
      return await postSnapshotOnce(base, repository, body, door);
    } catch (error) {
      if (!(error as { reusedSocket?: boolean }).reusedSocket || tries > STREAM_IN_FLIGHT) throw error;
    }
  }
}

function postSnapshotOnce(base: string, repository: string, body: string | Buffer, door: SnapshotDoor): Promise<SnapshotAnswer> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/repos/${repository}/dependency-graph/${door.path}`, {
      method: 'POST', agent, headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': door.contentType, 'content-length': Buffer.byteLength(body) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const ms = Number(process.hrtime.bigint() - started) / 1e6;
        const text = Buffer.concat(chunks).toString();
        if (response.statusCode === 503 && response.headers['retry-after']) resolve({ ms, status: 503, result: undefined, retryAfterSeconds: Number(response.headers['retry-after']) });
        else if (response.statusCode !== 201) reject(new Error(`snapshot for ${repository}: ${response.statusCode} ${text.slice(0, 300)}`));
        else resolve({ ms, status: 201, result: (JSON.parse(text) as { result: 'SUCCESS' | 'ACCEPTED' }).result });
      });
    });
    request.on('error', (error: NodeJS.ErrnoException) => reject(Object.assign(error, { reusedSocket: request.reusedSocket && error.code === 'ECONNRESET' })));
    request.end(body);
  });
}

/**
 * A snapshot that must be applied: its time in ms. Refused (503) right after a load, while the
 * snapshots' share is spent, it is sent again after its Retry-After, as Octokit's retry plugin does.
 */
export async function postApplied(base: string, repository: string, body: string | Buffer, door: SnapshotDoor = SUBMISSIONS): Promise<number> {
  let answer = await postSnapshot(base, repository, body, door);
  for (let retries = 0; answer.status === 503 && retries < 5; retries++) {
    await sleep(answer.retryAfterSeconds! * 1000);
    answer = await postSnapshot(base, repository, body, door);
  }
  if (answer.result !== 'SUCCESS') throw new Error(`snapshot for ${repository}: ${answer.status} ${answer.result ?? ''} where SUCCESS was expected`);
  return answer.ms;
}


/** The alerts the world declared (not computed) in these repositories. */
async function countDeclaredAlerts(file: string, repositories: readonly string[]): Promise<number> {
  const db = openDatabase(file);
  try {
    const names = repositories.map((r) => r.split('/')[1]!);
    const owners = [...new Set(repositories.map((r) => r.split('/')[0]!))];
    const row = await db.knex('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id').join('accounts as o', 'o.id', 'r.owner_id')
      .whereIn('o.login', owners).whereIn('r.name', names).whereNull('a.vulnerability_id').count({ n: '*' }).first();
    return Number(row!.n);
  } finally {
    await db.close();
  }
}

/** The highest snapshot id stored so far (the stream's snapshots come after it). */
async function lastSnapshotId(file: string): Promise<number> {
  const db = openDatabase(file);
  try {
    return Number((await db.knex('dependency_snapshots').max({ id: 'id' }).first())?.id ?? 0);
  } finally {
    await db.close();
  }
}

/** Waits until the server's worker has applied every queued snapshot; the seconds it took. */
async function drainQueue(file: string, limitSeconds: number): Promise<number> {
  const started = Date.now();
  const db = openDatabase(file);
  try {
    for (;;) {
      const left = Number((await db.knex('dependency_snapshot_queue').count({ n: '*' }).first())!.n);
      if (left === 0) return (Date.now() - started) / 1000;
      if (Date.now() - started > limitSeconds * 1000) throw new Error(`${left} snapshots still queued ${limitSeconds} s after the stream stopped`);
      await sleep(100);
    }
  } finally {
    await db.close();
  }
}

/** Queued to applied, in ms, of the snapshots after `afterId` that were queued. */
async function queueDelays(file: string, afterId: number): Promise<number[]> {
  const db = openDatabase(file);
  try {
    const rows: Array<{ queued_at: string; applied_at: string | null }> = await db.knex('dependency_snapshots')
      .where('id', '>', afterId).whereNotNull('queued_at').select('queued_at', 'applied_at');
    return rows.map((r) => (r.applied_at === null ? Number.POSITIVE_INFINITY : Date.parse(r.applied_at) - Date.parse(r.queued_at)));
  } finally {
    await db.close();
  }
}

async function countOpenAlerts(file: string, svcsaId?: string): Promise<number> {
  const db = openDatabase(file);
  try {
    const query = db.knex('dependency_alerts as a').join('advisories as v', 'v.id', 'a.advisory_id').where('a.state', 'open');
    if (svcsaId) query.where('v.svcsa_id', svcsaId);
    return Number((await query.count({ n: '*' }).first())!.n);
  } finally {
    await db.close();
  }
}

export interface SnapshotBenchSettings {
  workDir: string;
  /** The benchmark world's database, copied (left as it is). */
  worldFile: string;
  port: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  /** Timed snapshots of step 1 (after 10 unmeasured). */
  snapshots: number;
  /** Pairs of step 2 (reads alone, reads beside the stream), the median ratio reported. */
  rounds: number;
}

export async function benchSnapshots(s: SnapshotBenchSettings): Promise<SnapshotBenchResult> {
  const file = copyOfWorld(s.worldFile, s.workDir, 'snapshots.sqlite');
  const db = openDatabase(file);
  let picks: VulnerablePick[];
  let repositories: string[];
  let facts: Awaited<ReturnType<typeof readWorldFacts>>;
  const result: SnapshotBenchResult = { advisories: 0 };
  try {
    result.advisories = await insertBenchAdvisories(db);
    picks = [];
    for (const { ecosystem } of MANIFESTS) picks.push(...(await vulnerablePicks(db, ecosystem, VULNERABLE / MANIFESTS.length)));
    repositories = (await db.knex('repositories as r').join('accounts as o', 'o.id', 'r.owner_id').orderBy('r.id').select('o.login', 'r.name'))
      .map((r: { login: string; name: string }) => `${r.login}/${r.name}`);
    facts = await readWorldFacts(db, BIG_ORG, 1);
  } finally {
    await db.close();
  }

  const server = await startOrgsec(file, s.port, { pinned: true });
  let seq = 1;
  try {
    // 1. One repository's scans, one after another, with the server's CPU time per scan.
    const single = `${BIG_ORG}/service-1`;
    for (let i = 0; i < 10; i++) await postApplied(server.url, single, snapshotBody(seq++, picks));
    const times: number[] = [];
    const cpuBefore = cpuSeconds(server.pid);
    for (let i = 0; i < s.snapshots; i++) times.push(await postApplied(server.url, single, snapshotBody(seq++, picks)));
    const cpuAfter = cpuSeconds(server.pid);
    const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) * 1000) / s.snapshots;
    result.single = { p50: median(times), p99: percentile(times, 0.99), count: times.length, alertsOpen: 0, cpuMs };
    process.stderr.write(`  snapshot of 2,000 dependencies: p50 ${result.single.p50.toFixed(1)} ms, p99 ${result.single.p99.toFixed(1)} ms, ${cpuMs?.toFixed(1) ?? '?'} ms of CPU\n`);

    // 2. Distinct pages read-only and beside STREAM_RATE snapshots a second to the organization's
    // other repositories, in ROUNDS pairs (the machine drifts: each round's ratio pairs two runs
    // a few seconds apart, and the median of the ratios is reported).
    const plan = (firstIndex: number) => ({ kind: 'distinct-pages' as const, org: BIG_ORG, cursors: facts.middleCursors, firstIndex, headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
    // A second more of warm-up than elsewhere: the stream starts as the load runner does, and what
    // it sent before the reads began (applied at once: nobody else was answered) is done before they are measured.
    const load = { url: server.url, connections: s.connections, seconds: s.seconds, warmupSeconds: s.warmupSeconds + 1 };
    // The stream's repositories already submit (a CI job's second push on): each gets its first
    // snapshot here, which also reconciles the alerts the world declared for it, timed apart.
    const others = repositories.filter((r) => r.startsWith(`${BIG_ORG}/`) && r !== single);
    const firstTimes: number[] = [];
    for (const repository of others) firstTimes.push(await postApplied(server.url, repository, snapshotBody(seq++, picks)));
    const declared = await countDeclaredAlerts(file, others);
    const beforeStream = await lastSnapshotId(file);
    const streamTimes: number[] = [];
    const answers = { success: 0, accepted: 0, unavailable: 0, unsent: 0 };
    const rounds: Array<{ readOnly: LoadResult; withSnapshots: LoadResult; rate: number; snapshotShare: number; serverBusy: number | undefined; gc: { alone: number; beside: number } }> = [];
    let due = 0;
    for (let round = 0; round < s.rounds; round++) {
      // Alternately first and second (A B, B A, …): a world that warms up over the rounds favours neither.
      let aloneGc = 0;
      const alone = async () => {
        const before = await readCounters(server.url);
        const started = performance.now();
        const result = await drive({ ...load, plan: plan(7_000_000 + round * 100_000) }, s.workDir);
        aloneGc = ((await readCounters(server.url)).gcSeconds - before.gcSeconds) / ((performance.now() - started) / 1000);
        return result;
      };
      const readsFirst = round % 2 === 0 ? await alone() : undefined;
      // The stream's bodies are built before it starts, and its sending runs on the load core:
      // what the reads lose beside it is the server's doing, not the bench's.
      const bodies = Array.from({ length: STREAM_RATE * (s.seconds + s.warmupSeconds + 3) }, () => snapshotBody(seq++, picks));
      const nextBody = () => bodies.shift() ?? snapshotBody(seq++, picks);
      pinSelf(LOAD_CORE);
      const countersBefore = await readCounters(server.url);
      const cpuBefore = cpuSeconds(server.pid);
      const started = performance.now();
      const answered = answers.success + answers.accepted;
      let streaming = true;
      let streamError: unknown;
      // Open-loop: each sent when due, whatever is outstanding (up to STREAM_IN_FLIGHT).
      const stream = (async () => {
        const inFlight = new Set<Promise<void>>();
        for (let sent = 0; streaming; sent++) {
          const at = started + (sent * 1000) / STREAM_RATE;
          if (performance.now() < at) await sleep(at - performance.now());
          const repository = others[due++ % others.length]!;
          if (inFlight.size >= STREAM_IN_FLIGHT) { answers.unsent++; continue; }
          const post: Promise<void> = postSnapshot(server.url, repository, nextBody()).then((answer) => {
            streamTimes.push(answer.ms);
            if (answer.status === 503) answers.unavailable++;
            else if (answer.result === 'SUCCESS') answers.success++;
            else answers.accepted++;
          }, (error: unknown) => { streamError ??= error; }).finally(() => inFlight.delete(post));
          inFlight.add(post);
        }
        await Promise.all(inFlight);
      })();
      const withSnapshots = await drive({ ...load, plan: plan(8_000_000 + round * 100_000) }, s.workDir);
      streaming = false;
      await stream.finally(() => pinSelf(undefined));
      if (streamError !== undefined) throw streamError;
      const seconds = (performance.now() - started) / 1000;
      const countersAfter = await readCounters(server.url);
      const cpuAfter = cpuSeconds(server.pid);
      const readOnly = readsFirst ?? await alone();
      rounds.push({
        readOnly, withSnapshots, rate: (answers.success + answers.accepted - answered) / seconds,
        snapshotShare: (countersAfter.snapshotWorkSeconds - countersBefore.snapshotWorkSeconds) / seconds,
        gc: { alone: aloneGc, beside: (countersAfter.gcSeconds - countersBefore.gcSeconds) / seconds },
        serverBusy: cpuBefore === undefined || cpuAfter === undefined ? undefined : (cpuAfter - cpuBefore) / seconds,
      });
    }
    const middle = [...rounds].sort((a, b) => a.withSnapshots.rps / a.readOnly.rps - b.withSnapshots.rps / b.readOnly.rps)[Math.floor(rounds.length / 2)]!;
    const { readOnly, withSnapshots, rate } = middle;
    const work = { snapshotShare: middle.snapshotShare, serverBusy: middle.serverBusy };
    const drainSeconds = await drainQueue(file, 120);
    const delays = await queueDelays(file, beforeStream);
    result.stream = {
      rate, snapshotP50: median(streamTimes), snapshotP99: percentile(streamTimes, 0.99), readOnly, withSnapshots, answers, repositories: others.length, work,
      firstP50: median(firstTimes), declaredPerRepository: declared / others.length,
      queueDelay: { p50: median(delays), p99: percentile(delays, 0.99), max: Math.max(0, ...delays), count: delays.length, drainSeconds },
    };
    for (const r of rounds) process.stderr.write(`  distinct pages ${r.readOnly.rps.toFixed(0)} req/s read-only, ${r.withSnapshots.rps.toFixed(0)} req/s beside ${r.rate.toFixed(1)} snapshots/s answered, snapshot work ${(r.snapshotShare * 100).toFixed(0)}% of the time, GC ${(r.gc.alone * 100).toFixed(1)}% alone, ${(r.gc.beside * 100).toFixed(1)}% beside\n`);
    process.stderr.write(`  answers ${JSON.stringify(answers)}, queue delay p50 ${median(delays).toFixed(0)} ms p99 ${percentile(delays, 0.99).toFixed(0)} ms\n`);

    // 3. Every repository holds the shared package; one advisory for it is imported.
    for (const repository of repositories) await postApplied(server.url, repository, sharedSnapshotBody(seq++));
    const osv = path.join(s.workDir, 'snapshot-bench-osv');
    fs.rmSync(osv, { recursive: true, force: true });
    fs.mkdirSync(osv);
    fs.writeFileSync(path.join(osv, `${UNRELATED_ADVISORY}.json`), osvAdvisory(UNRELATED_ADVISORY, 'bench-unused-lib'));
    const unrelated = await timedImport(path.join(osv, `${UNRELATED_ADVISORY}.json`), file, 60);
    fs.writeFileSync(path.join(osv, `${SHARED_ADVISORY}.json`), osvAdvisory(SHARED_ADVISORY, SHARED_PACKAGE));
    const shared = await timedImport(path.join(osv, `${SHARED_ADVISORY}.json`), file, 60);
    fs.rmSync(osv, { recursive: true, force: true });
    result.advisoryImport = { seconds: shared.seconds, unrelatedSeconds: unrelated.seconds, alertsOpened: await countOpenAlerts(file, SHARED_ADVISORY), repositories: repositories.length };
    process.stderr.write(`  advisory affecting ${repositories.length} repositories imported in ${shared.seconds.toFixed(2)} s (one affecting none: ${unrelated.seconds.toFixed(2)} s), ${result.advisoryImport.alertsOpened} alerts open\n`);
    result.single.alertsOpen = await countOpenAlerts(file);
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    await server.stop();
  }
  return result;
}

/** The result's lines of the Markdown table (same columns as the others). */
export function snapshotLines(r: SnapshotBenchResult): string[] {
  const lines: string[] = [];
  const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);
  if (r.single) {
    const cpu = r.single.cpuMs === undefined ? '' : `, ${ms(r.single.cpuMs)} ms of server CPU each`;
    lines.push(`| snapshot of 2,000 dependencies in 5 manifests (${VULNERABLE} vulnerable) over ${r.advisories.toLocaleString('en')} advisories, request to 201, one client (${r.single.count} scans${cpu}) | | ${ms(r.single.p50)} | ${ms(r.single.p99)} | | | | | p50 ≤ ${SNAPSHOT_P50_LIMIT_MS} ms | ${r.single.p50 <= SNAPSHOT_P50_LIMIT_MS ? 'yes' : '**no**'} |`);
  }
  if (r.stream) {
    const { readOnly, withSnapshots, rate, answers } = r.stream;
    const kept = withSnapshots.rps / readOnly.rps;
    lines.push(`| a repository's first snapshot of 2,000 dependencies, reconciling the ${Math.round(r.stream.declaredPerRepository)} alerts its world declared (p50) | | ${ms(r.stream.firstP50)} | | | | | | | |`);
    lines.push(`| distinct organization pages, read-only | ${Math.round(readOnly.rps)} | ${ms(readOnly.p50)} | ${ms(readOnly.p99)} | | | | | | |`);
    // Issue 35: reads keep their part at any rate of snapshots; what the snapshots' share cannot
    // apply within the queue's delay is refused (503, Retry-After), so the 201 rate is reported, not a target.
    lines.push(`| the same beside snapshots of 2,000 dependencies sent open-loop at ${STREAM_RATE}/s to ${r.stream.repositories} repositories in turn | ${Math.round(withSnapshots.rps)} | ${ms(withSnapshots.p50)} | ${ms(withSnapshots.p99)} | | | ${Math.round(readOnly.rps)} (read-only) | ${(kept * 100).toFixed(1)}% | ≥ ${READS_KEPT_TARGET * 100}% of reads alone | ${kept >= READS_KEPT_TARGET ? 'yes' : '**no**'} |`);
    const pct = (n: number | undefined) => (n === undefined ? '?' : `${(n * 100).toFixed(0)}%`);
    lines.push(`| those snapshots: ${rate.toFixed(1)}/s answered 201 (${answers.success} SUCCESS, ${answers.accepted} ACCEPTED), ${answers.unavailable} refused 503, ${answers.unsent} not sent (${STREAM_IN_FLIGHT} in flight); their work ${pct(r.stream.work.snapshotShare)} of the time, the server's CPU ${pct(r.stream.work.serverBusy)}; request to answer | ${rate.toFixed(1)}/s | ${ms(r.stream.snapshotP50)} | ${ms(r.stream.snapshotP99)} | | | | | | |`);
  }
  if (r.stream) {
    const q = r.stream.queueDelay;
    const seconds = (n: number) => (Number.isFinite(n) ? `${(n / 1000).toFixed(2)} s` : 'never applied');
    lines.push(`| the stream's snapshots answered ACCEPTED (${q.count}): queued to applied, from the database (max ${seconds(q.max)}; the last applied ${q.drainSeconds.toFixed(1)} s after the stream stopped) | | ${seconds(q.p50)} | ${seconds(q.p99)} | | | | | p99 ≤ ${QUEUE_DELAY_P99_LIMIT_MS / 1000} s | ${q.count === 0 ? 'none queued' : q.p99 <= QUEUE_DELAY_P99_LIMIT_MS ? 'yes' : '**no**'} |`);
  }
  if (r.advisoryImport) {
    const a = r.advisoryImport;
    const met = a.seconds <= IMPORT_LIMIT_SECONDS && a.alertsOpened === a.repositories;
    lines.push(`| \`orgsec advisories import\` of one advisory affecting ${a.repositories.toLocaleString('en')} repositories: ${a.alertsOpened.toLocaleString('en')} alerts opened (one affecting none: ${a.unrelatedSeconds.toFixed(2)} s) | ${a.seconds.toFixed(2)} s | | | | | | | ≤ ${IMPORT_LIMIT_SECONDS} s, every alert open | ${met ? 'yes' : '**no**'} |`);
  }
  if (r.error) lines.push(`| ${SNAPSHOT_SCENARIO} [snapshots] | failed | | | | | | | | |`);
  return lines;
}
