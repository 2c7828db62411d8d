import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageRoot } from '../../src/cli/paths';
import { ADVISORY_SCENARIO, benchAdvisories } from './advisories-bench';
import { openDatabase } from '../../src/database/connection';
import { drive } from './drive';
import { startExpressFloor, startTinyFloor, type RunningServer } from './floors';
import { BIG_ORG, BIG_ORG_SHARE } from './generate-world';
import { measure, type MeasureContext, type Row, type Scenario } from './measure';
import { startOrgsec } from './orgsec-server';
import { benchPostgres, preparePostgres } from './postgres';
import { readCaches } from './metrics-probe';
import { hasTaskset, readStatusBytes } from './processes';
import { judgeAdvisoryImport, judgeWorldLoad, markdown, servingRss, type FloorFigure, type Report } from './report';
import { ADVISORY_IMPORT_SCENARIO, benchAdvisoryImport } from './advisory-import-bench';
import { builtPageScenarios, currentEtag, distinctPagesScenario, distinctTailScenario, largeWorldScenarios, sqliteScenarios } from './scenarios';
import { DESIGN_BOUND_SCENARIO, benchDesignBounds, benchTailBounds } from './design-bound';
import { SNAPSHOT_SCENARIO, benchSnapshots } from './snapshots-bench';
import { SBOM_UPLOAD_SCENARIO, benchSbomUploads } from './sbom-upload-bench';
import { WEBHOOK_SCENARIO, benchWebhooks } from './webhooks-bench';
import { AUDIT_EXPORT_SCENARIO, benchAuditExport } from './audit-log-bench';
import { SUBSCRIPTION_SCENARIO, benchSubscriptions } from './subscriptions-bench';
import { readWorldFacts } from './world-facts';
import { benchWorldLoads, type AfterLoad } from './world-load-bench';
import { prepareSqliteWorld, worldSize } from './world-setup';

// `npm run bench`: the scenarios of issue 10 on SQLite (and PostgreSQL when configured), each
// against its floor measured in the same run, the world loader at a million alerts, and the
// results in .bench/results.json and .bench/results.md.
//
// Settings (environment): BENCH_ALERTS (100,000), BENCH_SECONDS (4 per round), BENCH_ROUNDS (3), BENCH_WARMUP_SECONDS (1),
// BENCH_CONNECTIONS (10), BENCH_TAIL_CONNECTIONS (50), BENCH_DEEP_PAGE (1,000), BENCH_REUSE=1 (keep the
// last run's SQLite world and PostgreSQL schema), BENCH_LOAD_ALERTS (1,000,000; 0 skips the load step),
// BENCH_LOAD_TIMEOUT (120 s; PostgreSQL's load is given twice that), BENCH_SERVE_LOADED (1: each loaded world served, "large world served"),
// BENCH_DATABASE_URL (adds PostgreSQL beside SQLite over an equal world, its world load too), BENCH_PG_ALERTS (20,000),
// BENCH_SCENARIOS (a regular expression: only the SQLite scenarios whose name it matches run; "advisory import"
// selects issue 20's import of BENCH_ADVISORIES (20,000) generated OSV files, 0 skips it; "dependency snapshots"
// selects issue 21's snapshots and computed alerts, BENCH_SNAPSHOTS (60) timed scans; "CycloneDX upload" issue 39's upload
// of a 2,000-component BOM against the equivalent snapshot, BENCH_SNAPSHOTS scans of each).
// test/bench/README.md describes the method and the scenarios.

const settings = {
  alerts: Number(process.env.BENCH_ALERTS ?? 100_000),
  seconds: Number(process.env.BENCH_SECONDS ?? 4),
  rounds: Number(process.env.BENCH_ROUNDS ?? 3),
  warmupSeconds: Number(process.env.BENCH_WARMUP_SECONDS ?? 1),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  tailConnections: Number(process.env.BENCH_TAIL_CONNECTIONS ?? 50),
  deepPage: Number(process.env.BENCH_DEEP_PAGE ?? 1000),
  reuse: process.env.BENCH_REUSE === '1',
  /** 0 skips the world-load step. */
  loadAlerts: Number(process.env.BENCH_LOAD_ALERTS ?? 1_000_000),
  loadTimeoutSeconds: Number(process.env.BENCH_LOAD_TIMEOUT ?? 120),
  postgresAlerts: Number(process.env.BENCH_PG_ALERTS ?? 20_000),
  pinned: hasTaskset,
  advisories: Number(process.env.BENCH_ADVISORIES ?? 20_000),
  snapshots: Number(process.env.BENCH_SNAPSHOTS ?? 60),
  /** The loaded world served before it is removed (BENCH_SERVE_LOADED=0 skips it). */
  serveLoaded: process.env.BENCH_SERVE_LOADED !== '0',
  /** Unset: every scenario. */
  scenarios: process.env.BENCH_SCENARIOS ?? '',
};
const scenarioPattern = new RegExp(settings.scenarios);
const isSelected = (scenario: Scenario) => scenarioPattern.test(scenario.name);
const ORGSEC_PORT = 4700;
const FLOOR_PORT = 4701;
const BOUND_PORT = 4702;

