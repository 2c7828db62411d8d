import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createServices } from '../composition';
import { openDatabase } from '../database/connection';
import { encodeCursor } from '../database/keyset';
import { migrateLatest } from '../database/migrate';
import { alertListName } from '../modules/dependency-alerts/alerts.store';
import { packageRoot } from '../cli/paths';
import { BENCH_TOKEN, generateWorld } from './generate-world';

// `npm run bench`: the organization alert list, first page and a deep page, against a raw
// node:http server sending the identical bytes (the floor), measured in the same run.
// Each server runs in its own process, autocannon in another, pinned apart where taskset exists.

const run = promisify(execFile);
const ALERTS = Number(process.env.BENCH_ALERTS ?? 100_000);
const DURATION = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DEEP_PAGE = Number(process.env.BENCH_DEEP_PAGE ?? 300);
const PER_PAGE = 30;
// What a dashboard asks of GraphQL: the fields of the REST page, for the same 30 alerts.
const DASHBOARD_QUERY = `{ organization(login: "bench-org-0") { dependencyAlerts(first: ${PER_PAGE}) { totalCount edges { cursor node {
  number state url htmlUrl createdAt updatedAt dismissedAt dismissedReason dismissedComment fixedAt autoDismissedAt
  dismissedBy { login } assignees { login url }
  dependency { package { ecosystem name } manifestPath scope relationship }
  securityAdvisory { svcsaId cveId summary description severity classification cvss { vectorString score } epss { percentage percentile }
    cwes { cweId name } identifiers { type value } references publishedAt updatedAt withdrawnAt
    vulnerabilities { package { ecosystem name } severity vulnerableVersionRange firstPatchedVersion } }
  securityVulnerability { package { ecosystem name } severity vulnerableVersionRange firstPatchedVersion }
  repository { nameWithOwner isPrivate description url owner { ... on Organization { login url } } }
} } } } }`;
const root = packageRoot();
const out = path.join(root, '.bench');
const hasTaskset = fs.existsSync('/usr/bin/taskset') && os.cpus().length > 1;
const pinned = (core: number, command: string, args: string[]): [string, string[]] =>
  hasTaskset ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];

interface Load { rps: number; p50: number; p99: number; errors: number; non2xx: number }

async function autocannon(url: string, headers: Record<string, string>, body?: string): Promise<Load> {
  const headerArgs = Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const bodyArgs = body === undefined ? [] : ['-m', 'POST', '-b', body];
  const [command, args] = pinned(1, process.execPath, [
    path.join(root, 'node_modules', 'autocannon', 'autocannon.js'), '-j', '-c', String(CONNECTIONS), '-d', String(DURATION), ...headerArgs, ...bodyArgs, url,
  ]);
  const { stdout } = await run(command, args, { maxBuffer: 64 * 1024 * 1024 });
  const result = JSON.parse(stdout);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors, non2xx: result.non2xx };
}

