import type { Knex } from 'knex';
import type { BatchLookup } from '../../cache/cached-batch';
import type { MatchableRange } from '../advisories/affects-matching';
import type { PackageRow } from '../advisories/advisories.store';
import type { AdvisoryLookupStore } from '../advisories/advisories.lookup-store';
import type { TriagePolicies, TriagePolicy } from '../auto-triage/triage-policy';
import type { AlertEvent, AlertEvents, EventRow } from '../dependency-alerts/alert-events';
import { transitionChanges } from '../dependency-alerts/alert-lifecycle';
import type { AlertChanges } from '../dependency-alerts/alerts.store';
import { currentDependencies, manifestPathOf } from '../dependency-graph/current-dependencies';
import type { SnapshotInput } from '../dependency-graph/dependency-graph.types';
import type { DependencySnapshotsStore } from '../dependency-graph/dependency-snapshots.store';
import { matchFindings, matchable, raisingFindings, rowIdsByPackage, type Finding } from './alert-findings';
import { AdvisoryFacts, planTransitions, type Plan } from './alert-planning';
import type { DependencyIndexStore, MatchableDependency } from './dependency-index.store';
import { numberKey, type AlertEngineStore, type AlertRefresh, type EngineAlert, type EngineAlertRow } from './alert-engine.store';
import type { AdvisoryReevaluation, AlertReevaluation, SnapshotEvaluation } from './alert-reevaluation';
import { ENGINE_ACTOR } from '../audit-log/audit-actors';

// The alert engine (interfaces.md Part 2 "Dependency snapshots and computed alerts",
// reference.md Part 2 "Alert lifecycle"): a repository's current dependencies, matched through
// the (ecosystem, normalized name) index against reviewed and malware advisories by the
// version engine, give the findings, one per (advisory, package, manifest path); the
// repository's alerts are brought in line with them, each transition written with its event.
// Only a snapshot fixes or creates alerts, and it settles only the alerts of the manifests it
// covers: an alert of a manifest no applied snapshot has covered keeps the state a world file
// declared (it is triaged and follows withdrawals); one of a manifest covered before and gone
// since is fixed (repository_covered_manifests keeps which paths were covered).
// This file locks, reads and writes; what to do is decided by pure code: the findings
// (alert-findings.ts), the plans (alert-planning.ts) and the lifecycle they follow
// (dependency-alerts/alert-lifecycle.ts).

/** A policy that matches nothing: for a repository the policies did not answer. */
const NO_TRIAGE: TriagePolicy = () => null;
/** The manifests of a repository no applied snapshot has covered any of. */
const NONE_COVERED: ReadonlySet<string> = new Set();

export interface AlertEngineDeps {
  snapshots: DependencySnapshotsStore;
  /** Every repository's matchable current dependencies, kept in step with its snapshots. */
  dependencyIndex: DependencyIndexStore;
  store: AlertEngineStore;
  /** What evaluations read of advisories and their vulnerability rows. */
  advisories: Pick<AdvisoryLookupStore, 'traitsByIds' | 'vulnerabilityTraitsOf'>;
  /** The vulnerability rows of packages, through the (ecosystem, package_key) index. */
  packageRows: (db: Knex.Transaction, keys: ReadonlyMap<string, readonly string[]>) => Promise<PackageRow[]>;
  /** Vulnerability rows by id, compiled for matching. */
  ranges: BatchLookup<MatchableRange>;
  events: AlertEvents;
  policies: TriagePolicies;
}

export class AlertEngine implements AlertReevaluation, AdvisoryReevaluation, SnapshotEvaluation {
  constructor(private readonly deps: AlertEngineDeps) {}

  async repositories(trx: Knex.Transaction, repoIds: readonly number[], now: string): Promise<void> {
    const ids = [...new Set(repoIds)];
    if (ids.length === 0) return;
    const owners = await this.deps.store.lockRepositories(trx, ids);
    const policies = await this.deps.policies.forRepositories(trx, ids);
    const evaluations: Evaluation[] = [];
    for (const [repoId, { ownerId }] of owners) evaluations.push(await this.repository(trx, repoId, ownerId, policies.get(repoId) ?? NO_TRIAGE));
    await this.apply(trx, evaluations, now);
  }

  async afterSnapshot(trx: Knex.Transaction, repoId: number, applied: { snapshotId: number; input: SnapshotInput }, now: string): Promise<void> {
    const owner = (await this.deps.store.lockRepositories(trx, [repoId])).get(repoId);
    if (owner === undefined) return;
    const policies = await this.deps.policies.forRepositories(trx, [repoId]);
    await this.apply(trx, [await this.repository(trx, repoId, owner.ownerId, policies.get(repoId) ?? NO_TRIAGE, { applied })], now);
  }

