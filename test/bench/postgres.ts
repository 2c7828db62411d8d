import path from 'node:path';
import type { LoadResult } from './load-plan';
import { openDatabase } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { drive } from './drive';
import { BIG_ORG } from './generate-world';
import { measure, type MeasureContext, type Row } from './measure';
import { readCounters, sqlPerRequest } from './metrics-probe';
import { sampleRss } from './processes';
import { startOrgsec } from './orgsec-server';
import { AUTH, currentEtag, distinctPagesScenario, firstPageScenario, notModifiedScenario, patchMixScenario } from './scenarios';
import { readWorldFacts } from './world-facts';
import { holdsWorld, loadWorld, prepareSqliteWorld } from './world-setup';

// The REST scenarios on PostgreSQL (BENCH_DATABASE_URL), in a schema of their own, beside the
// same scenarios on SQLite over an equal world: one instance each, then the first page through
// two instances over the same PostgreSQL database. Servers are not pinned: the database server
// needs a core too, and SQLite's is left unpinned alike.

const SCHEMA = 'orgsec_bench';

/** `baseUrl` working in `schema` (its search_path). */
export function schemaUrl(baseUrl: string, schema: string): string {
  return `${baseUrl}${baseUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
}

/** Drops `schema` with everything in it and makes it anew, empty. */
export async function recreateSchema(baseUrl: string, schema: string): Promise<void> {
  const admin = openDatabase(baseUrl);
  try {
    await admin.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await admin.knex.raw('CREATE SCHEMA ??', [schema]);
  } finally {
    await admin.close();
  }
}

/** With `reuse`, the schema the last run loaded is kept when it holds the same world. */
export async function preparePostgres(baseUrl: string, alerts: number, reuse: boolean): Promise<string> {
  const url = schemaUrl(baseUrl, SCHEMA);
  const admin = openDatabase(baseUrl);
  try {
    if (reuse) {
      const db = openDatabase(url);
      try {
        const exists = await admin.knex.raw('SELECT 1 FROM pg_namespace WHERE nspname = ?', [SCHEMA]).then((r: { rows: unknown[] }) => r.rows.length > 0);
        if (exists) await migrateLatest(db);
        if (exists && (await holdsWorld(db, alerts))) return url;
      } finally {
        await db.close();
      }
    }
  } finally {
    await admin.close();
  }
  await recreateSchema(baseUrl, SCHEMA);
  const db = openDatabase(url);
  try {
    await loadWorld(db, alerts);
  } finally {
    await db.close();
  }
  return url;
}

/** The REST scenarios both databases are compared on, in order. */
async function measureRestScenarios(server: Awaited<ReturnType<typeof startOrgsec>>, facts: Awaited<ReturnType<typeof readWorldFacts>>, ctx: MeasureContext, connections: number): Promise<Row[]> {
  const options = { connections };
  return [
    await measure(server, distinctPagesScenario(facts, options), ctx),
    await measure(server, firstPageScenario(options), ctx),
    await measure(server, notModifiedScenario({ ...options, etag: await currentEtag(server.url) }), ctx),
    await measure(server, patchMixScenario(facts, options), ctx),
  ];
}

/**
 * What PostgreSQL must keep of SQLite's throughput on the same world (issue 35), by scenario
 * (the order of measureRestScenarios); the PATCH mix also a p99 bound.
 */
const OF_SQLITE = [{ share: 0.6 }, { share: 0.8 }, { share: undefined }, { share: 0.6, p99: 150 }] as const;

/**
 * PostgreSQL's rows judged against SQLite's on the same world, both servers unpinned: the ratio
 * is PostgreSQL's throughput over SQLite's (the floor's ratio moves to the notes).
 */
function againstSqlite(pg: Row[], sqlite: Row[]): void {
  pg.forEach((row, i) => {
    const reference = sqlite[i]?.load;
    const rule = OF_SQLITE[i];
    if (!row.load || !reference || !rule) return;
    if (row.ratio !== undefined) row.notes.push(`${(row.ratio * 100).toFixed(1)}% of its floor (${Math.round(row.baseline!.rps)} req/s)`);
    row.baseline = { name: 'SQLite, same world', rps: reference.rps };
    row.ratio = row.load.rps / reference.rps;
    const p99 = 'p99' in rule ? rule.p99 : undefined;
    if (rule.share === undefined) {
      delete row.target;
      delete row.met;
      return;
    }
    row.target = `≥ ${rule.share * 100}% of SQLite's${p99 === undefined ? '' : `; p99 ≤ ${p99} ms`}`;
    row.met = row.ratio >= rule.share && (p99 === undefined || row.load.p99 <= p99);
  });
}

