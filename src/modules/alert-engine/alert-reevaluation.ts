import type { Knex } from 'knex';
import type { SnapshotInput } from '../dependency-graph/dependency-graph.types';

// What a change elsewhere (a snapshot, an advisory import, a rule or preset) calls so that the
// next read sees its effect on alerts (interfaces.md Part 2): the alert engine re-evaluates the
// repositories in the changing transaction. Implemented by the alert engine in this module.

export interface AlertReevaluation {
  /**
   * Brings every alert of these repositories in line with their current dependencies, the
   * advisory database and their triage policy, writing each transition and its event in `trx`.
   * `now` is the transition time every changed alert gets.
   */
  repositories(trx: Knex.Transaction, repoIds: readonly number[], now: string): Promise<void>;
}

/** What an advisory import calls after writing advisories (src/modules/advisories). */
export interface AdvisoryReevaluation {
  /**
   * Brings the alerts of these advisories, and their findings, in line in every repository they
   * may concern (those whose current dependencies hold a package they name, those with alerts
   * of them), writing each transition and its event in `trx`.
   */
  advisories(trx: Knex.Transaction, advisoryIds: readonly number[], now: string): Promise<void>;
}

/** What applying a dependency snapshot calls (src/modules/dependency-graph/snapshot-recording.ts). */
export interface SnapshotEvaluation {
  /**
   * repositories(trx, [repoId], now) right after the snapshot `snapshotId` (`input`) was stored
   * and made current in `trx`: its packages are taken as submitted, not read back.
   */
  afterSnapshot(trx: Knex.Transaction, repoId: number, applied: { snapshotId: number; input: SnapshotInput }, now: string): Promise<void>;
}