async function measureFloor(name: string, start: () => Promise<RunningServer>, workDir: string): Promise<FloorFigure> {
  const server = await start();
  try {
    const load = await drive({ url: server.url, connections: settings.connections, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds, plan: { kind: 'same', method: 'GET', path: '/', headers: {}, expectStatus: 200 } }, workDir);
    process.stderr.write(`  floor ${name}: ${load.rps.toFixed(0)} req/s\n`);
    return { name, rps: load.rps, p50: load.p50, p99: load.p99 };
  } finally {
    await server.stop();
  }
}

async function benchSqlite(dbFile: string, workDir: string): Promise<{ rows: Row[]; memory: NonNullable<Report['memory']> }> {
  const db = openDatabase(dbFile);
  const facts = await readWorldFacts(db, BIG_ORG, settings.deepPage).finally(() => db.close());
  const ctx: MeasureContext = { workDir, seconds: settings.seconds, rounds: settings.rounds, warmupSeconds: settings.warmupSeconds, floorPort: FLOOR_PORT, database: 'SQLite' };
  const rows: Row[] = [];
  const rpsOf = (name: string) => rows.find((r) => r.scenario === name)?.load?.rps;
  const server = await startOrgsec(dbFile, ORGSEC_PORT, { pinned: true });
  const memory: NonNullable<Report['memory']> = { idleMb: undefined, caches: [] };
  try {
    const idle = readStatusBytes(server.pid, 'VmRSS');
    memory.idleMb = idle === undefined ? undefined : idle / 2 ** 20;
    const etag = await currentEtag(server.url);
    const scenarios = sqliteScenarios(facts, { connections: settings.connections, tailConnections: settings.tailConnections, etag, rpsOf });
    for (const scenario of scenarios.filter(isSelected)) rows.push(await measure(server, scenario, ctx));
    if (scenarioPattern.test(DESIGN_BOUND_SCENARIO)) {
      rows.push(...(await benchDesignBounds(server.url, BIG_ORG, distinctPagesScenario(facts, { connections: settings.connections }), ctx, BOUND_PORT)));
      rows.push(...(await benchTailBounds(server.url, distinctTailScenario(facts, { tailConnections: settings.tailConnections }), ctx, BOUND_PORT)));
    }
    memory.caches = await readCaches(server.url);
  } finally {
    await server.stop();
  }
  const builtPages = builtPageScenarios(facts, { connections: settings.connections, rpsOf }).filter(isSelected);
  if (builtPages.length === 0) return { rows, memory };
  const uncached = await startOrgsec(dbFile, ORGSEC_PORT, { pinned: true, env: { RESPONSE_CACHE_MB: '0' } });
  try {
    for (const scenario of builtPages) rows.push(await measure(uncached, scenario, ctx));
  } finally {
    await uncached.stop();
  }
  return { rows, memory };
}

/** Selects the large world's scenarios (BENCH_SCENARIOS), run over the world the load step loaded. */
const LARGE_WORLD = 'large world served';

/**
 * Serves each world the load step loaded (SQLite pinned as above, PostgreSQL unpinned): distinct
 * organization and repository pages and the PATCH mix, each judged by its p50 against the same
 * scenario's on the smaller world of that database measured before (`rows`); rows appended.
 */