/**
 * PostgreSQL beside SQLite on equal worlds (`alerts` each, both servers unpinned, SQLite first),
 * then the first page through two instances over one PostgreSQL database.
 */
export async function benchPostgres(baseUrl: string, alerts: number, ctx: Omit<MeasureContext, 'database'>, settings: { connections: number; reuse: boolean }): Promise<Row[]> {
  const size = alerts.toLocaleString('en');
  const sqliteFile = path.join(ctx.workDir, `bench-${alerts}.sqlite`);
  await prepareSqliteWorld(sqliteFile, alerts, settings.reuse);
  const sqliteDb = openDatabase(sqliteFile);
  const sqliteFacts = await readWorldFacts(sqliteDb, BIG_ORG, 1).finally(() => sqliteDb.close());
  const sqliteServer = await startOrgsec(sqliteFile, 4800, { pinned: false });
  let sqliteRows: Row[];
  try {
    sqliteRows = await measureRestScenarios(sqliteServer, sqliteFacts, { ...ctx, database: `SQLite (${size} alerts, unpinned)` }, settings.connections);
  } finally {
    await sqliteServer.stop();
  }

  const url = await preparePostgres(baseUrl, alerts, settings.reuse);
  const database = `PostgreSQL (${size} alerts)`;
  const db = openDatabase(url);
  const facts = await readWorldFacts(db, BIG_ORG, 1).finally(() => db.close());
  const mctx: MeasureContext = { ...ctx, database };
  const first = await startOrgsec(url, 4800, { pinned: false });
  const rows: Row[] = [];
  try {
    const pgRows = await measureRestScenarios(first, facts, mctx, settings.connections);
    againstSqlite(pgRows, sqliteRows);
    rows.push(...sqliteRows, ...pgRows);
    rows.push(await twoInstances(first, url, firstPageScenario({ connections: settings.connections }).sample.path, mctx, settings.connections));
  } finally {
    await first.stop();
  }
  return rows;
}

/** The first page through two instances at once, each driven by its own runner; figures summed. */
async function twoInstances(first: Awaited<ReturnType<typeof startOrgsec>>, url: string, path: string, ctx: MeasureContext, connections: number): Promise<Row> {
  const row: Row = { scenario: 'organization alerts, first page, 2 instances over one database', database: ctx.database, connections: connections * 2, notes: [] };
  const second = await startOrgsec(url, 4801, { pinned: false });
  try {
    const servers = [first, second];
    const before = await Promise.all(servers.map((s) => readCounters(s.url)));
    const rss = servers.map((s) => sampleRss(s.pid));
    const plan = { kind: 'same' as const, method: 'GET' as const, path, headers: AUTH, expectStatus: 200 };
    const loads = await Promise.all(servers.map((s) => drive({ url: s.url, connections, seconds: ctx.seconds * ctx.rounds, warmupSeconds: ctx.warmupSeconds, plan }, ctx.workDir)));
    const after = await Promise.all(servers.map((s) => readCounters(s.url)));
    row.rssMb = Math.max(...rss.map((r) => r.stop())) / 2 ** 20;
    row.sqlPerRequest = sqlPerRequest(
      { sqlStatements: before[0]!.sqlStatements + before[1]!.sqlStatements, httpRequests: before[0]!.httpRequests + before[1]!.httpRequests },
      { sqlStatements: after[0]!.sqlStatements + after[1]!.sqlStatements, httpRequests: after[0]!.httpRequests + after[1]!.httpRequests },
    );
    const [x, y] = loads as [typeof loads[0], typeof loads[0]];
    const load: LoadResult = {
      rps: x.rps + y.rps, p50: Math.max(x.p50, y.p50), p99: Math.max(x.p99, y.p99), requests: x.requests + y.requests,
      statuses: Object.fromEntries([...new Set([...Object.keys(x.statuses), ...Object.keys(y.statuses)])].map((s) => [s, (x.statuses[s] ?? 0) + (y.statuses[s] ?? 0)])),
      unexpected: x.unexpected + y.unexpected, errors: x.errors + y.errors, timeouts: x.timeouts + y.timeouts, emptyPages: 0, repeated: 0, writes: 0, issued: x.issued + y.issued,
    };
    row.load = load;
    if (load.unexpected > 0) row.notes.push(`${load.unexpected} unexpected answers`);
  } catch (error) {
    row.error = error instanceof Error ? error.message : String(error);
  } finally {
    await second.stop();
  }
  process.stderr.write(`  ${row.database} ${row.scenario}: ${row.error ?? `${row.load!.rps.toFixed(0)} req/s`}\n`);
  return row;
}