  /**
   * After advisories were written (an import): their findings evaluated again in every
   * repository they may concern, those whose current dependencies hold a package they name and
   * those with alerts of them, all at once. Only these advisories' alerts and findings are
   * looked at: nothing else a repository's alerts depend on has changed.
   */
  async advisories(trx: Knex.Transaction, advisoryIds: readonly number[], now: string): Promise<void> {
    const { store, snapshots, dependencyIndex } = this.deps;
    if (advisoryIds.length === 0) return;
    const vulnerabilities = await this.deps.advisories.vulnerabilityTraitsOf(trx, advisoryIds);
    const held = await dependencyIndex.holding(trx, vulnerabilities.map((v) => ({ ecosystem: v.ecosystem, normalizedName: v.packageKey })));
    const repoIds = [...held.keys(), ...await store.repositoriesAlertedBy(trx, advisoryIds)];
    if (repoIds.length === 0) return;
    const advisories = await this.deps.advisories.traitsByIds(trx, advisoryIds);
    const owners = await store.lockRepositories(trx, repoIds);
    const locked = [...owners.keys()];
    const policies = await this.deps.policies.forRepositories(trx, locked);
    const alerts = new Map<number, EngineAlert[]>();
    for (const alert of await store.alertsOfAdvisories(trx, advisoryIds)) (alerts.get(alert.repoId) ?? alerts.set(alert.repoId, []).get(alert.repoId)!).push(alert);
    const covered = await snapshots.coveredManifestPaths(trx, locked);
    const rowsByPackage = rowIdsByPackage(vulnerabilities);
    const ranges = await this.deps.ranges(trx, vulnerabilities.map((v) => v.id));
    const evaluations = locked.map((repoId): Evaluation => {
      const matched = matchFindings(held.get(repoId) ?? [], rowsByPackage, ranges);
      const facts = new AdvisoryFacts(advisories, vulnerabilities, owners.get(repoId)!.ownerId);
      const plans = planTransitions({
        alerts: alerts.get(repoId) ?? [], findings: raisingFindings(matched, advisories), coveredManifests: covered.get(repoId) ?? NONE_COVERED, facts, policy: policies.get(repoId) ?? NO_TRIAGE, reopened: undefined,
      });
      return { repoId, plans, facts };
    });
    await this.apply(trx, evaluations, now);
  }

  /**
   * After a person reopened an alert (#27): that alert is evaluated at once, so it may be fixed
   * at once; it is not auto-dismissed again by this evaluation, and no other alert is touched
   * by a person's request.
   */
  async afterReopening(trx: Knex.Transaction, repoId: number, alertId: number, now: string): Promise<void> {
    const owner = (await this.deps.store.lockRepositories(trx, [repoId])).get(repoId);
    if (owner === undefined) return;
    const policies = await this.deps.policies.forRepositories(trx, [repoId]);
    await this.apply(trx, [await this.repository(trx, repoId, owner.ownerId, policies.get(repoId) ?? NO_TRIAGE, { reopened: alertId })], now);
  }

  /**
   * Plans one (locked) repository's alerts. `reopened`: only that alert, just reopened by a
   * person; `applied`: the snapshot just made current, its packages as submitted (the
   * dependency index then follows the repository's new current dependencies).
   */
  private async repository(
    trx: Knex.Transaction, repoId: number, ownerId: number, policy: TriagePolicy,
    { reopened, applied }: { reopened?: number; applied?: { snapshotId: number; input: SnapshotInput } } = {},
  ): Promise<Evaluation> {
    const { store, snapshots } = this.deps;
    const contributions = applied === undefined ? await snapshots.currentContributions(trx, repoId) : await snapshots.contributionsAfter(trx, repoId, applied);
    const dependencies = matchable(currentDependencies(contributions));
    if (applied !== undefined) await this.deps.dependencyIndex.sync(trx, repoId, dependencies);
    const coveredManifests = await this.coveredManifests(trx, repoId, applied?.input);
    const matched = await this.findings(trx, dependencies);
    const all = await store.alertsOf(trx, repoId);
    const advisories = await this.deps.advisories.traitsByIds(trx, [...all.map((a) => a.advisoryId), ...matched.map((f) => f.advisoryId)]);
    const facts = new AdvisoryFacts(advisories, await this.deps.advisories.vulnerabilityTraitsOf(trx, [...advisories.keys()]), ownerId);
    return { repoId, plans: planTransitions({ alerts: all, findings: raisingFindings(matched, advisories), coveredManifests, facts, policy, reopened }), facts };
  }

  /**
   * The manifest paths a (locked) repository's applied snapshots have covered; with `applied`,
   * the paths of the snapshot just applied are recorded first (those not recorded yet).
   */
  private async coveredManifests(trx: Knex.Transaction, repoId: number, applied: SnapshotInput | undefined): Promise<ReadonlySet<string>> {
    const { snapshots } = this.deps;
    const covered = (await snapshots.coveredManifestPaths(trx, [repoId])).get(repoId) ?? new Set<string>();
    if (applied === undefined) return covered;
    const added = [...new Set(applied.manifests.map(manifestPathOf))].filter((path) => !covered.has(path));
    await snapshots.recordCoveredManifestPaths(trx, repoId, added);
    return new Set([...covered, ...added]);
  }

