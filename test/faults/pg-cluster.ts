import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../bench/processes';

// A PostgreSQL server of the fault tests' own (initdb into a temporary directory, its own
// port): these tests restart it, stop it and end its sessions, which the server the rest of
// the suite shares must never see. PostgreSQL refuses to run as root, so as root the
// server runs as the `postgres` user.

export interface PrivateCluster {
  /** A connection URL to its `orgsec` database. */
  url: string;
  port: number;
  /** `pg_ctl restart -m fast`: every session ends, the server is back when this returns. */
  restart(): void;
  /** `pg_ctl stop -m fast`: the port refuses connections until start(). */
  stop(): void;
  start(): void;
  /** pg_terminate_backend on every session but the caller's (a failover's dropped connections). */
  terminateSessions(): number;
  /** Rows of a query, through psql (on the `orgsec` database unless told). */
  psql(sql: string, database?: string): string;
  /** Runs one of the server's tools (pg_dump, pg_restore, …) as the server's user, without blocking; answers its stdout. */
  tool(command: string, args: string[]): Promise<string>;
  /** A directory the server's user may write (dumps go there). */
  dir: string;
  /** A connection URL to another database of this server. */
  urlOf(database: string): string;
  destroy(): void;
}

const BIN = ['/usr/lib/postgresql/15/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/17/bin'].find((dir) => fs.existsSync(path.join(dir, 'initdb')));

export async function startPrivateCluster(): Promise<PrivateCluster> {
  if (BIN === undefined) throw new Error('PostgreSQL server binaries (initdb, pg_ctl) are not installed: the fault tests need them');
  const asRoot = process.getuid?.() === 0;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-pg-'));
  const data = path.join(dir, 'data');
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    fs.chownSync(dir, uid, gid);
  }
  const invocation = (command: string, args: string[]): [string, string[]] => (asRoot ? ['runuser', ['-u', 'postgres', '--', path.join(BIN, command), ...args]] : [path.join(BIN, command), args]);
  const run = (command: string, args: string[]) => {
    const [file, argv] = invocation(command, args);
    const result = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}): ${result.stderr}${result.stdout}`);
    return result.stdout;
  };
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  // fsync off: a test server's durability is the kernel's; the faults here are the server's and the network's.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60`;
  const pgCtl = (...args: string[]) => run('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', options, '-w', '-t', '30', ...args]);
  pgCtl('start');
  const psql = (sql: string, database = 'orgsec') => run('psql', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-d', database, '-AtXq', '-v', 'ON_ERROR_STOP=1', '-c', sql]).trim();
  psql('CREATE DATABASE orgsec', 'postgres');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/orgsec`,
    port,
    restart: () => { pgCtl('restart', '-m', 'fast'); },
    stop: () => { pgCtl('stop', '-m', 'fast'); },
    start: () => { pgCtl('start'); },
    terminateSessions: () => Number(psql("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'orgsec' AND pid <> pg_backend_pid()")),
    psql: (sql, database) => psql(sql, database),
    tool: (command, args) => new Promise((resolve, reject) => {
      const [file, argv] = invocation(command, args);
      const child = spawn(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
      child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
      child.once('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} ${args.join(' ')} failed (${code}): ${stderr}`))));
    }),
    dir,
    urlOf: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    destroy: () => {
      try { pgCtl('stop', '-m', 'immediate'); } catch { /* already stopped */ }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
