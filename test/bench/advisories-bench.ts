import path from 'node:path';
import { openDatabase, type Database } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { measure, type MeasureContext, type Row, type Scenario } from './measure';
import { startOrgsec } from './orgsec-server';
import { removeSqliteFile } from './world-setup';

// Issue 20's read benchmark: `GET /advisories?affects=` with 1,000 `package@version` values over
// a database of 20,000 advisories (1–3 affected packages each, long markdown details, CVSS
// vectors), each request built (response cache off), one client: the p50 of a request (target
// ≤ 50 ms). The database is the one the advisory import step built; without it, advisories are
// written here as the importer stores them (rows with their OSV events).

export const ADVISORY_SCENARIO = 'advisories, affects with 1,000 package@version, built per request';
const ADVISORIES = 20_000;
const PACKAGES = 8_000;
const ECOSYSTEMS = ['npm', 'npm', 'npm', 'pip', 'maven', 'go', 'rust', 'nuget', 'composer', 'rubygems'] as const;
const DETAILS = `## Impact\n\n${'A crafted input makes the parser allocate without bound. '.repeat(40)}\n\n## Patches\n\nUpgrade.\n`;
const CVSS = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H';

/** A small deterministic generator: the same database every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

const packageName = (ecosystem: string, n: number) => (ecosystem === 'maven' ? `org.p${n}:p${n}` : ecosystem === 'go' ? `example.com/p${n}` : `p${n}`);

async function writeAdvisories(file: string): Promise<void> {
  removeSqliteFile(file);
  const db = openDatabase(file);
  try {
    await migrateLatest(db);
    await insertBenchAdvisories(db);
  } finally {
    await db.close();
  }
}

/** The same ADVISORIES advisories every run, written as the importer stores them; how many. */
export async function insertBenchAdvisories(db: Database): Promise<number> {
  const next = random(20);
  await db.knex.transaction(async (trx) => {
    for (let start = 0; start < ADVISORIES; start += 500) {
      const advisories = Array.from({ length: Math.min(500, ADVISORIES - start) }, (_, k) => {
        const i = start + k;
        const day = new Date(Date.UTC(2018, 0, 1) + i * 3_600_000 * 4).toISOString().replace(/\.\d{3}Z$/, 'Z');
        return {
          svcsa_id: `GHSA-b${String(i).padStart(5, '0')}-2024`, cve_id: `CVE-2024-${String(i).padStart(5, '0')}`, classification: 'general', type: 'reviewed',
          summary: `Advisory ${i}`, description: DETAILS, severity: 'high', cvss_vector_string: CVSS, cvss_score: 9.8,
          cvss_severities: JSON.stringify({ cvss_v3: { vector_string: CVSS, score: 9.8 }, cvss_v4: { vector_string: null, score: 0 } }),
          cwes: JSON.stringify([{ cwe_id: 'CWE-400', name: 'Uncontrolled Resource Consumption' }]),
          identifiers: JSON.stringify([{ type: 'SVCSA', value: `GHSA-b${i}` }]), references: JSON.stringify([{ url: `https://example.com/${i}` }]),
          published_at: day, updated_at: day, credits: '[]',
        };
      });
      const ids = (await trx('advisories').insert(advisories, ['id'])).map((row: { id: number } | number) => Number(typeof row === 'object' ? row.id : row));
      const vulnerabilities = ids.flatMap((id) => Array.from({ length: 1 + Math.floor(next() * 3) }, () => {
        const ecosystem = ECOSYSTEMS[Math.floor(next() * ECOSYSTEMS.length)]!;
        const name = packageName(ecosystem, Math.floor(next() * PACKAGES));
        const major = 1 + Math.floor(next() * 5);
        const fixed = `${major}.${1 + Math.floor(next() * 9)}.0`;
        return {
          advisory_id: id, ecosystem, package_name: name, package_key: name, severity: 'high', vulnerable_version_range: `>= ${major}.0.0, < ${fixed}`,
          first_patched_version: fixed, vulnerable_functions: '[]', versions: '[]',
          ranges: JSON.stringify([{ type: 'ECOSYSTEM', events: [{ introduced: `${major}.0.0` }, { fixed }] }]),
        };
      }));
      await trx.batchInsert('advisory_vulnerabilities', vulnerabilities, 200);
    }
  });
  return ADVISORIES;
}

/** The introduced version of a row's first range: inside it (a range from "0" gets 0.0.1). */
function versionInside(ranges: string | null): string {
  const introduced = (JSON.parse(ranges ?? '[]') as Array<{ events: Array<{ introduced?: string }> }>)[0]?.events[0]?.introduced;
  return introduced === undefined || introduced === '0' ? '0.0.1' : introduced;
}

/**
 * 1,000 npm values: 500 packages the database has (unscoped names, so the request line stays
 * under 16 KiB), each at a version inside its first range, and 500 it does not have.
 */
export async function affectsQuery(file: string): Promise<string> {
  const db = openDatabase(file);
  try {
    const rows: Array<{ package_name: string; ranges: string | null }> = await db.knex('advisory_vulnerabilities')
      .where('ecosystem', 'npm').whereNot('package_name', 'like', '@%').orderBy('id').limit(500).select('package_name', 'ranges');
    const values = [...rows.map((row) => `${row.package_name}@${versionInside(row.ranges)}`), ...Array.from({ length: 1000 - rows.length }, (_, i) => `a${i}@1.0.0`)];
    const pathAndQuery = `/advisories?ecosystem=npm&affects=${values.join(',')}`;
    if (Buffer.byteLength(pathAndQuery) > 16 * 1024) throw new Error(`the request line would be ${Buffer.byteLength(pathAndQuery)} bytes`);
    return pathAndQuery;
  } finally {
    await db.knex.destroy();
  }
}

/** Over `imported` (the import step's database), or over advisories written here when it did not run. */
export async function benchAdvisories(ctx: Omit<MeasureContext, 'database'>, port: number, imported: string | undefined): Promise<Row> {
  let file = imported;
  if (file === undefined) {
    file = path.join(ctx.workDir, 'advisories-read.sqlite');
    const started = Date.now();
    await writeAdvisories(file);
    process.stderr.write(`  wrote ${ADVISORIES} advisories in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
  const pathAndQuery = await affectsQuery(file);
  const server = await startOrgsec(file, port, { pinned: true, env: { RESPONSE_CACHE_MB: '0' } });
  const scenario: Scenario = {
    name: ADVISORY_SCENARIO,
    connections: 1,
    sample: { method: 'GET', path: pathAndQuery, headers: {}, status: 200, check: (json) => {
      if (!Array.isArray(json) || json.length === 0) throw new Error('the affects query matched no advisory');
    } },
    plan: { kind: 'same', method: 'GET', path: pathAndQuery, headers: {}, expectStatus: 200 },
    baseline: { kind: 'none' },
    target: { text: 'p50 ≤ 50 ms', isMet: (row) => (row.load?.p50 ?? Number.POSITIVE_INFINITY) <= 50 },
  };
  try {
    return await measure(server, scenario, { ...ctx, database: 'SQLite' });
  } finally {
    await server.stop();
  }
}
