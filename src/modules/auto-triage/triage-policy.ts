import type { Knex } from 'knex';

// The seam between the alert engine (src/modules/alert-engine) and auto-triage
// (interfaces.md Part 2 "Auto-triage rules"; reference.md Part 2 "Alert lifecycle"): the engine
// asks, per repository, which alerts a rule or preset dismisses; auto-triage answers from the
// rules, the presets and the repository's visibility, read in the engine's transaction.

/** What auto-triage may look at in one alert: its dependency and its advisory, as they are now. */
export interface TriageFacts {
  ecosystem: string;
  packageName: string;
  manifestPath: string;
  scope: 'development' | 'runtime';
  /** The advisory's severity: low | medium | high | critical. */
  severity: string;
  /** `CWE-<n>` ids of the advisory. */
  cweIds: readonly string[];
  svcsaId: string;
  cveId: string | null;
  /** Whether the matching vulnerability has a first patched version. */
  hasPatch: boolean;
}

/** Why an alert is auto-dismissed: a rule (its id) or the preset. */
export type TriageMatch = { kind: 'rule'; ruleId: number; action: 'dismiss' | 'dismiss_until_patch' } | { kind: 'preset'; preset: 'low_impact_development' };

/**
 * One repository's policy: the match that auto-dismisses an alert with these facts, or null.
 * A `dismiss_until_patch` rule does not match an alert whose vulnerability has a patch.
 */
export type TriagePolicy = (facts: TriageFacts) => TriageMatch | null;

export interface TriagePolicies {
  /** The policy of each repository asked for (every id present in the answer). */
  forRepositories(db: Knex | Knex.Transaction, repoIds: readonly number[]): Promise<Map<number, TriagePolicy>>;
}
