import type { Knex } from 'knex';
import type { SnapshotEvaluation } from '../alert-engine/alert-reevaluation';
import type { SnapshotInput, SnapshotReceipt } from './dependency-graph.types';
import type { DependencySnapshotsStore } from './dependency-snapshots.store';

/**
 * Stores a checked submission and applies it when it is for the default branch and no newer
 * scan of its (correlator, detector) is current: S1's work after authorization, and the
 * world files' `dependency_snapshots`, in the caller's transaction. An applied snapshot
 * re-evaluates the repository's alerts in that transaction, so the next read sees them.
 */
export async function recordSnapshot(
  trx: Knex.Transaction,
  deps: { snapshots: DependencySnapshotsStore; alerts: SnapshotEvaluation },
  repoId: number,
  input: SnapshotInput,
  now: string,
): Promise<SnapshotReceipt> {
  const store = deps.snapshots;
  const defaultRef = `refs/heads/${await store.defaultBranchOf(trx, repoId)}`;
  const id = await store.insert(trx, repoId, input, 'ACCEPTED', now);
  if (input.ref !== defaultRef) {
    return { id, createdAt: now, result: 'ACCEPTED', message: `The snapshot was stored, but ${input.ref} is not the default branch (${defaultRef}): it does not change the repository's dependencies.` };
  }
  if (!(await store.makeCurrent(trx, repoId, input, id))) {
    return { id, createdAt: now, result: 'ACCEPTED', message: 'The snapshot was stored, but a snapshot scanned later for the same job correlator and detector is current: it does not change the repository\'s dependencies.' };
  }
  await store.setResult(trx, id, 'SUCCESS');
  await deps.alerts.afterSnapshot(trx, repoId, { snapshotId: id, input }, now);
  return { id, createdAt: now, result: 'SUCCESS', message: 'Dependency results for the repository have been successfully updated.' };
}