  /**
   * Writes the plans of repositories (in ascending id order): refreshed copies, new alerts, then
   * the transitions in rounds. Each repository's events are recorded as if it had been written
   * alone: its first steps' events, then its second steps' (an alert created and dismissed by a
   * rule at once records `created`, then `auto_dismissed`), before the next repository's; each
   * with the alert as it was after that step.
   */
  private async apply(trx: Knex.Transaction, evaluations: readonly Evaluation[], now: string): Promise<void> {
    const { store } = this.deps;
    // Alerts that only have copies to refresh.
    await store.update(trx, evaluations.flatMap(({ plans }) => plans.flatMap((plan) => (
      plan.alert && plan.steps.length === 0 && Object.keys(plan.refresh).length > 0 ? [{ alertId: plan.alert.id, changes: plan.refresh }] : []
    ))));
    // New alerts, numbered after the last of their repository (its row is locked).
    const fresh = evaluations.filter(({ plans }) => plans.some((plan) => plan.alert === null));
    const maxNumbers = await store.maxNumbers(trx, fresh.map((e) => e.repoId));
    const rows: EngineAlertRow[] = [];
    const freshPlans: Plan[] = [];
    for (const { repoId, plans, facts } of fresh) {
      let number = maxNumbers.get(repoId) ?? 0;
      for (const plan of plans) {
        if (plan.alert !== null) continue;
        const f = plan.finding!;
        freshPlans.push(plan);
        rows.push({
          repo_id: repoId, number: (number += 1), advisory_id: f.advisoryId, vulnerability_id: f.vulnerabilityId, ecosystem: f.ecosystem,
          package_name: f.packageName, manifest_path: f.manifestPath, scope: f.scope, relationship: f.relationship, state: 'open',
          created_at: now, updated_at: now, auto_dismissed_at: null, auto_dismissed_by: null,
          ...facts.copies(f.advisoryId, facts.vulnerability(f.vulnerabilityId)?.hasPatch ?? false),
        });
      }
    }
    const idsByNumber = await store.insert(trx, rows);
    const alertIdOf = new Map(freshPlans.map((plan, i) => [plan, idsByNumber.get(numberKey(rows[i]!.repo_id, rows[i]!.number))!]));

    // The transitions in rounds, every repository's at once; the event rows are kept per
    // repository and round, and inserted in that order once all are written.
    const rounds = Math.max(0, ...evaluations.flatMap(({ plans }) => plans.map((plan) => plan.steps.length)));
    const eventRows: EventRow[][][] = evaluations.map(() => []);
    for (let round = 0; round < rounds; round++) {
      const changes: Array<{ alertId: number; changes: AlertChanges & AlertRefresh }> = [];
      const events: AlertEvent[] = [];
      // An alert takes at most one step a round: its evaluation, by alert id.
      const evaluationOf = new Map<number, number>();
      for (const [e, { plans }] of evaluations.entries()) {
        for (const plan of plans) {
          const step = plan.steps[round];
          if (step === undefined) continue;
          const alertId = plan.alert?.id ?? alertIdOf.get(plan)!;
          const written = transitionChanges(step, now);
          // A created alert was inserted as it is after its step.
          if (step.action !== 'created') changes.push({ alertId, changes: { ...(round === 0 ? plan.refresh : {}), ...written.changes } });
          if (written.event !== null) {
            const stateBefore = round === 0 ? plan.alert?.state ?? null : plan.steps[round - 1]!.state;
            events.push({ alertId, action: written.event, senderId: null, stateBefore });
            evaluationOf.set(alertId, e);
          }
        }
      }
      await store.update(trx, changes);
      for (const row of await this.deps.events.rowsOf(trx, events, now)) {
        const byRound = eventRows[evaluationOf.get(row.alert_id)!]!;
        (byRound[round] ??= []).push(row);
      }
    }
    await this.deps.events.insert(trx, eventRows.flatMap((byRound) => byRound.flatMap((r) => r ?? [])), ENGINE_ACTOR);
  }

  /** The dependencies that fall in a vulnerable range, in dependency then row order. */
  private async findings(trx: Knex.Transaction, dependencies: readonly MatchableDependency[]): Promise<Finding[]> {
    const keys = new Map<string, Set<string>>();
    for (const { ecosystem, normalizedName } of dependencies) keys.set(ecosystem, (keys.get(ecosystem) ?? new Set()).add(normalizedName));
    if (keys.size === 0) return [];
    const rows = await this.deps.packageRows(trx, new Map([...keys].map(([eco, names]) => [eco, [...names]])));
    return matchFindings(dependencies, rowIdsByPackage(rows), await this.deps.ranges(trx, rows.map((row) => row.id)));
  }
}

/** One repository's evaluation: its plans, and the advisory facts they were made with. */
interface Evaluation {
  repoId: number;
  plans: Plan[];
  facts: AdvisoryFacts;
}