function largeWorldServed(rows: Row[], workDir: string): AfterLoad {
  return async ({ database, url }) => {
    const smallerDatabase = database === 'SQLite' ? 'SQLite' : `PostgreSQL (${settings.postgresAlerts.toLocaleString('en')} alerts)`;
    const smaller = database === 'SQLite' ? settings.alerts : settings.postgresAlerts;
    const p50Of = (scenario: string) => rows.find((r) => r.database === smallerDatabase && r.scenario === scenario)?.load?.p50;
    const db = openDatabase(url);
    const facts = await readWorldFacts(db, BIG_ORG, 1).finally(() => db.close());
    const label = `${database} (${settings.loadAlerts.toLocaleString('en')} alerts)`;
    const server = await startOrgsec(url, ORGSEC_PORT, { pinned: database === 'SQLite' });
    try {
      const ctx: MeasureContext = { workDir, seconds: settings.seconds, rounds: settings.rounds, warmupSeconds: settings.warmupSeconds, floorPort: FLOOR_PORT, database: label };
      for (const scenario of largeWorldScenarios(facts, { connections: settings.connections }, p50Of, `${smaller.toLocaleString('en')} alerts`)) {
        rows.push(await measure(server, scenario, ctx));
      }
    } finally {
      await server.stop();
    }
  };
}

function machine(): string {
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.platform()} ${os.release()}`;
}

function captionOf(date: string, loadSeconds: number | undefined): string {
  const bigOrg = Math.ceil(settings.alerts / BIG_ORG_SHARE).toLocaleString('en');
  return [
    `Benchmark of ${date.slice(0, 16).replace('T', ' ')} UTC on ${machine()}, Node ${process.version}.`,
    `SQLite over ${settings.alerts.toLocaleString('en')} alerts in 1,000 repositories of 10 organizations beside ${worldSize(settings.alerts).advisories.toLocaleString('en')} advisories of the public database's shape${loadSeconds === undefined ? ' (world reused)' : `, loaded in ${loadSeconds.toFixed(1)} s`};`,
    `${BIG_ORG} holds a third of them (${bigOrg}), so page ${settings.deepPage.toLocaleString('en')} of 30 exists; the others share the rest.`,
    `${settings.connections} connections (tail row ${settings.tailConnections}); a scenario with a floor runs ${settings.rounds} rounds of ${settings.seconds} s, floor and orgsec in turn, after ${settings.warmupSeconds} s of warm-up each, and reports the median (its ratio the median of the rounds' ratios); others run once for ${settings.rounds * settings.seconds} s;`,
    `${settings.pinned ? 'server on core 0 and autocannon on core 1 (taskset)' : 'not pinned (no taskset)'}; PostgreSQL unpinned. Figures vary by ±30% between runs on a shared machine; the rounds pair each figure with a floor measured beside it.`,
  ].join(' ');
}

