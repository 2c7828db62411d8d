import { randomBytes } from 'node:crypto';
import http from 'node:http';
import Database from 'better-sqlite3';
import { hashToken } from '../../src/auth/token-format';
import { BENCH_TOKEN, BIG_ORG } from './generate-world';
import { startOrgsec } from './orgsec-server';
import { readStatusBytes, sampleRss } from './processes';
import { copyOfWorld, removeSqliteFile } from './world-setup';

// Issue 37's export: `GET /orgs/{org}/audit-log` with `Accept: application/x-ndjson` over
// RECORDS records of the big organization (a copy of the benchmark world, SQLite, one `orgsec
// serve` pinned to its core), read by a client as fast as it can, then by one that reads
// SLOW_BYTES_PER_SECOND (a SIEM behind a slow link) for SLOW_SECONDS: the server's RSS above
// its idle RSS in each, which must stay within LIMIT_MB whatever the log's size.

export const AUDIT_EXPORT_SCENARIO = 'audit log export';
const RECORDS = 1_000_000;
const LIMIT_MB = 100;
const SLOW_BYTES_PER_SECOND = 2 * 2 ** 20;
const SLOW_SECONDS = 15;

export interface AuditExportResult {
  records: number;
  idleRssMb: number;
  fast: { records: number; mb: number; seconds: number; peakRssMb: number };
  slow: { mb: number; seconds: number; peakRssMb: number };
  target: string;
  met: boolean;
}

export interface AuditExportError {
  error: string;
}

