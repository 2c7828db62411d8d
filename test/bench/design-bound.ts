import BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { startBytesFloor, startReadyServer } from './floors';
import { measure, type MeasureContext, type Row, type Scenario } from './measure';
import { removeSqliteFile } from './world-setup';

// The design bounds of issue 25's distinct pages (design-bound-server.ts): the same distinct
// plan, sample and floor as orgsec's scenario, against servers that do nothing but the page,
// from alert JSON orgsec itself answered, pre-serialized. They say what any design could reach
// on this machine: one that reads a page's parts from the database, and one that holds them all.

export const DESIGN_BOUND_SCENARIO = 'design bound';

interface AlertJson {
  created_at: string;
  state: string;
  security_advisory: { svcsa_id: string; severity: string };
  dependency: { package: { ecosystem: string }; scope: string; relationship: string };
  repository: { id: number };
}

/**
 * Every alert of `org` as orgsec answers it (newest first, pages of 100), split into its own
 * JSON and the advisory and repository it embeds, each kept once, into the SQLite file `file`.
 */
export async function buildPreserialized(orgsecUrl: string, org: string, headers: Record<string, string>, file: string): Promise<number> {
  removeSqliteFile(file);
  const db = new BetterSqlite3(file);
  try {
    db.exec(`CREATE TABLE alert_json (position INTEGER PRIMARY KEY, created_at TEXT, state TEXT, severity TEXT, ecosystem TEXT, scope TEXT, relationship TEXT, advisory_id INTEGER, repo_id INTEGER, own BLOB);
      CREATE TABLE advisory_json (id INTEGER PRIMARY KEY, json BLOB);
      CREATE TABLE repository_json (id INTEGER PRIMARY KEY, json BLOB);`);
    const insertAlert = db.prepare('INSERT INTO alert_json VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    const insertAdvisory = db.prepare('INSERT INTO advisory_json VALUES (?, ?)');
    const insertRepository = db.prepare('INSERT OR IGNORE INTO repository_json VALUES (?, ?)');
    const advisoryIds = new Map<string, number>();
    let position = 0;
    let url: string | undefined = `${orgsecUrl}/orgs/${org}/dependency-bot/alerts?per_page=100&sort=created&direction=desc`;
    while (url) {
      const response: Response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`${url} answered ${response.status}`);
      const alerts = (await response.json()) as AlertJson[];
      db.transaction(() => {
        for (const alert of alerts) {
          const advisory = alert.security_advisory;
          let advisoryId = advisoryIds.get(advisory.svcsa_id);
          if (advisoryId === undefined) {
            advisoryIds.set(advisory.svcsa_id, (advisoryId = advisoryIds.size + 1));
            insertAdvisory.run(advisoryId, Buffer.from(JSON.stringify(advisory)));
          }
          insertRepository.run(alert.repository.id, Buffer.from(JSON.stringify(alert.repository)));
          const own = JSON.stringify({ ...alert, security_advisory: '@@ADVISORY@@', repository: '@@REPOSITORY@@' });
          insertAlert.run(position++, alert.created_at, alert.state, advisory.severity, alert.dependency.package.ecosystem, alert.dependency.scope, alert.dependency.relationship, advisoryId, alert.repository.id, Buffer.from(own));
        }
      })();
      url = /<([^>]+)>; rel="next"/.exec(response.headers.get('link') ?? '')?.[1];
    }
    return position;
  } finally {
    db.close();
  }
}

/** The bounds, measured like `distinct` (its plan, sample and floor), on `port`. */
export async function benchDesignBounds(orgsecUrl: string, org: string, distinct: Scenario, ctx: MeasureContext, port: number): Promise<Row[]> {
  const file = path.join(ctx.workDir, 'design-bound.sqlite');
  await buildPreserialized(orgsecUrl, org, distinct.sample.headers, file);
  const { target: _none, ...untargeted } = distinct;
  const bounds = [
    { mode: 'sqlite', what: "each alert's JSON pre-serialized in SQLite, read per page (2 statements)" },
    { mode: 'memory', what: "the organization's alert JSON pre-serialized, all held in memory" },
  ] as const;
  const rows: Row[] = [];
  for (const { mode, what } of bounds) {
    const server = await startReadyServer('design-bound-server.js', [file, mode], port);
    try {
      const name = `${DESIGN_BOUND_SCENARIO}, distinct pages: ${what}; raw node:http, no auth, versions, ETag or Link`;
      rows.push(await measure(server, { ...untargeted, name }, ctx));
    } finally {
      await server.stop();
    }
  }
  return rows;
}

/** What each tail bound costs a request, in ms of the server core's time. */
const TAIL_BOUND_MS = [0.5, 1, 1.5, 2, 3];

/**
 * The tail-latency bound: raw node:http sending the bytes of the tail scenario's sample after
 * spending N ms of CPU on each request, at the tail scenario's connections, for each N. It
 * says which cost per request a p99 target allows on this machine, whatever the server does.
 */
export async function benchTailBounds(orgsecUrl: string, tail: Scenario, ctx: MeasureContext, port: number): Promise<Row[]> {
  const response = await fetch(`${orgsecUrl}${tail.sample.path}`, { headers: tail.sample.headers });
  const bytes = Buffer.from(await response.arrayBuffer());
  const rows: Row[] = [];
  for (const ms of TAIL_BOUND_MS) {
    const server = await startBytesFloor(bytes, path.join(ctx.workDir, 'tail-bound-response.json'), port, ms);
    try {
      const sample = { method: 'GET' as const, path: '/', headers: {}, status: 200 };
      rows.push(await measure(server, {
        name: `${DESIGN_BOUND_SCENARIO}, tail: raw node:http spending ${ms} ms of CPU per request, then the same bytes`,
        connections: tail.connections, sample, plan: { kind: 'same', method: 'GET', path: '/', headers: {}, expectStatus: 200 }, baseline: { kind: 'none' },
      }, ctx));
    } finally {
      await server.stop();
    }
  }
  return rows;
}
