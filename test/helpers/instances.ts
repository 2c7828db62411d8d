import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knexFactory from 'knex';
import { dialect } from './test-database';

// Real orgsec processes (the built CLI) over one shared database, as several instances
// behind a load balancer would be.

const CLI = path.join(__dirname, '..', '..', 'dist', 'src', 'cli', 'index.js');

export interface SharedDatabase {
  /** What every instance is given as --database. */
  url: string;
  drop(): Promise<void>;
}

/** A fresh database several processes can reach: a SQLite file, or a PostgreSQL schema named in the URL (the test's dialect unless told). */
export async function sharedDatabase(kind: typeof dialect = dialect): Promise<SharedDatabase> {
  const id = crypto.randomBytes(5).toString('hex');
  if (kind === 'postgres') {
    const base = process.env.TEST_DATABASE_URL!;
    const schema = `shared_${id}`;
    const admin = knexFactory({ client: 'pg', connection: base });
    await admin.raw('CREATE SCHEMA ??', [schema]);
    const url = `${base}${base.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    return { url, drop: async () => { await admin.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]); await admin.destroy(); } };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-shared-'));
  return { url: path.join(dir, 'shared.sqlite'), drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
}

export interface Instance {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `orgsec serve --port 0` over the database (with `env` added to its environment, `args` to its flags); resolves with its URL once it listens.
 * `cli` is this build's by default (another release's, for the upgrade tests).
 */
export function startInstance(databaseUrl: string, env: Record<string, string> = {}, args: readonly string[] = [], cli = CLI): Promise<Instance> {
  if (!fs.existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` (npm test does) before these tests`);
  const child = spawn(process.execPath, [cli, 'serve', ...args, '--port', '0', '--database', databaseUrl], {
    env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', DATABASE_URL: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`instance did not start:\n${output}`)); }, 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /serving at (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({
          url: match[1]!,
          process: child,
          stop: () => new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done(); // already ended (a signal leaves exitCode null)
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
        });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString(); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`instance exited (${code}):\n${output}`)); });
  });
}

/**
 * Starts `count` instances at once (as a deployment's replicas start). If one fails, the
 * others are stopped before the error is thrown: left running, they would hold locks on a
 * database the test is about to drop.
 */
export async function startInstances(count: number, databaseUrl: string, env: Record<string, string> = {}): Promise<Instance[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startInstance(databaseUrl, env)));
  const instances = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
  const failed = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (!failed) return instances;
  await Promise.all(instances.map((instance) => instance.stop()));
  throw failed.reason;
}

/** `orgsec load` of `world` (a world file's JSON) into the database, as an operator runs it; throws with its stderr if it fails. */
export function loadWorld(databaseUrl: string, world: unknown): void {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-world-')), 'world.json');
  fs.writeFileSync(file, JSON.stringify(world));
  const load = spawnSync(process.execPath, [CLI, 'load', file, '--database', databaseUrl], { encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  if (load.status !== 0) throw new Error(load.stderr);
}
