import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { backupSqliteFile, type BackupProgress } from '../../src/database/sqlite-backup';
import { apiClient } from '../durability/api-client';
import { prepareCrashDatabase } from '../durability/crash-database';
import { OWNER_TOKEN } from '../durability/crash-world';
import { acknowledgedSoFar, alertsNotFromHistory, moreWritesAcknowledged, patchMix, readAlertStates } from '../helpers/alert-history';
import { stopIfRunning } from '../durability/server-process';
import { startInstance, type Instance } from '../helpers/instances';
import { dialect } from '../helpers/test-database';
import { CLI } from './built-cli';
import { progressPrinter } from '../../src/cli/backup.command';

// `orgsec backup FILE` (issue 36, part 3): a copy of a live SQLite database, taken while an
// instance serves the PATCH mix, through SQLite's online backup API. The copy passes
// integrity_check, and served it answers each alert as one of the writes acknowledged to the
// source left it, never older than what was acknowledged before the copy began
// (helpers/alert-history.ts).

const describeOn = dialect === 'sqlite' ? describe : describe.skip;

describeOn('orgsec backup', () => {
  let dir: string;
  let source: string;
  let instance: Instance;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-backup-'));
    source = path.join(dir, 'live.sqlite');
    await prepareCrashDatabase(source);
    instance = await startInstance(source);
  }, 60_000);
  afterAll(async () => {
    await stopIfRunning(instance);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('copies the live database while it takes writes: the copy is whole, of one moment, and never older than the copy\'s start', async () => {
    const api = apiClient(instance.url, OWNER_TOKEN);
    const history = await readAlertStates(api);
    let running = true;
    const writing = patchMix(api, history, () => running);
    await moreWritesAcknowledged(history, 5);
    const acknowledgedBefore = acknowledgedSoFar(history);
    const progress: BackupProgress[] = [];
    // Two pages a step, each taking 3 ms (a slow disk's pace): the copy takes many steps, and the writes land between them.
    const copy = path.join(dir, 'copy.sqlite');
    const slowly = (p: BackupProgress) => {
      progress.push(p);
      for (const until = Date.now() + 3; Date.now() < until;);
    };
    const result = await backupSqliteFile(source, copy, { stepPages: 2, onProgress: slowly });
    running = false;
    await writing;

    expect(result.restarts).toBeGreaterThanOrEqual(1); // SQLite saw the writes and started again
    expect(progress.length).toBeGreaterThan(2);
    expect(result.copiedPages).toBe(result.totalPages);
    expect(fs.existsSync(`${copy}.partial`)).toBe(false);
    const check = new BetterSqlite3(copy, { readonly: true });
    expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
    check.close();

    const served = await startInstance(copy);
    try {
      const copied = await readAlertStates(apiClient(served.url, OWNER_TOKEN));
      expect(alertsNotFromHistory(copied, history, acknowledgedBefore)).toEqual([]);
    } finally {
      await stopIfRunning(served);
    }
  }, 60_000);

  it('as the built CLI: prints what it copied, refuses to overwrite, and sends PostgreSQL users to pg_dump', () => {
    const target = path.join(dir, 'cli.sqlite');
    const run = (...args: string[]) => spawnSync(process.execPath, [CLI, 'backup', ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
    const first = run(target, '--database', source);
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`^Backed up ${source} to ${target}: \\d+ pages, \\d+\\.\\d MB, in \\d+\\.\\d s\\.\\n$`));
    const again = run(target, '--database', source);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(`error: ${target} exists: a backup never overwrites a file, give it a new name\n`);
    const postgres = run(path.join(dir, 'pg.sqlite'), '--database', 'postgres://orgsec@db:5432/orgsec');
    expect(postgres.status).toBe(1);
    expect(postgres.stderr).toMatch(/for PostgreSQL use pg_dump/);
    expect(fs.existsSync(path.join(dir, 'pg.sqlite'))).toBe(false);
  });

  it('reports a copy of many steps at each tenth, and says when writes made it start again', () => {
    const lines: string[] = [];
    const print = progressPrinter({ out: () => undefined, err: (line) => lines.push(line) });
    const total = 10_000;
    for (const [copied, restarts] of [[0, 0], [1_500, 0], [2_500, 0], [2_600, 0], [400, 1], [9_999, 1], [10_000, 1]] as const) print({ copiedPages: copied, totalPages: total, restarts });
    expect(lines).toEqual([
      'backup: 10% (1,500 of 10,000 pages)',
      'backup: 20% (2,500 of 10,000 pages)',
      'backup: the database was written meanwhile; copying again from the start',
      'backup: 90% (9,999 of 10,000 pages)',
    ]);
  });
});
