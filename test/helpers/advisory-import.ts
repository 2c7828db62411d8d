import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ZipFile } from 'yazl';
import { createServices } from '../../src/composition';
import type { Database } from '../../src/database/connection';
import type { ImportProblem, ImportSummary } from '../../src/modules/advisories/advisory-import';

// Running the advisory import on a test database, and writing the files it reads.

export const OSV_FIXTURES = path.join(__dirname, '..', 'fixtures', 'osv');

export interface ImportRun {
  summary: ImportSummary;
  problems: ImportProblem[];
}

export async function importAdvisories(db: Database, paths: string[]): Promise<ImportRun> {
  const problems: ImportProblem[] = [];
  const summary = await createServices(db).advisoryImport.importPaths(paths, { onProblem: (problem) => problems.push(problem) });
  return { summary, problems };
}

/** Every fixture file under test/fixtures/osv, sorted. */
export function fixtureFiles(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.json')) files.push(full);
    }
  };
  walk(OSV_FIXTURES);
  return files.sort();
}

export function readFixture(id: string): Record<string, unknown> & { modified: string } {
  const file = fixtureFiles().find((f) => path.basename(f) === `${id}.json`);
  if (!file) throw new Error(`no fixture ${id}`);
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** Writes a fixture changed by `change` as `dir/ID.json`. */
export function writeChangedFixture(dir: string, id: string, change: (osv: Record<string, unknown> & { modified: string }) => void): string {
  const osv = readFixture(id);
  change(osv);
  const file = path.join(dir, `${id}.json`);
  fs.writeFileSync(file, JSON.stringify(osv));
  return file;
}

export async function writeZip(file: string, entries: Array<[name: string, text: string]>): Promise<void> {
  const zip = new ZipFile();
  for (const [name, text] of entries) zip.addBuffer(Buffer.from(text), name);
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(fs.createWriteStream(file)).on('close', resolve).on('error', reject);
  });
}

/** An EPSS file in its published form; gzipped when the name ends in .gz. */
export function writeEpssFile(file: string, rows: Array<[cve: string, epss: string, percentile: string]>): void {
  const text = ['#model_version:v2025.03.14,score_date:2026-11-26T12:55:00Z', 'cve,epss,percentile', ...rows.map((r) => r.join(','))].join('\n') + '\n';
  fs.writeFileSync(file, file.endsWith('.gz') ? zlib.gzipSync(text) : text);
}
