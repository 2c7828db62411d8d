import type { Executor } from '../../database/transaction';

/** A stored snapshot waiting to be applied. */
export interface QueuedSnapshot {
  snapshotId: number;
  repoId: number;
  attempts: number;
}

/**
 * The queue of stored snapshots not yet applied (dependency_snapshot_queue). It is read and
 * changed inside write transactions only: those take the one write lock first (SQLite's, or
 * PostgreSQL's data_versions row, database/dialect.ts takeWriteLock), so the oldest row is
 * the next for every instance at once and no two workers can take the same one.
 */
export class SnapshotQueueStore {
  async enqueue(db: Executor, snapshotId: number, repoId: number): Promise<void> {
    await db('dependency_snapshot_queue').insert({ snapshot_id: snapshotId, repo_id: repoId, attempts: 0 });
  }

  /** Whether a snapshot of this repository waits: a new one must then wait behind it (applied in order). */
  async holdsRepository(db: Executor, repoId: number): Promise<boolean> {
    return (await db('dependency_snapshot_queue').where('repo_id', repoId).first('snapshot_id')) !== undefined;
  }

  /** How many wait, all repositories together. */
  async length(db: Executor): Promise<number> {
    const row = await db('dependency_snapshot_queue').count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  /** The oldest waiting snapshot: the queue is applied in the order it was filled. */
  async oldest(db: Executor): Promise<QueuedSnapshot | undefined> {
    const row = await db('dependency_snapshot_queue').orderBy('snapshot_id').first('snapshot_id', 'repo_id', 'attempts');
    return row === undefined ? undefined : { snapshotId: Number(row.snapshot_id), repoId: Number(row.repo_id), attempts: Number(row.attempts) };
  }

  async remove(db: Executor, snapshotId: number): Promise<void> {
    await db('dependency_snapshot_queue').where('snapshot_id', snapshotId).delete();
  }

  /** Counts a failed attempt at applying it; answers the attempts so far. */
  async countFailure(db: Executor, snapshotId: number): Promise<number> {
    await db('dependency_snapshot_queue').where('snapshot_id', snapshotId).increment('attempts', 1);
    const row = await db('dependency_snapshot_queue').where('snapshot_id', snapshotId).first('attempts');
    return Number(row?.attempts ?? 0);
  }
}