/** RECORDS records of dismissals, rule changes and role changes, as the recorder writes them, in one transaction. */
function writeRecords(file: string, records: number): void {
  const db = new Database(file);
  try {
    const org = db.prepare('select id from accounts where login = ?').get(BIG_ORG) as { id: number };
    const repos = (db.prepare('select id, name from repositories where owner_id = ? limit 100').all(org.id)) as Array<{ id: number; name: string }>;
    // A world generated before the audit log gave its token no read:audit_log (generate-world.ts does now).
    db.prepare('update tokens set scopes = ? where token_hash = ?').run(JSON.stringify(['repo', 'read:org', 'read:audit_log']), hashToken(BENCH_TOKEN));
    const insert = db.prepare(`insert into audit_log (document_id, created_at, action, operation_type, actor, actor_id, actor_is_bot, org_id, org, repo_id, repo, token_id,
      programmatic_access_type, request_id, data) values (?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const start = Date.UTC(2026, 5, 1);
    db.transaction(() => {
      for (let i = 0; i < records; i++) {
        const repo = repos[i % repos.length]!;
        const data = JSON.stringify({
          alert_number: 1 + (i % 5000), advisory_id: 1 + (i % 20000), ecosystem: 'npm', package: `package-${i % 3000}`, manifest_path: 'package-lock.json',
          changes: { state: { before: 'open', after: 'dismissed' } }, dismissed_reason: 'tolerable_risk', dismissed_comment: 'Reviewed by the platform team',
        });
        insert.run(randomBytes(16).toString('base64url'), start + i * 1000, 'dependency_alert.dismiss', 'modify', 'bench-owner', 1, org.id, BIG_ORG, repo.id,
          `${BIG_ORG}/${repo.name}`, 1, 'Personal access token (classic)', randomBytes(16).toString('hex'), data);
      }
    })();
  } finally {
    db.close();
  }
}

/** Reads the export, at most `bytesPerSecond` (unlimited when undefined) and for at most `seconds`; lines and bytes read. */
function readExport(url: string, options: { bytesPerSecond?: number; seconds?: number } = {}): Promise<{ lines: number; bytes: number; seconds: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.get(url, { headers: { authorization: `Bearer ${BENCH_TOKEN}`, accept: 'application/x-ndjson' } }, (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`the export answered ${response.statusCode}`));
        response.resume();
        return;
      }
      let lines = 0;
      let bytes = 0;
      const finish = () => resolve({ lines, bytes, seconds: (performance.now() - started) / 1000 });
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines += 1;
        const elapsed = (performance.now() - started) / 1000;
        if (options.seconds !== undefined && elapsed >= options.seconds) {
          request.destroy();
          finish();
          return;
        }
        if (options.bytesPerSecond !== undefined) {
          const ahead = bytes / options.bytesPerSecond - elapsed;
          if (ahead > 0) {
            response.pause();
            setTimeout(() => response.resume(), ahead * 1000);
          }
        }
      });
      response.on('end', finish);
      response.on('error', reject);
    });
    request.on('error', (error) => (options.seconds !== undefined ? undefined : reject(error)));
  });
}

export async function benchAuditExport(s: { workDir: string; worldFile: string; port: number }): Promise<AuditExportResult | AuditExportError> {
  const file = copyOfWorld(s.worldFile, s.workDir, 'audit.sqlite');
  const server = await startOrgsec(file, s.port, { pinned: true });
  try {
    // Migrated by the server (the audit_log table), then filled beside it: the server reads the records as any writer's.
    const written = performance.now();
    writeRecords(file, RECORDS);
    process.stderr.write(`  audit log: wrote ${RECORDS.toLocaleString('en')} records in ${((performance.now() - written) / 1000).toFixed(1)} s\n`);
    const url = `${server.url}/orgs/${BIG_ORG}/audit-log`;
    await readExport(`${url}?phrase=${encodeURIComponent('action:hook')}`); // a first request: the routes and modules loaded
    const idle = (readStatusBytes(server.pid, 'VmRSS') ?? 0) / 2 ** 20;
    let sampler = sampleRss(server.pid, 'VmRSS', 50);
    const fast = await readExport(url);
    const fastPeak = sampler.stop() / 2 ** 20;
    if (fast.lines < RECORDS) throw new Error(`the export gave ${fast.lines} records of ${RECORDS}`);
    sampler = sampleRss(server.pid, 'VmRSS', 50);
    const slow = await readExport(url, { bytesPerSecond: SLOW_BYTES_PER_SECOND, seconds: SLOW_SECONDS });
    const slowPeak = sampler.stop() / 2 ** 20;
    const result: AuditExportResult = {
      records: RECORDS, idleRssMb: idle,
      fast: { records: fast.lines, mb: fast.bytes / 2 ** 20, seconds: fast.seconds, peakRssMb: fastPeak },
      slow: { mb: slow.bytes / 2 ** 20, seconds: slow.seconds, peakRssMb: slowPeak },
      target: `≤ ${LIMIT_MB} MB above idle`, met: Math.max(fastPeak, slowPeak) - idle <= LIMIT_MB,
    };
    process.stderr.write(`  audit log export: ${fast.lines.toLocaleString('en')} records, ${result.fast.mb.toFixed(0)} MB in ${fast.seconds.toFixed(1)} s; RSS idle ${idle.toFixed(0)} MB, peak ${fastPeak.toFixed(0)} MB (fast), ${slowPeak.toFixed(0)} MB (slow)\n`);
    return result;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  } finally {
    await server.stop();
    removeSqliteFile(file);
  }
}

/** The result's lines of the Markdown table (same columns as the others). */
export function auditExportLines(r: AuditExportResult | AuditExportError): string[] {
  if (!('records' in r)) return [`| ${AUDIT_EXPORT_SCENARIO} | failed: ${r.error} | | | | | | | | |`];
  const rate = r.fast.records / r.fast.seconds;
  const above = (peak: number) => `${(peak - r.idleRssMb).toFixed(0)} MB above idle (${peak.toFixed(0)} of ${r.idleRssMb.toFixed(0)})`;
  return [
    `| ${AUDIT_EXPORT_SCENARIO}: ${r.records.toLocaleString('en')} records as NDJSON, read as fast as the client can (${r.fast.mb.toFixed(0)} MB in ${r.fast.seconds.toFixed(1)} s) | ${Math.round(rate).toLocaleString('en')} records/s | | | ${above(r.fast.peakRssMb)} | | | | ${r.target} | ${r.met ? 'yes' : '**no**'} |`,
    `| the same read at ${SLOW_BYTES_PER_SECOND / 2 ** 20} MB/s for ${SLOW_SECONDS} s (a slow client: the server waits for it) | | | | ${above(r.slow.peakRssMb)} | | | | ${r.target} | ${r.met ? 'yes' : '**no**'} |`,
  ];
}
