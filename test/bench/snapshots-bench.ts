import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { openDatabase } from '../../src/database/connection';
import { insertBenchAdvisories } from './advisories-bench';
import { timedImport } from './advisory-import-bench';
import { drive } from './drive';
import { BENCH_TOKEN, BIG_ORG } from './generate-world';
import type { LoadResult } from './load-plan';
import { median } from './measure';
import { startOrgsec } from './orgsec-server';
import { readWorldFacts } from './world-facts';

// Issue 21's benchmark: computed alerts over the benchmark world (100,000 alerts in 1,000
// repositories) with 20,000 advisories added, on SQLite, served by `orgsec serve`:
// 1. one snapshot of 2,000 resolved dependencies in 5 manifests, request to 201, one client,
//    each a new scan of one repository with a few dependencies moved in and out of vulnerable
//    versions (alerts open, get fixed and come back): p50 (target ≤ 50 ms);
// 2. snapshots at 20 a second (one manifest of 400 packages each, a typical service's lock
//    file) to 40 repositories in turn, each past its first snapshot (timed apart: it reconciles
//    the alerts the world declared), while distinct organization alert pages are read: the rate
//    sustained, and the read throughput beside the read-only figure;
// 3. one advisory that affects all 1,000 repositories (each holds the package in a snapshot),
//    imported with `orgsec advisories import` while the server runs, until its 1,000 alerts are
//    open (target ≤ 2 s), beside the import of an advisory that affects none.

export const SNAPSHOT_SCENARIO = 'dependency snapshots and computed alerts';
const SNAPSHOT_P50_LIMIT_MS = 50;
const STREAM_RATE = 20;
/** The stream's snapshots: one manifest of 400 packages, a typical service's lock file. */
const STREAM_MANIFESTS = 1;
/** The repositories the stream submits for, in turn. */
const STREAM_REPOSITORIES = 40;
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
/** Dependencies at a vulnerable version in every snapshot; TOGGLED of them move each scan. */
const VULNERABLE = 40;
const TOGGLED = 5;

interface VulnerablePick {
  ecosystem: string;
  name: string;
  version: string;
}

export interface SnapshotBenchResult {
  advisories: number;
  single?: { p50: number; p99: number; count: number; alertsOpen: number };
  stream?: {
    rate: number; snapshotP50: number; snapshotP99: number; readOnly: LoadResult; withSnapshots: LoadResult;
    /** A repository's first snapshot, which reconciles the alerts its world declared. */
    firstP50: number; declaredPerRepository: number;
  };
  advisoryImport?: { seconds: number; unrelatedSeconds: number; alertsOpened: number; repositories: number };
  error?: string;
}

const packageName = (ecosystem: string, n: number) => (ecosystem === 'maven' ? `org.p${n}:p${n}` : ecosystem === 'go' ? `example.com/p${n}` : `p${n}`);

/**
 * The snapshot body of scan `seq` of a repository: 400 packages in each of its first `manifests`
 * manifests (all five: 2,000), VULNERABLE of them vulnerable but for TOGGLED that move each scan.
 */
function snapshotBody(seq: number, picks: readonly VulnerablePick[], manifests: number = MANIFESTS.length): string {
  const vulnerable = new Map<string, string>();
  picks.forEach((pick, i) => {
    const isFixedThisScan = i < TOGGLED * 2 && (i + seq) % 2 === 0;
    if (!isFixedThisScan) vulnerable.set(`${pick.ecosystem}/${pick.name}`, pick.version);
  });
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

/** The stream keeps at most this many snapshots in flight: beyond, the server is not keeping up. */
const STREAM_IN_FLIGHT = 8;
const agent = new http.Agent({ keepAlive: true, maxSockets: STREAM_IN_FLIGHT });

/** One POST of a snapshot; its time in ms. */
function postSnapshot(base: string, repository: string, body: string): Promise<number> {
  const started = process.hrtime.bigint();
  return new Promise((resolve, reject) => {
    const request = http.request(`${base}/repos/${repository}/dependency-graph/snapshots`, {
      method: 'POST', agent, headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 201) reject(new Error(`snapshot for ${repository}: ${response.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`));
        else resolve(Number(process.hrtime.bigint() - started) / 1e6);
      });
    });
    request.on('error', reject);
    request.end(body);
  });
}

