import type { Row } from './measure';
import type { AdvisoryImportResult } from './advisory-import-bench';
import { snapshotLines, type SnapshotBenchResult } from './snapshots-bench';
import { sbomUploadLines, type SbomUploadBenchResult } from './sbom-upload-bench';
import { webhookLines, type WebhookBenchError, type WebhookBenchResult } from './webhooks-bench';
import { subscriptionLines, type SubscriptionRun } from './subscriptions-bench';
import { auditExportLines, type AuditExportError, type AuditExportResult } from './audit-log-bench';
import type { WorldLoadResult } from './world-load-bench';

// The results: everything as JSON, and a caption and compact Markdown table for the README.

// Issue 35: RSS while serving, the default settings, at any world size.
export const RSS_LIMIT_MB = 256;
// Issue 25: 1,000,000 alerts with 20,000 advisories of the public database's shape.
const LOAD_LIMIT_SECONDS: Record<WorldLoadResult['database'], number> = { SQLite: 60, PostgreSQL: 120 };
const LOAD_RSS_LIMIT_MB = 500;
// Issue 20: 20,000 advisories imported in at most 60 s and 300 MB; the same import again in at most 15 s.
const IMPORT_LIMIT_SECONDS = 60;
const IMPORT_RSS_LIMIT_MB = 300;
const REIMPORT_LIMIT_SECONDS = 15;

export interface FloorFigure {
  name: string;
  rps: number;
  p50: number;
  p99: number;
}

export interface Report {
  date: string;
  machine: string;
  node: string;
  settings: { connections: number } & Record<string, unknown>;
  caption: string;
  floors: FloorFigure[];
  rows: Row[];
  servingRss: { maxMb: number; target: string; met: boolean };
  /** The SQLite server's RSS once started, before any request, and its caches after the scenarios. */
  memory?: { idleMb: number | undefined; caches: Array<{ name: string; bytes: number; limitBytes: number }> };
  worldLoads?: Array<WorldLoadResult & { target: string; met: boolean }>;
  advisoryImport?: AdvisoryImportResult & { target: string; met: boolean };
  snapshots?: SnapshotBenchResult;
  sbomUploads?: SbomUploadBenchResult;
  webhooks?: WebhookBenchResult | WebhookBenchError;
  subscriptions?: SubscriptionRun[];
  auditExport?: AuditExportResult | AuditExportError;
}

const whole = (n: number) => Math.round(n).toLocaleString('en');
const ms = (n: number) => (n < 10 ? n.toFixed(1) : whole(n));
const mb = (n: number | undefined) => (n === undefined ? '' : n.toFixed(0));
const yesNo = (met: boolean | undefined) => (met === undefined ? '' : met ? 'yes' : '**no**');

export function servingRss(rows: Row[]): Report['servingRss'] {
  const maxMb = Math.max(0, ...rows.map((r) => r.rssMb ?? 0));
  return { maxMb, target: `≤ ${RSS_LIMIT_MB} MB`, met: maxMb > 0 && maxMb <= RSS_LIMIT_MB };
}

export function judgeWorldLoad(load: WorldLoadResult): NonNullable<Report['worldLoads']>[number] {
  const limit = LOAD_LIMIT_SECONDS[load.database];
  const met = load.error === undefined && load.seconds! < limit && load.peakRssMb < LOAD_RSS_LIMIT_MB;
  return { ...load, target: `< ${limit} s, < ${LOAD_RSS_LIMIT_MB} MB`, met };
}

export function judgeAdvisoryImport(result: AdvisoryImportResult): NonNullable<Report['advisoryImport']> {
  const { first, second } = result;
  const met = result.error === undefined && first !== undefined && second !== undefined && first.seconds <= IMPORT_LIMIT_SECONDS
    && first.peakRssMb <= IMPORT_RSS_LIMIT_MB && second.seconds <= REIMPORT_LIMIT_SECONDS && second.peakRssMb <= IMPORT_RSS_LIMIT_MB;
  return { ...result, target: `≤ ${IMPORT_LIMIT_SECONDS} s, ≤ ${IMPORT_RSS_LIMIT_MB} MB; again ≤ ${REIMPORT_LIMIT_SECONDS} s`, met };
}

function advisoryImportLines(result: NonNullable<Report['advisoryImport']>): string[] {
  const run = (figures: AdvisoryImportResult['first'], what: string) =>
    `| \`orgsec advisories import\`, ${whole(result.advisories)} OSV files (${result.treeMb.toFixed(0)} MB), ${what}${result.error ? ' [import]' : ''} | ${figures ? `${whole(result.advisories / figures.seconds)} files/s (${figures.seconds.toFixed(1)} s)` : 'failed'} | | | ${mb(figures?.peakRssMb)} peak | | | | ${what === 'first' ? result.target : ''} | ${what === 'first' ? yesNo(result.met) : ''} |`;
  return [run(result.first, 'first'), run(result.second, 'again, all unchanged')];
}

