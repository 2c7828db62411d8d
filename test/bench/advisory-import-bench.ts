import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../src/cli/paths';
import { writeOsvTree } from './generate-osv';
import { SERVER_CORE, spawnPinned, timedRun } from './processes';
import { removeSqliteFile } from './world-setup';

// Issue 20's benchmark: `orgsec advisories import` of `count` generated OSV advisories (the
// public database's layout and shape) into a fresh SQLite database, then the same import again
// (all unchanged), each timed with its peak RSS (VmHWM). The database is kept
// (.bench/advisories.sqlite) for scenarios that read the advisories.

export const ADVISORY_IMPORT_SCENARIO = 'advisory import';

export interface ImportRunFigures {
  seconds: number;
  peakRssMb: number;
  summary: string;
}

export interface AdvisoryImportResult {
  advisories: number;
  treeMb: number;
  first?: ImportRunFigures;
  second?: ImportRunFigures;
  database: string;
  error?: string;
}

/** `orgsec advisories import PATH --database D`, timed, with its peak RSS. */
export async function timedImport(tree: string, database: string, timeoutSeconds: number): Promise<ImportRunFigures> {
  const cli = path.join(packageRoot(), 'dist', 'src', 'cli', 'index.js');
  const child = spawnPinned(SERVER_CORE, process.execPath, [cli, 'advisories', 'import', tree, '--database', database], {
    env: { ...process.env, DATABASE_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-4000)));
  child.stderr!.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
  const { code, seconds, peakRssBytes, timedOut } = await timedRun(child, timeoutSeconds);
  const peakRssMb = peakRssBytes / 2 ** 20;
  if (timedOut) throw new Error(`stopped after ${timeoutSeconds} s; last progress: ${stderr.trim().split('\n').pop() ?? ''}`);
  if (code !== 0) throw new Error(`orgsec advisories import exited with ${code}: ${(stderr || stdout).trim().split('\n').slice(-2).join(' ')}`);
  return { seconds, peakRssMb, summary: stdout.trim().split('\n').pop() ?? '' };
}

export async function benchAdvisoryImport(count: number, workDir: string, timeoutSeconds: number): Promise<AdvisoryImportResult> {
  const tree = path.join(workDir, `osv-${count}`);
  const database = path.join(workDir, 'advisories.sqlite');
  const written = Date.now();
  fs.rmSync(tree, { recursive: true, force: true });
  const bytes = writeOsvTree(tree, count);
  process.stderr.write(`  wrote ${count} OSV files (${(bytes / 2 ** 20).toFixed(0)} MB) in ${((Date.now() - written) / 1000).toFixed(1)} s\n`);
  removeSqliteFile(database);
  const result: AdvisoryImportResult = { advisories: count, treeMb: bytes / 2 ** 20, database };
  try {
    result.first = await timedImport(tree, database, timeoutSeconds);
    process.stderr.write(`  advisories import: ${result.first.summary} in ${result.first.seconds.toFixed(1)} s, peak RSS ${result.first.peakRssMb.toFixed(0)} MB\n`);
    result.second = await timedImport(tree, database, timeoutSeconds);
    process.stderr.write(`  again: ${result.second.summary} in ${result.second.seconds.toFixed(1)} s, peak RSS ${result.second.peakRssMb.toFixed(0)} MB\n`);
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
  return result;
}
