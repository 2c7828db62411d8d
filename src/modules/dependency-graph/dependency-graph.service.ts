import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import type { SnapshotEvaluation } from '../alert-engine/alert-reevaluation';
import { withTransaction } from '../../database/transaction';
import { nowTimestamp } from '../../shared/time';
import type { RepositoryRecord } from '../accounts/accounts.types';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import { currentDependencies } from './current-dependencies';
import type { CurrentDependency, SnapshotInput, SnapshotReceipt } from './dependency-graph.types';
import type { DependencySnapshotsStore } from './dependency-snapshots.store';
import type { SnapshotQueue, SnapshotRequestWork } from './snapshot-queue';
import type { SnapshotQueueStore } from './snapshot-queue.store';
import { recordSnapshot } from './snapshot-recording';
import { actorOf } from '../audit-log/audit-actors';
import type { AuditRecorder } from '../audit-log/audit-recorder';
import type { AuditActor } from '../audit-log/audit-log.types';

/** A repository's current dependencies, with what an SBOM of them names. */
export interface RepositoryDependencies {
  repo: RepositoryRecord;
  defaultBranch: string;
  /** When the newest current snapshot was received; null when there is none. */
  updatedAt: string | null;
  dependencies: CurrentDependency[];
}

/** Interfaces.md Part 2, S1–S2: dependency snapshots in, the current dependency set out. */
export class DependencyGraphService {
  constructor(private readonly deps: {
    db: Knex; lookups: AuthorizedLookups; snapshots: DependencySnapshotsStore; alerts: SnapshotEvaluation; queue: SnapshotQueue; queueStore: SnapshotQueueStore; audit: AuditRecorder;
  }) {}

  /**
   * S1: stores a checked submission and applies it to the default branch's dependencies when
   * it is for it, at once or, while the instance answers others, through the queue
   * (snapshot-queue.ts). The request's own work, from `work.startedAt`, is charged to the
   * share of snapshot work whatever the outcome.
   */
  async submit(principal: Principal, owner: string, name: string, input: SnapshotInput, work: SnapshotRequestWork = {}): Promise<SnapshotReceipt> {
    const startedAt = work.startedAt ?? performance.now();
    // REST admits a snapshot before its body is read (dependency-graph.routes.ts); GraphQL here.
    const admission = work.admission ?? await this.deps.queue.admit(this.deps.db);
    let applied = false;
    try {
      const queue = this.deps.queue.shouldQueue(admission, work);
      const receipt = await withTransaction(this.deps.db, async (trx) => {
        const repo = await this.deps.lookups.repo(trx, principal, 'createDependencySnapshot', owner, name);
        return this.record(trx, repo, input, actorOf(principal), queue);
      });
      applied = receipt.result === 'SUCCESS';
      if (receipt.queued) this.deps.queue.queued();
      return receipt;
    } finally {
      admission.finish((performance.now() - startedAt) / 1000, { applied });
    }
  }

  /** A snapshot of a repository the operator names (`orgsec sbom submit`): applied at once, recorded as the command's. */
  async submitAsOperator(repo: RepositoryRecord, input: SnapshotInput, actor: AuditActor): Promise<SnapshotReceipt> {
    return withTransaction(this.deps.db, (trx) => this.record(trx, repo, input, actor, false));
  }

  /** S1's work after authorization, and its audit-log record, in the caller's transaction. */
  private async record(trx: Knex.Transaction, repo: RepositoryRecord, input: SnapshotInput, actor: AuditActor, queue: boolean): Promise<SnapshotReceipt> {
    const recorded = await recordSnapshot(trx, { snapshots: this.deps.snapshots, alerts: this.deps.alerts, queue: this.deps.queueStore }, repo.id, input, nowTimestamp(), { queue });
    await this.deps.audit.record(trx, actor, [{
      action: 'dependency_snapshot.create', operation: 'create', repo,
      data: {
        snapshot_id: recorded.id, result: recorded.result, sha: input.sha, ref: input.ref, job_correlator: input.job.correlator, detector: input.detector.name,
        manifests: input.manifests.length,
      },
    }]);
    return recorded;
  }

  /** S2's reading: the repository's current dependency set (also GraphQL's `dependencies`). */
  async current(principal: Principal, owner: string, name: string): Promise<RepositoryDependencies> {
    const { db, snapshots } = this.deps;
    const repo = await this.deps.lookups.repo(db, principal, 'getDependencySbom', owner, name);
    const contributions = await snapshots.currentContributions(db, repo.id);
    const updatedAt = contributions.reduce<string | null>((latest, c) => (latest === null || c.createdAt > latest ? c.createdAt : latest), null);
    return { repo, defaultBranch: await snapshots.defaultBranchOf(db, repo.id), updatedAt, dependencies: currentDependencies(contributions) };
  }
}