async function main(): Promise<void> {
  const root = packageRoot();
  const workDir = path.join(root, '.bench');
  fs.mkdirSync(workDir, { recursive: true });
  const date = new Date().toISOString();
  const dbFile = path.join(workDir, 'bench.sqlite');
  const world = await prepareSqliteWorld(dbFile, settings.alerts, settings.reuse);

  const floors = [
    await measureFloor('raw node:http, tiny JSON', () => startTinyFloor(FLOOR_PORT), workDir),
    await measureFloor('one-route Express, tiny JSON', () => startExpressFloor(FLOOR_PORT), workDir),
  ];
  const { rows, memory } = await benchSqlite(dbFile, workDir);
  if (process.env.BENCH_DATABASE_URL) {
    const ctx = { workDir, seconds: settings.seconds, rounds: settings.rounds, warmupSeconds: settings.warmupSeconds, floorPort: FLOOR_PORT };
    try {
      rows.push(...(await benchPostgres(process.env.BENCH_DATABASE_URL, settings.postgresAlerts, ctx, { connections: settings.connections, reuse: settings.reuse })));
    } catch (error) {
      rows.push({ scenario: 'PostgreSQL scenarios', database: 'PostgreSQL', connections: settings.connections, notes: [], error: error instanceof Error ? error.message : String(error) });
    }
  }
  // Last: a load of a million alerts leaves the machine's caches cold for anything after it.
  const serveLoaded = settings.serveLoaded && scenarioPattern.test(LARGE_WORLD) ? largeWorldServed(rows, workDir) : undefined;
  const worldLoads = settings.loadAlerts > 0
    ? (await benchWorldLoads(settings.loadAlerts, workDir, settings.loadTimeoutSeconds, process.env.BENCH_DATABASE_URL, serveLoaded)
      .catch((error: unknown) => [{ database: 'SQLite' as const, alerts: settings.loadAlerts, fileMb: 0, peakRssMb: 0, error: String(error) }])).map(judgeWorldLoad)
    : undefined;

  const advisoryImport = settings.advisories > 0 && scenarioPattern.test(ADVISORY_IMPORT_SCENARIO)
    ? judgeAdvisoryImport(await benchAdvisoryImport(settings.advisories, workDir, settings.loadTimeoutSeconds))
    : undefined;
  // Issue 20: the global advisory list's affects look-up, over the database the import built (else one of its own).
  if (scenarioPattern.test(ADVISORY_SCENARIO)) {
    const imported = advisoryImport && !advisoryImport.error ? path.join(workDir, 'advisories.sqlite') : undefined;
    rows.push(await benchAdvisories({ workDir, seconds: settings.seconds, rounds: settings.rounds, warmupSeconds: settings.warmupSeconds, floorPort: FLOOR_PORT }, ORGSEC_PORT, imported));
  }

  // Issue 21: snapshots and computed alerts over a copy of the world with 20,000 advisories added.
  const snapshots = scenarioPattern.test(SNAPSHOT_SCENARIO)
    ? await benchSnapshots({ workDir, worldFile: dbFile, port: ORGSEC_PORT, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds, connections: settings.connections, snapshots: settings.snapshots, rounds: settings.rounds })
    : undefined;

  // Issue 39: a CycloneDX upload of 2,000 components against the snapshot of the same packages and graph, in turn.
  const sbomUploads = scenarioPattern.test(SBOM_UPLOAD_SCENARIO)
    ? await benchSbomUploads({ workDir, worldFile: dbFile, port: ORGSEC_PORT, scans: settings.snapshots })
    : undefined;

  // Issue 22: webhook delivery of 1,000 alert changes to 3 hooks, beside reads.
  const webhooks = scenarioPattern.test(WEBHOOK_SCENARIO)
    ? await benchWebhooks({ workDir, worldFile: dbFile, port: ORGSEC_PORT, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds, connections: settings.connections })
    : undefined;

  // Issue 37: the audit log's NDJSON export of a million records, in bounded memory.
  const auditExport = scenarioPattern.test(AUDIT_EXPORT_SCENARIO) ? await benchAuditExport({ workDir, worldFile: dbFile, port: ORGSEC_PORT }) : undefined;

  // Issue 38: live alert events to 100 subscribers beside the PATCH mix; on PostgreSQL across two instances, LISTEN/NOTIFY and the poll alone.
  const subscriptions = scenarioPattern.test(SUBSCRIPTION_SCENARIO)
    ? await benchSubscriptions({
      workDir, worldFile: dbFile, port: ORGSEC_PORT, seconds: settings.seconds, warmupSeconds: settings.warmupSeconds, connections: settings.connections,
      postgresUrl: process.env.BENCH_DATABASE_URL ? await preparePostgres(process.env.BENCH_DATABASE_URL, settings.postgresAlerts, true) : undefined,
    })
    : undefined;

  // Every SQLite instance at the default settings, the large world's too; the design bounds are not orgsec.
  const serving = servingRss(rows.filter((r) => r.database.startsWith('SQLite') && !r.scenario.startsWith(DESIGN_BOUND_SCENARIO)));
  const report: Report = {
    date, machine: machine(), node: process.version, settings: { ...settings, worldLoadSeconds: world.loadSeconds ?? null },
    caption: captionOf(date, world.loadSeconds), floors, rows, servingRss: serving, memory, ...(worldLoads ? { worldLoads } : {}),
    ...(advisoryImport ? { advisoryImport } : {}), ...(snapshots ? { snapshots } : {}), ...(sbomUploads ? { sbomUploads } : {}), ...(webhooks ? { webhooks } : {}), ...(auditExport ? { auditExport } : {}),
    ...(subscriptions ? { subscriptions } : {}),
  };
  fs.writeFileSync(path.join(workDir, 'results.json'), `${JSON.stringify(report, null, 2)}\n`);
  const table = markdown(report);
  fs.writeFileSync(path.join(workDir, 'results.md'), table);
  process.stdout.write(`\n${table}`);
  // A missed target is a result; a scenario that could not run is a failed bench.
  const failed = [...rows.filter((r) => r.error !== undefined).map((r) => r.scenario), ...(advisoryImport?.error ? [ADVISORY_IMPORT_SCENARIO] : []), ...(snapshots?.error ? [SNAPSHOT_SCENARIO] : []), ...(sbomUploads?.error ? [SBOM_UPLOAD_SCENARIO] : []), ...(webhooks?.error ? [WEBHOOK_SCENARIO] : []), ...(auditExport && 'error' in auditExport ? [AUDIT_EXPORT_SCENARIO] : []), ...(subscriptions ?? []).filter((r) => r.error).map((r) => `${SUBSCRIPTION_SCENARIO} (${r.label})`)];
  if (failed.length > 0) {
    process.stderr.write(`bench incomplete: ${failed.join('; ')}\n`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
