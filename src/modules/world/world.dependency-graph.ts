import { toSnapshotInput } from '../dependency-graph/dependency-graph.schemas';
import type { DependencySnapshotsStore } from '../dependency-graph/dependency-snapshots.store';
import { recordSnapshot } from '../dependency-graph/snapshot-recording';
import type { World } from './world.schema';
import type { SectionContext } from './world.accounts';

/**
 * `dependency_snapshots`, in order, through S1's own recording (checked by S1's schema). A
 * snapshot already stored (same job, detector, commit, ref and scan time) is skipped: loading
 * a world twice changes nothing.
 */
export async function loadDependencySnapshots(ctx: SectionContext, snapshots: World['dependency_snapshots'], store: DependencySnapshotsStore): Promise<void> {
  const { trx, refs, now } = ctx;
  for (const [i, { repository, ...body }] of snapshots.entries()) {
    const repo = await refs.repo(`dependency_snapshots[${i}] "${repository}"`, repository);
    const input = toSnapshotInput(body);
    if (await store.isStored(trx, repo.id, input)) continue;
    await recordSnapshot(trx, store, repo.id, input, now);
  }
}