const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? Number.NaN;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
}

export async function benchSnapshots(s: SnapshotBenchSettings): Promise<SnapshotBenchResult> {
  const file = path.join(s.workDir, 'snapshots.sqlite');
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  fs.copyFileSync(s.worldFile, file);
  const db = openDatabase(file);
  let picks: VulnerablePick[];
  let repositories: string[];
  let facts: Awaited<ReturnType<typeof readWorldFacts>>;
  const result: SnapshotBenchResult = { advisories: 0 };
  try {
    result.advisories = await insertBenchAdvisories(db);
    const rows: Array<{ ecosystem: string; package_name: string; ranges: string }> = await db.knex('advisory_vulnerabilities')
      .whereIn('ecosystem', MANIFESTS.map((m) => m.ecosystem)).whereNotNull('ranges').orderBy('id').limit(VULNERABLE * 4)
      .select('ecosystem', 'package_name', 'ranges');
    const seen = new Set<string>();
    picks = rows.flatMap((row) => {
      const introduced = (JSON.parse(row.ranges) as Array<{ events: Array<{ introduced?: string }> }>)[0]?.events[0]?.introduced;
      const key = `${row.ecosystem}/${row.package_name}`;
      if (!introduced || introduced === '0' || seen.has(key)) return [];
      seen.add(key);
      return [{ ecosystem: row.ecosystem, name: row.package_name, version: introduced }];
    }).slice(0, VULNERABLE);
    repositories = (await db.knex('repositories as r').join('accounts as o', 'o.id', 'r.owner_id').orderBy('r.id').select('o.login', 'r.name'))
      .map((r: { login: string; name: string }) => `${r.login}/${r.name}`);
    facts = await readWorldFacts(db, BIG_ORG, 1);
  } finally {
    await db.close();
  }

  const server = await startOrgsec(file, s.port, { pinned: true });
  let seq = 1;
  try {
    // 1. One repository's scans, one after another.
    const single = `${BIG_ORG}/service-1`;
    for (let i = 0; i < 10; i++) await postSnapshot(server.url, single, snapshotBody(seq++, picks));
    const times: number[] = [];
    for (let i = 0; i < s.snapshots; i++) times.push(await postSnapshot(server.url, single, snapshotBody(seq++, picks)));
    result.single = { p50: median(times), p99: percentile(times, 0.99), count: times.length, alertsOpen: 0 };
    process.stderr.write(`  snapshot of 2,000 dependencies: p50 ${result.single.p50.toFixed(1)} ms, p99 ${result.single.p99.toFixed(1)} ms\n`);

    // 2. Distinct pages read-only, then with STREAM_RATE snapshots a second to other repositories.
    const plan = (firstIndex: number) => ({ kind: 'distinct-pages' as const, org: BIG_ORG, cursors: facts.middleCursors, firstIndex, headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
    const load = { url: server.url, connections: s.connections, seconds: s.seconds * 2, warmupSeconds: s.warmupSeconds };
    const readOnly = await drive({ ...load, plan: plan(7_000_000) }, s.workDir);
    // The stream's repositories already submit (a CI job's second push on): each gets its first
    // snapshot here, which also reconciles the alerts the world declared for it, timed apart.
    const others = repositories.filter((r) => r !== single).slice(0, STREAM_REPOSITORIES);
    const firstTimes: number[] = [];
    for (const repository of others) firstTimes.push(await postSnapshot(server.url, repository, snapshotBody(seq++, picks, STREAM_MANIFESTS)));
    const declared = await countDeclaredAlerts(file, others);
    const streamTimes: number[] = [];
    let streaming = true;
    // Sent on a fixed schedule, not one after another, up to STREAM_IN_FLIGHT at once.
    const stream = (async () => {
      const started = Date.now();
      const inFlight = new Set<Promise<void>>();
      let sent = 0;
      while (streaming) {
        const due = started + (sent * 1000) / STREAM_RATE;
        if (Date.now() < due) await sleep(due - Date.now());
        if (inFlight.size >= STREAM_IN_FLIGHT) await Promise.race(inFlight);
        const post: Promise<void> = postSnapshot(server.url, others[sent % others.length]!, snapshotBody(seq++, picks, STREAM_MANIFESTS))
          .then((ms) => { streamTimes.push(ms); }).finally(() => inFlight.delete(post));
        inFlight.add(post);
        sent++;
      }
      await Promise.all(inFlight);
      return streamTimes.length / ((Date.now() - started) / 1000);
    })();
    const withSnapshots = await drive({ ...load, plan: plan(8_000_000) }, s.workDir);
    streaming = false;
    const rate = await stream;
    result.stream = { rate, snapshotP50: median(streamTimes), snapshotP99: percentile(streamTimes, 0.99), readOnly, withSnapshots, firstP50: median(firstTimes), declaredPerRepository: declared / others.length };
    process.stderr.write(`  distinct pages ${readOnly.rps.toFixed(0)} req/s read-only, ${withSnapshots.rps.toFixed(0)} req/s beside ${rate.toFixed(1)} snapshots/s\n`);

    // 3. Every repository holds the shared package; one advisory for it is imported.
    for (const repository of repositories) await postSnapshot(server.url, repository, sharedSnapshotBody(seq++));
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
    lines.push(`| snapshot of 2,000 dependencies in 5 manifests over ${r.advisories.toLocaleString('en')} advisories, request to 201 (${r.single.count} scans) | | ${ms(r.single.p50)} | ${ms(r.single.p99)} | | | | | p50 ≤ ${SNAPSHOT_P50_LIMIT_MS} ms | ${r.single.p50 <= SNAPSHOT_P50_LIMIT_MS ? 'yes' : '**no**'} |`);
  }
  if (r.stream) {
    const { readOnly, withSnapshots, rate } = r.stream;
    lines.push(`| a repository's first snapshot of 400 dependencies, reconciling the ${Math.round(r.stream.declaredPerRepository)} alerts its world declared (p50) | | ${ms(r.stream.firstP50)} | | | | | | | |`);
    lines.push(`| distinct organization pages, read-only | ${Math.round(readOnly.rps)} | ${ms(readOnly.p50)} | ${ms(readOnly.p99)} | | | | | | |`);
    lines.push(`| the same beside ${rate.toFixed(1)} snapshots/s of 400 dependencies, ${STREAM_REPOSITORIES} repositories in turn (snapshot p50 ${ms(r.stream.snapshotP50)} ms, p99 ${ms(r.stream.snapshotP99)} ms) | ${Math.round(withSnapshots.rps)} | ${ms(withSnapshots.p50)} | ${ms(withSnapshots.p99)} | | | ${Math.round(readOnly.rps)} (read-only) | ${((withSnapshots.rps / readOnly.rps) * 100).toFixed(1)}% | ${STREAM_RATE} snapshots/s sustained | ${rate >= STREAM_RATE * 0.95 ? 'yes' : '**no**'} |`);
  }
  if (r.advisoryImport) {
    const a = r.advisoryImport;
    const met = a.seconds <= IMPORT_LIMIT_SECONDS && a.alertsOpened === a.repositories;
    lines.push(`| \`orgsec advisories import\` of one advisory affecting ${a.repositories.toLocaleString('en')} repositories: ${a.alertsOpened.toLocaleString('en')} alerts opened (one affecting none: ${a.unrelatedSeconds.toFixed(2)} s) | ${a.seconds.toFixed(2)} s | | | | | | | ≤ ${IMPORT_LIMIT_SECONDS} s, every alert open | ${met ? 'yes' : '**no**'} |`);
  }
  if (r.error) lines.push(`| ${SNAPSHOT_SCENARIO} [snapshots] | failed | | | | | | | | |`);
  return lines;
}