async function waitFor(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer`);
}

function startFloor(file: string, port: number): Promise<ChildProcess> {
  const [command, args] = pinned(0, process.execPath, [path.join(__dirname, 'floor-server.js'), file, String(port)]);
  const child = command === process.execPath ? fork(args[0]!, args.slice(1)) : spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve) => child.once('message', () => resolve(child)));
}

async function main(): Promise<void> {
  fs.mkdirSync(out, { recursive: true });
  const dbFile = path.join(out, 'bench.sqlite');
  // BENCH_REUSE=1 measures again over the database the last run loaded.
  const reuse = process.env.BENCH_REUSE === '1' && fs.existsSync(dbFile);
  if (!reuse) for (const suffix of ['', '-wal', '-shm']) fs.rmSync(dbFile + suffix, { force: true });
  const db = openDatabase(dbFile);
  await migrateLatest(db);
  let loadSeconds = Number.NaN;
  if (!reuse) {
    const world = generateWorld({ organizations: 10, repositoriesPerOrganization: 100, alerts: ALERTS, advisories: 200 });
    const started = Date.now();
    await createServices(db).world.load(world, { onProgress: (m) => process.stderr.write(`\r  loading ${m}   `) });
    loadSeconds = (Date.now() - started) / 1000;
    process.stderr.write(`\n  loaded ${ALERTS} alerts in ${loadSeconds.toFixed(1)} s\n`);
  }
  // A cursor deep in the first organization's list: the row before page DEEP_PAGE.
  const org = await db.knex('accounts').where('login', 'bench-org-0').first('id');
  const deepRow = await db.knex('dependency_alerts').where('owner_id', org.id).orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }])
    .offset((DEEP_PAGE - 1) * PER_PAGE - 1).first('created_at', 'id');
  await db.knex.destroy();
  const deepCursor = encodeCursor(alertListName('created', 'desc'), [deepRow.created_at, Number(deepRow.id)]);

  const port = 4700;
  const [command, args] = pinned(0, process.execPath, [path.join(root, 'dist', 'src', 'cli', 'index.js'), 'serve', '--port', String(port), '--database', dbFile]);
  const server = spawn(command, args, { env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMITS: 'off' }, stdio: 'ignore' });
  const results: Array<{ scenario: string; orgsec: Load; floor: Load; ratio: number; bytes: number }> = [];
  try {
    await waitFor(`http://127.0.0.1:${port}/healthz`);
    const headers = { authorization: `Bearer ${BENCH_TOKEN}` };
    const scenarios: Array<{ scenario: string; path: string; body?: string; count: (answer: any) => number }> = [
      { scenario: 'organization alerts, first page', path: `/orgs/bench-org-0/dependency-bot/alerts?per_page=${PER_PAGE}`, count: (a) => a.length },
      { scenario: `organization alerts, page ${DEEP_PAGE}`, path: `/orgs/bench-org-0/dependency-bot/alerts?per_page=${PER_PAGE}&after=${deepCursor}`, count: (a) => a.length },
      { scenario: 'GraphQL dashboard query, same 30 alerts', path: '/graphql', body: JSON.stringify({ query: DASHBOARD_QUERY }), count: (a) => a.data.organization.dependencyAlerts.edges.length },
    ];
    for (const [i, s] of scenarios.entries()) {
      const url = `http://127.0.0.1:${port}${s.path}`;
      const requestHeaders = s.body === undefined ? headers : { ...headers, 'content-type': 'application/json' };
      const response = await fetch(url, { method: s.body === undefined ? 'GET' : 'POST', headers: requestHeaders, ...(s.body === undefined ? {} : { body: s.body }) });
      const bytes = Buffer.from(await response.arrayBuffer());
      if (response.status !== 200 || s.count(JSON.parse(bytes.toString())) !== PER_PAGE) throw new Error(`${s.scenario}: unexpected answer ${response.status}`);
      const file = path.join(out, `response-${i}.json`);
      fs.writeFileSync(file, bytes);
      const floor = await startFloor(file, port + 1 + i);
      try {
        const orgsec = await autocannon(url, requestHeaders, s.body);
        const floorLoad = await autocannon(`http://127.0.0.1:${port + 1 + i}/`, {});
        results.push({ scenario: s.scenario, orgsec, floor: floorLoad, ratio: orgsec.rps / floorLoad.rps, bytes: bytes.length });
        process.stderr.write(`  ${s.scenario}: ${orgsec.rps.toFixed(0)} req/s vs floor ${floorLoad.rps.toFixed(0)}\n`);
      } finally {
        floor.kill();
      }
    }
  } finally {
    server.kill();
  }
  const postgres = process.env.BENCH_DATABASE_URL ? await benchPostgres(process.env.BENCH_DATABASE_URL) : [];
  results.push(...postgres);
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  const report = { date: new Date().toISOString(), machine, alerts: ALERTS, loadSeconds, connections: CONNECTIONS, durationSeconds: DURATION, pinned: hasTaskset, results };
  fs.writeFileSync(path.join(out, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  const table = [
    `Benchmark of ${report.date.slice(0, 10)} on ${machine}; SQLite rows over ${ALERTS.toLocaleString('en')} alerts${reuse ? '' : ` loaded in ${loadSeconds.toFixed(1)} s`}; ${CONNECTIONS} connections, ${DURATION} s each${hasTaskset ? ', server and load generator pinned to separate cores' : ''}.`,
    '',
    '| scenario | orgsec req/s | p50 ms | p99 ms | floor req/s | ratio to floor |',
    '|---|---:|---:|---:|---:|---:|',
    ...results.map((r) => `| ${r.scenario} (${(r.bytes / 1024).toFixed(0)} KB) | ${r.orgsec.rps.toFixed(0)} | ${r.orgsec.p50} | ${r.orgsec.p99} | ${r.floor.rps.toFixed(0)} | ${(r.ratio * 100).toFixed(1)}% |`),
  ].join('\n');
  fs.writeFileSync(path.join(out, 'results.md'), `${table}\n`);
  process.stdout.write(`${table}\n`);
}

const PG_ALERTS = Number(process.env.BENCH_PG_ALERTS ?? 20_000);

function startOrgsec(databaseUrl: string, port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, [path.join(root, 'dist', 'src', 'cli', 'index.js'), 'serve', '--port', String(port), '--database', databaseUrl], {
    env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', DATABASE_URL: '' }, stdio: 'ignore',
  });
  return waitFor(`http://127.0.0.1:${port}/healthz`).then(() => server);
}

