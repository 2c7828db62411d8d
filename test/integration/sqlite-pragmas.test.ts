import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { openDatabase, type Database } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { withTransaction } from '../../src/database/transaction';
import { createTestDatabase, dialect, type TestDatabase } from '../helpers/test-database';

// The SQLite settings durability and concurrency rest on, and the write lock every
// write transaction takes up front. PostgreSQL has neither pragmas nor a database-wide
// write lock (it locks rows, FOR UPDATE), so there is nothing of this to check on it.

const CLI = path.join(__dirname, '..', '..', 'dist', 'src', 'cli', 'index.js');
const describeOnSqlite = dialect === 'sqlite' ? describe : describe.skip;
const READ_THEN_WRITE_WORKER = path.join(__dirname, '..', 'durability', 'read-then-write.worker.js');

interface WorkerReport {
  /** How many times a transaction body ran (more than asked: a retry). */
  attempts: number;
  /** Codes of every failed statement. */
  errors: string[];
  /** The counter values its transactions wrote, in order. */
  written: number[];
}

/** Starts a read-then-write worker process; `go` starts its transactions, `done` is its report. */
function startWorker(args: string[]): { ready: Promise<void>; go(): void; done: Promise<WorkerReport> } {
  const child = spawn(process.execPath, [READ_THEN_WRITE_WORKER, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  let onReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => { onReady = resolve; });
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    if (out.startsWith('ready\n')) onReady();
  });
  child.stderr!.on('data', (chunk: Buffer) => { err += chunk.toString(); });
  const done = new Promise<WorkerReport>((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out.slice('ready\n'.length))) : reject(new Error(`worker exited ${code}: ${err}`))));
  });
  return { ready, go: () => child.stdin!.end('go\n'), done };
}

/** Whether the values are one unbroken run (n, n+1, ...): nobody else wrote in between. */
function isOneRun(values: number[]): boolean {
  return values.every((v, i) => v === values[0]! + i);
}

/** A new account row: a real write to a real table. */
function account(login: string) {
  const now = '2026-01-01T00:00:00Z';
  return { login, login_key: login, type: 'User', created_at: now, updated_at: now };
}

/** How a statement ended: 'done', or the driver's error code. */
async function outcome(statement: Promise<unknown>): Promise<string> {
  return statement.then(() => 'done', (error: { code?: string }) => error.code ?? String(error));
}

