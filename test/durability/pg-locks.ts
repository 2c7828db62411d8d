import type { Knex } from 'knex';

// PostgreSQL's view of transactions and row locks, to stop an instance's transaction at a
// known point (waiting on a row this test holds) and to see what is left after its process dies.

const WAIT_STEP_MS = 25;

async function waitFor<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
  }
}

export interface HeldLock {
  /** The backend holding the lock. */
  pid: number;
  release(): Promise<void>;
}

/** Locks rows FOR UPDATE in a transaction of its own and keeps them until released. */
export async function holdRowLock(knex: Knex, table: string, where: Record<string, unknown>): Promise<HeldLock> {
  const trx = await knex.transaction();
  const { rows } = await trx.raw('SELECT pg_backend_pid() AS pid');
  const locked = await trx(table).where(where).forUpdate().select('*');
  if (locked.length === 0) throw new Error(`no ${table} row matches ${JSON.stringify(where)}`);
  return { pid: rows[0].pid, release: async () => { await trx.rollback(); } };
}

export interface BlockedBackend {
  pid: number;
  /** The statement it waits in. */
  query: string;
  /** Its transaction id: set once the transaction has written something. */
  xid: string | null;
}

/** Waits until some backend is blocked by `holderPid`'s locks, and answers it. */
export function waitForBackendBlockedBy(knex: Knex, holderPid: number, timeoutMs = 15_000): Promise<BlockedBackend> {
  return waitFor(`a backend blocked by ${holderPid}`, timeoutMs, async () => {
    const { rows } = await knex.raw('SELECT pid, query, backend_xid::text AS xid FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))', [holderPid]);
    return rows[0];
  });
}

/** Waits until the backend has ended (PostgreSQL ended its session and rolled back what it had open). */
export function waitForBackendGone(knex: Knex, pid: number, timeoutMs = 15_000): Promise<true> {
  return waitFor(`backend ${pid} to end`, timeoutMs, async () => {
    const { rows } = await knex.raw('SELECT 1 FROM pg_stat_activity WHERE pid = ?', [pid]);
    return rows.length === 0 ? true : undefined;
  });
}

/** Whether another transaction holds a lock on the rows (tried FOR UPDATE NOWAIT, then let go). */
export async function isRowLocked(knex: Knex, table: string, where: Record<string, unknown>): Promise<boolean> {
  try {
    await knex.transaction(async (trx) => { await trx(table).where(where).forUpdate().noWait().select('*'); });
    return false;
  } catch (error) {
    if ((error as { code?: string }).code === '55P03') return true; // lock_not_available
    throw error;
  }
}

/** How many locks of any kind a backend holds. */
export async function locksHeldBy(knex: Knex, pid: number): Promise<number> {
  const { rows } = await knex.raw('SELECT count(*)::int AS n FROM pg_locks WHERE pid = ? AND granted', [pid]);
  return rows[0].n;
}

