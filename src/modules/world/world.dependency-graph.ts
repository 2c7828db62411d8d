import type { AlertReevaluation, SnapshotEvaluation } from '../alert-engine/alert-reevaluation';
import { toSnapshotInput } from '../dependency-graph/dependency-graph.schemas';
import type { DependencySnapshotsStore } from '../dependency-graph/dependency-snapshots.store';
import type { SnapshotQueueStore } from '../dependency-graph/snapshot-queue.store';
import { recordSnapshot } from '../dependency-graph/snapshot-recording';
import type { World } from './world.schema';
import type { SectionContext } from './world.accounts';

/**
 * `dependency_snapshots`, in order, through S1's own recording (checked by S1's schema). A
 * snapshot already stored (same job, detector, commit, ref and scan time) is skipped: loading
 * a world twice changes nothing. Then every repository with an applied snapshot is evaluated
 * again: the world's advisories and declared alerts may have changed under its snapshots.
 */
export async function loadDependencySnapshots(
  ctx: SectionContext,
  snapshots: World['dependency_snapshots'],
  deps: { snapshots: DependencySnapshotsStore; alerts: AlertReevaluation & SnapshotEvaluation; queue: SnapshotQueueStore },
): Promise<void> {
  const store = deps.snapshots;
  const { trx, refs, now } = ctx;
  for (const [i, { repository, ...body }] of snapshots.entries()) {
    const repo = await refs.repo(`dependency_snapshots[${i}] "${repository}"`, repository);
    const input = toSnapshotInput(body);
    if (await store.isStored(trx, repo.id, input)) continue;
    await recordSnapshot(trx, deps, repo.id, input, now);
  }
  // A load may change advisories or alerts the snapshots' alerts depend on: those repositories again.
  const withSnapshots = await store.repositoriesWithSnapshots(trx);
  if (withSnapshots.length > 0) await deps.alerts.repositories(trx, withSnapshots, now);
}
