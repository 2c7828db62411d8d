import type { Knex } from 'knex';
import type { SnapshotEvaluation } from '../alert-engine/alert-reevaluation';
import type { SnapshotInput, SnapshotReceipt } from './dependency-graph.types';
import type { DependencySnapshotsStore } from './dependency-snapshots.store';
import type { SnapshotQueueStore } from './snapshot-queue.store';

const QUEUED_MESSAGE = 'The snapshot was stored and queued: it will be applied to the repository\'s dependencies shortly, after the snapshots queued before it.';
const APPLIED_MESSAGE = 'Dependency results for the repository have been successfully updated.';
const SUPERSEDED_MESSAGE = 'The snapshot was stored, but a snapshot scanned later for the same job correlator and detector is current: it does not change the repository\'s dependencies.';

/**
 * Stores a checked submission and, when it is for the default branch, applies it, or queues
 * it for a worker (snapshot-worker.ts) when `queue` says so or a snapshot of the repository
 * waits already (snapshots are applied in order): S1's work after authorization, and the
 * world files' `dependency_snapshots`, in the caller's transaction. A snapshot of another ref
 * is stored only.
 */
export async function recordSnapshot(
  trx: Knex.Transaction,
  deps: { snapshots: DependencySnapshotsStore; alerts: SnapshotEvaluation; queue: SnapshotQueueStore },
  repoId: number,
  input: SnapshotInput,
  now: string,
  { queue = false }: { queue?: boolean } = {},
): Promise<SnapshotReceipt> {
  const store = deps.snapshots;
  const defaultRef = `refs/heads/${await store.defaultBranchOf(trx, repoId)}`;
  const id = await store.insert(trx, repoId, input, 'ACCEPTED', now);
  if (input.ref !== defaultRef) {
    return { id, createdAt: now, result: 'ACCEPTED', queued: false, message: `The snapshot was stored, but ${input.ref} is not the default branch (${defaultRef}): it does not change the repository's dependencies.` };
  }
  if (queue || await deps.queue.holdsRepository(trx, repoId)) {
    await deps.queue.enqueue(trx, id, repoId);
    await store.markQueued(trx, id, new Date().toISOString());
    return { id, createdAt: now, result: 'ACCEPTED', message: QUEUED_MESSAGE, queued: true };
  }
  const result = await applySnapshot(trx, deps, repoId, id, input, now);
  return { id, createdAt: now, ...result, queued: false };
}

/**
 * Applies a stored snapshot of the default branch: it becomes the current one of its
 * (correlator, detector) unless one scanned later is, and the repository's alerts are
 * evaluated again, all in the caller's transaction, so the next read sees them.
 */
export async function applySnapshot(
  trx: Knex.Transaction,
  deps: { snapshots: DependencySnapshotsStore; alerts: SnapshotEvaluation },
  repoId: number,
  snapshotId: number,
  input: SnapshotInput,
  now: string,
): Promise<Pick<SnapshotReceipt, 'result' | 'message'>> {
  if (!(await deps.snapshots.makeCurrent(trx, repoId, input, snapshotId))) return { result: 'ACCEPTED', message: SUPERSEDED_MESSAGE };
  await deps.snapshots.markApplied(trx, snapshotId, new Date().toISOString());
  await deps.alerts.afterSnapshot(trx, repoId, { snapshotId, input }, now);
  return { result: 'SUCCESS', message: APPLIED_MESSAGE };
}