describeOnSqlite('SQLite settings (PostgreSQL has no pragmas: skipped there)', () => {
  let db: TestDatabase;
  /** A second connection over the same file, as another orgsec process would open it. */
  let other: Database;

  beforeAll(async () => {
    db = await createTestDatabase();
    other = openDatabase(db.url);
    // Refuse at once instead of waiting, so a held write lock shows as SQLITE_BUSY.
    await other.knex.raw('PRAGMA busy_timeout = 0');
  });

  afterAll(async () => {
    await other?.close();
    await db?.destroy();
  });

  it('a database orgsec opens runs in WAL mode with synchronous NORMAL, foreign keys on and a 5 s busy timeout', async () => {
    const read = async (pragma: string) => Object.values((await db.knex.raw(`PRAGMA ${pragma}`))[0] as object)[0];
    expect({
      journal_mode: await read('journal_mode'),
      synchronous: await read('synchronous'),
      foreign_keys: await read('foreign_keys'),
      busy_timeout: await read('busy_timeout'),
    }).toEqual({ journal_mode: 'wal', synchronous: 1, foreign_keys: 1, busy_timeout: 5000 });
  });

  it('an in-memory database, which cannot run in WAL mode, is refused at start-up with an error naming journal_mode', async () => {
    const memory = openDatabase(':memory:');
    try {
      await expect(migrateLatest(memory)).rejects.toThrow('SQLite database ":memory:" refused its settings (journal_mode is "memory", expected "wal")');
    } finally {
      await memory.close();
    }
  });

  it('orgsec serve over a database that refuses WAL exits 1 with that one error line and never listens', () => {
    if (!fs.existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` before this test');
    const run = spawnSync(process.execPath, [CLI, 'serve', '--port', '0', '--database', ':memory:'], {
      encoding: 'utf8', timeout: 20_000, env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', DATABASE_URL: '' },
    });
    expect(run.status).toBe(1);
    expect(run.stdout).not.toContain('serving at');
    expect(run.stderr.trim()).toMatch(/^error: SQLite database ":memory:" refused its settings \(journal_mode is "memory", expected "wal"\)/);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  describe('write transactions take the write lock before their first read', () => {
    const login = () => `lock-${crypto.randomBytes(4).toString('hex')}`;
    const exists = async (knex: Knex, name: string) => (await knex('accounts').where('login_key', name).first('id')) !== undefined;

    it('while a read-then-write transaction has only read, another process cannot write; afterwards it can', async () => {
      const mine = login();
      const theirs = login();
      const whileOpen = await withTransaction(db.knex, async (trx) => {
        await trx('accounts').count({ n: '*' });
        const attempt = await outcome(other.knex('accounts').insert(account(theirs)));
        await trx('accounts').insert(account(mine));
        return attempt;
      });
      expect(whileOpen).toBe('SQLITE_BUSY');
      expect(await outcome(other.knex('accounts').insert(account(theirs)))).toBe('done');
      expect([await exists(db.knex, mine), await exists(db.knex, theirs)]).toEqual([true, true]);
    });

    it('without the lock up front, a read-then-write transaction fails half-way when another process writes in between', async () => {
      const mine = login();
      const theirs = login();
      // Plain knex: BEGIN is deferred, so the read takes a snapshot and no write lock.
      const result = await outcome(db.knex.transaction(async (trx) => {
        await trx('accounts').count({ n: '*' });
        expect(await outcome(other.knex('accounts').insert(account(theirs)))).toBe('done');
        await trx('accounts').insert(account(mine));
      }));
      expect(result).toBe('SQLITE_BUSY_SNAPSHOT');
      expect([await exists(db.knex, mine), await exists(db.knex, theirs)]).toEqual([false, true]);
    });

    it('two processes doing read-then-write transactions on one file at once take turns: no statement fails, none runs again, no update is lost', async () => {
      if (!fs.existsSync(path.join(__dirname, '..', '..', 'dist', 'src', 'database', 'transaction.js'))) throw new Error('dist/ is missing: run `npm run build`');
      const counter = login();
      const perProcess = 40;
      await db.knex('accounts').insert({ ...account(counter), name: '0' });
      const workers = [0, 1].map(() => startWorker([db.url, counter, String(perProcess)]));
      await Promise.all(workers.map((w) => w.ready));
      for (const worker of workers) worker.go();
      const reports = await Promise.all(workers.map((w) => w.done));
      for (const report of reports) expect({ errors: report.errors, attempts: report.attempts }).toEqual({ errors: [], attempts: perProcess });
      // Every value from 1 to 2n written exactly once: no two transactions read the same value.
      const all = reports.flatMap((r) => r.written).sort((a, b) => a - b);
      expect(all).toEqual(Array.from({ length: 2 * perProcess }, (_, i) => i + 1));
      expect((await db.knex('accounts').where('login_key', counter).first('name')).name).toBe(String(2 * perProcess));
      // They really overlapped: each process's writes are broken up by the other's.
      expect(reports.map((r) => isOneRun(r.written))).toEqual([false, false]);
    });
  });
});

describeOnSqlite('SQLITE_FAST_PATHS', () => {
  it('the test database takes the SQLite shortcuts exactly when its jest project or environment asks for them', async () => {
    const asked = process.env.SQLITE_FAST_PATHS === 'on' || (globalThis as { SQLITE_FAST_PATHS?: string }).SQLITE_FAST_PATHS === 'on';
    const db = await createTestDatabase();
    try {
      expect(db.sqliteFastPaths).toBe(asked);
    } finally {
      await db.destroy();
    }
  });
});
