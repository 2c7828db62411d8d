import type { Knex } from 'knex';
import type { AutoTriageStore } from './auto-triage.store';
import type { TriagePolicies, TriagePolicy } from './triage-policy';
import { triagePolicy } from './triage-rules';

/** The TriagePolicies seam over the rules and presets as stored, read in the caller's transaction. */
export class StoreTriagePolicies implements TriagePolicies {
  constructor(private readonly deps: { store: AutoTriageStore }) {}

  async forRepositories(db: Knex | Knex.Transaction, repoIds: readonly number[]): Promise<Map<number, TriagePolicy>> {
    const sources = await this.deps.store.policySources(db, [...new Set(repoIds)]);
    const policies = new Map(sources.map((source) => [source.repoId, triagePolicy(source)] as const));
    // Every id asked for answers; a repository that no longer exists has no rules and no preset.
    for (const id of repoIds) if (!policies.has(id)) policies.set(id, () => null);
    return policies;
  }
}
