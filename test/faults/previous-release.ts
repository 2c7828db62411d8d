import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// The release before the newest migration, built from this repository's history, for the
// rolling-upgrade test: `git archive` of the parent of the newest commit that added a file to
// db/migrations, compiled with this checkout's node_modules when both lockfiles agree (else
// installed with `npm ci`). Built once per commit and checkout into the temporary directory: a
// build linked to another checkout's node_modules breaks when that checkout is removed.

const ROOT = path.join(__dirname, '..', '..');

export interface Release {
  commit: string;
  /** Its built CLI (dist/src/cli/index.js). */
  cli: string;
  /** The migrations it knows, by name. */
  migrations: string[];
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: 600_000 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed in ${cwd} (${result.status}):\n${result.stdout}${result.stderr}`);
}

export function buildPreviousRelease(): Release {
  if (git('rev-parse', '--is-shallow-repository') === 'true') throw new Error('the upgrade test needs the repository\'s history: this clone is shallow (git fetch --unshallow)');
  // The commit that added the newest migration file (a later edit of it is not a new migration).
  const newestMigration = git('log', '-1', '--diff-filter=A', '--format=%H', '--', 'db/migrations');
  const commit = git('rev-parse', `${newestMigration}^`);
  const checkout = createHash('sha256').update(ROOT).digest('hex').slice(0, 8);
  const dir = path.join(os.tmpdir(), `orgsec-release-${commit.slice(0, 12)}-${checkout}`);
  const cli = path.join(dir, 'dist', 'src', 'cli', 'index.js');
  // existsSync follows the link: a dangling node_modules means building again.
  const usable = fs.existsSync(cli) && fs.existsSync(path.join(dir, 'node_modules', '.package-lock.json'));
  if (!usable) {
    const building = `${dir}.building-${process.pid}`;
    fs.rmSync(building, { recursive: true, force: true });
    fs.mkdirSync(building);
    execFileSync('sh', ['-c', `git archive ${commit} | tar -x -C "${building}"`], { cwd: ROOT });
    const sameLock = spawnSync('git', ['diff', '--quiet', commit, 'HEAD', '--', 'package-lock.json'], { cwd: ROOT }).status === 0;
    if (sameLock) fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(building, 'node_modules'), 'dir');
    else run('npm', ['ci', '--no-audit', '--no-fund'], building);
    run(process.execPath, [path.join(building, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'tsconfig.json'], building);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(building, dir);
  }
  const migrations = fs.readdirSync(path.join(dir, 'db', 'migrations')).filter((f) => /^\d{14}_.*\.ts$/.test(f)).map((f) => f.replace(/\.ts$/, ''));
  return { commit, cli, migrations };
}
