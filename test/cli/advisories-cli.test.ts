import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, cleanEnv, serveBuilt } from './built-cli';
import { fixtureFiles, OSV_FIXTURES, writeEpssFile } from '../helpers/advisory-import';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// `orgsec advisories import` and `import-epss` as users run them: the built CLI, a real process.

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function orgsec(args: string[]): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args], { env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let db: TestDatabase;
let dir: string;
beforeAll(async () => {
  db = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-advisories-cli-'));
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('orgsec advisories', () => {
  it('imports a folder and a malformed file: names the file with its reason, prints the summary, exits 1', async () => {
    const broken = path.join(dir, 'broken.json');
    fs.writeFileSync(broken, '[1, 2]');
    const run = await orgsec(['advisories', 'import', OSV_FIXTURES, broken, '--database', db.url]);
    expect(run.stdout.split('\n')).toEqual([
      `malformed: ${broken}: not an OSV object (the JSON is not an object)`,
      `${fixtureFiles().length} imported, 0 updated, 0 unchanged, 0 withdrawn, 1 skipped`,
      '',
    ]);
    expect(run.stderr).toBe('error: 1 malformed file(s), listed above; the others were imported\n');
    expect(run.code).toBe(1);
  }, 30_000);

  it('when run again on the same files, leaves them all unchanged and exits 0', async () => {
    const run = await orgsec(['advisories', 'import', OSV_FIXTURES, '--database', db.url]);
    expect(run).toEqual({ code: 0, stdout: `0 imported, 0 updated, ${fixtureFiles().length} unchanged, 0 withdrawn, 0 skipped\n`, stderr: '' });
  }, 30_000);

  it('imports EPSS scores from a gzipped file', async () => {
    const file = path.join(dir, 'epss_scores-2026-11-26.csv.gz');
    writeEpssFile(file, [['CVE-2022-25898', '0.00231', '0.61234'], ['CVE-2022-31090', 'x', '0.97']]);
    const run = await orgsec(['advisories', 'import-epss', file, '--database', db.url]);
    expect(run).toEqual({
      code: 0,
      stdout: `skipped: ${file} line 4: epss "x" is not a number from 0 to 1\n1 scores read (model v2025.03.14, scores of 2026-11-26T12:55:00Z), 1 advisories updated, 1 lines skipped\n`,
      stderr: '',
    });
  }, 30_000);

  it('refuses an EPSS file that does not exist, naming it', async () => {
    const missing = path.join(dir, 'missing.csv');
    expect(await orgsec(['advisories', 'import-epss', missing, '--database', db.url])).toEqual({ code: 1, stdout: '', stderr: `error: ${missing}: no such file\n` });
  }, 30_000);

  it('refuses an import naming a path that does not exist, before importing any other', async () => {
    const missing = path.join(dir, 'all.zip');
    const before = await db.knex('advisories').count({ n: '*' }).first();
    expect(await orgsec(['advisories', 'import', OSV_FIXTURES, missing, '--database', db.url])).toEqual({ code: 1, stdout: '', stderr: `error: ${missing}: no such file or folder\n` });
    expect(await db.knex('advisories').count({ n: '*' }).first()).toEqual(before);
  }, 30_000);

  it('shows examples in its help', async () => {
    const run = await orgsec(['advisories', 'import', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('$ orgsec advisories import advisory-database/advisories/github-reviewed');
    expect(run.stdout).toContain('osv-vulnerabilities.storage.googleapis.com/PyPI/all.zip');
  }, 30_000);

  it('serve --demo imports the real advisories of db/advisories after the demo world, and keeps the demo alerts', async () => {
    const demo = await createTestDatabase();
    try {
      const server = await serveBuilt(['--demo', '--port', '0', '--host', '127.0.0.1', '--database', demo.url], { LOG_LEVEL: 'silent' });
      await server.stop();
      expect(server.output).toContain(`Imported the demo advisories (db/advisories): ${fixtureFiles().length} imported, 0 updated, 0 unchanged, 0 withdrawn, 0 skipped.`);
      const ids = (await demo.knex('advisories').where('svcsa_id', 'like', 'GHSA-%').orderBy('svcsa_id').pluck('svcsa_id')) as string[];
      expect(ids).toEqual(fixtureFiles().map((file) => path.basename(file, '.json')).sort());
      expect(Number((await demo.knex('dependency_alerts').count({ n: '*' }))[0]!.n)).toBeGreaterThan(0);
    } finally {
      await demo.destroy();
    }
  }, 60_000);
});