/**
 * The organization list on PostgreSQL through one instance, then through two instances
 * over the same database (each driven by its own autocannon at the same time, figures
 * summed). Not pinned: the database server needs a core too.
 */
async function benchPostgres(baseUrl: string): Promise<Array<{ scenario: string; orgsec: Load; floor: Load; ratio: number; bytes: number }>> {
  const schema = 'orgsec_bench';
  const admin = openDatabase(baseUrl);
  await admin.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
  await admin.knex.raw('CREATE SCHEMA ??', [schema]);
  await admin.knex.destroy();
  const url = `${baseUrl}${baseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const db = openDatabase(url);
  await migrateLatest(db);
  const started = Date.now();
  await createServices(db).world.load(generateWorld({ organizations: 10, repositoriesPerOrganization: 100, alerts: PG_ALERTS, advisories: 200 }));
  process.stderr.write(`  PostgreSQL: loaded ${PG_ALERTS} alerts in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  await db.knex.destroy();
  const headers = { authorization: `Bearer ${BENCH_TOKEN}` };
  const page = `/orgs/bench-org-0/dependency-bot/alerts?per_page=${PER_PAGE}`;
  const first = await startOrgsec(url, 4800);
  const second = await startOrgsec(url, 4801);
  try {
    const bytes = Buffer.from(await (await fetch(`http://127.0.0.1:4800${page}`, { headers })).arrayBuffer());
    const file = path.join(out, 'response-pg.json');
    fs.writeFileSync(file, bytes);
    const floorServer = await startFloor(file, 4802);
    try {
      const floor = await autocannon('http://127.0.0.1:4802/', {});
      const one = await autocannon(`http://127.0.0.1:4800${page}`, headers);
      const [x, y] = await Promise.all([autocannon(`http://127.0.0.1:4800${page}`, headers), autocannon(`http://127.0.0.1:4801${page}`, headers)]);
      const two: Load = { rps: x.rps + y.rps, p50: Math.max(x.p50, y.p50), p99: Math.max(x.p99, y.p99), errors: x.errors + y.errors, non2xx: x.non2xx + y.non2xx };
      return [
        { scenario: `PostgreSQL (${PG_ALERTS.toLocaleString('en')} alerts), 1 instance, first page`, orgsec: one, floor, ratio: one.rps / floor.rps, bytes: bytes.length },
        { scenario: `PostgreSQL (${PG_ALERTS.toLocaleString('en')} alerts), 2 instances, first page`, orgsec: two, floor, ratio: two.rps / floor.rps, bytes: bytes.length },
      ];
    } finally {
      floorServer.kill();
    }
  } finally {
    first.kill();
    second.kill();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