function sqlText(row: Row): string {
  const main = row.sqlPerRequest === undefined ? '' : row.sqlPerRequest.toFixed(1);
  const probes = Object.entries(row.sqlProbes ?? {}).map(([label, n]) => `${label}: ${n === undefined ? '?' : n.toFixed(1)}`);
  return probes.length ? `${main} (${probes.join(', ')})` : main;
}

function rowLine(row: Row, index: number, connections: number): string {
  const name = `${row.database === 'SQLite' ? '' : `${row.database}: `}${row.scenario}${row.connections === connections ? '' : `, ${row.connections} connections`}${row.bytes ? ` (${(row.bytes / 1024).toFixed(row.bytes < 1024 ? 1 : 0)} KB)` : ''}`;
  const mark = row.error || row.notes.length ? ` [${index}]` : '';
  if (!row.load) return `| ${name}${mark} | failed | | | | | | | ${row.target ?? ''} | ${yesNo(row.met)} |`;
  const floor = row.baseline ? `${whole(row.baseline.rps)}${row.baseline.name.startsWith('raw') ? '' : ` (${row.baseline.name})`}` : '';
  const ratio = row.ratio === undefined ? '' : `${(row.ratio * 100).toFixed(1)}%`;
  return `| ${name}${mark} | ${whole(row.load.rps)} | ${ms(row.load.p50)} | ${ms(row.load.p99)} | ${mb(row.rssMb)} | ${sqlText(row)} | ${floor} | ${ratio} | ${row.target ?? ''} | ${yesNo(row.met)} |`;
}

export function markdown(report: Report): string {
  const lines = [
    report.caption,
    '',
    '| scenario | req/s | p50 ms | p99 ms | RSS MB | SQL/req | floor req/s | ratio | target | met |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...report.floors.map((f) => `| floor: ${f.name} | ${whole(f.rps)} | ${ms(f.p50)} | ${ms(f.p99)} | | | | | | |`),
    ...report.rows.map((row, i) => rowLine(row, i + 1, report.settings.connections)),
  ];
  // A run of scenarios that measure no RSS (BENCH_SCENARIOS) has no figure to judge.
  if (report.rows.length > 0) lines.push(`| orgsec RSS while serving, max over the SQLite scenarios | | | | ${mb(report.servingRss.maxMb)} | | | | ${report.servingRss.target} | ${yesNo(report.servingRss.met)} |`);
  if (report.memory) {
    const caches = report.memory.caches.map((c) => `${c.name} ${(c.bytes / 2 ** 20).toFixed(1)} of ${(c.limitBytes / 2 ** 20).toFixed(1)}`).join(', ');
    lines.push(`| orgsec RSS started, before any request | | | | ${mb(report.memory.idleMb)} | | | | | |`);
    lines.push(`| memory caches after the SQLite scenarios, MB held of each limit: ${caches} | | | | ${mb(report.memory.caches.reduce((n, c) => n + c.bytes, 0) / 2 ** 20)} | | | | | |`);
  }
  for (const load of report.worldLoads ?? []) {
    const rate = load.alertsPerSecond === undefined ? (load.error?.startsWith('stopped') ? 'unfinished' : 'failed') : `${whole(load.alertsPerSecond)} alerts/s (${load.seconds!.toFixed(1)} s)`;
    const into = load.database === 'SQLite' ? '' : ` into ${load.database}`;
    lines.push(`| \`orgsec load\`${into}, ${whole(load.alerts)} alerts (${load.fileMb.toFixed(0)} MB file)${load.error ? ` [load ${load.database}]` : ''} | ${rate} | | | ${mb(load.peakRssMb)} peak | | | | ${load.target} | ${yesNo(load.met)} |`);
  }
  if (report.advisoryImport) lines.push(...advisoryImportLines(report.advisoryImport));
  if (report.snapshots) lines.push(...snapshotLines(report.snapshots));
  if (report.sbomUploads) lines.push(...sbomUploadLines(report.sbomUploads));
  if (report.webhooks) lines.push(...webhookLines(report.webhooks));
  if (report.subscriptions) lines.push(...subscriptionLines(report.subscriptions));
  if (report.auditExport) lines.push(...auditExportLines(report.auditExport));
  const notes = report.rows.flatMap((row, i) => (row.error || row.notes.length ? [`[${i + 1}] ${[row.error, ...row.notes].filter(Boolean).join('; ')}`] : []));
  for (const load of report.worldLoads ?? []) if (load.error) notes.push(`[load ${load.database}] ${load.error}`);
  if (report.advisoryImport?.error) notes.push(`[import] ${report.advisoryImport.error}`);
  if (report.snapshots?.error) notes.push(`[snapshots] ${report.snapshots.error}`);
  if (report.sbomUploads?.error) notes.push(`[sbom] ${report.sbomUploads.error}`);
  if (notes.length) lines.push('', ...notes.map((n) => `${n}  `));
  return `${lines.join('\n')}\n`;
}
