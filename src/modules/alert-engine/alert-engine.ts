import type { Knex } from 'knex';
import type { BatchLookup } from '../../cache/cached-batch';
import type { MatchableRange } from '../advisories/affects-matching';
import type { PackageRow } from '../advisories/advisories.store';
import { ECOSYSTEMS } from '../advisories/ecosystems';
import { matchVersion, normalizePackageName, type Ecosystem } from '../advisories/versions';
import type { TriageFacts, TriagePolicies, TriagePolicy } from '../auto-triage/triage-policy';
import type { AlertEvent, AlertEvents, EventRow } from '../dependency-alerts/alert-events';
import { currentDependencies } from '../dependency-graph/current-dependencies';
import type { CurrentDependency, SnapshotInput } from '../dependency-graph/dependency-graph.types';
import type { DependencySnapshotsStore } from '../dependency-graph/dependency-snapshots.store';
import { stepsFor, type Step, type Verdict } from './alert-decisions';
import type { DependencyIndexStore, MatchableDependency } from './dependency-index.store';
import { numberKey, type AlertCopies, type AlertEngineStore, type EngineAlert, type EngineAlertRow } from './alert-engine.store';
import type { AdvisoryLookupStore } from '../advisories/advisories.lookup-store';
import type { AdvisoryTraits, VulnerabilityTraits } from '../advisories/advisories.types';
import type { AdvisoryReevaluation, AlertReevaluation, SnapshotEvaluation } from './alert-reevaluation';

// The alert engine (interfaces.md Part 2 "Dependency snapshots and computed alerts",
// reference.md Part 2 "Alert lifecycle"): a repository's current dependencies, matched through
// the (ecosystem, normalized name) index against reviewed and malware advisories by the
// version engine, give the findings, one per (advisory, package, manifest path); the
// repository's alerts are brought in line with them, each transition written with its event.
// A repository without an applied snapshot keeps the alerts a world file declared: they are
// triaged and follow withdrawals, but only a snapshot fixes or creates alerts.

/** A dependency in a vulnerable range: what an alert is about. */
interface Finding {
  advisoryId: number;
  vulnerabilityId: number;
  ecosystem: Ecosystem;
  packageName: string;
  manifestPath: string;
  scope: 'runtime' | 'development';
  relationship: 'direct' | 'transitive' | 'unknown';
}

/** What makes two alerts the same finding: advisory, package (normalized), manifest path. */
function findingKey(advisoryId: number, ecosystem: Ecosystem, packageName: string, manifestPath: string): string {
  return [advisoryId, ecosystem, normalizePackageName(ecosystem, packageName), manifestPath].join('\u0000');
}

const RELATIONSHIPS = { direct: 'direct', indirect: 'transitive', unknown: 'unknown' } as const;

function isEcosystem(value: string): value is Ecosystem {
  return (ECOSYSTEMS as readonly string[]).includes(value);
}

/** A policy that matches nothing: for a repository the policies did not answer. */
const NO_TRIAGE: TriagePolicy = () => null;

/** The columns a step writes; `by` is the reason of an auto-dismissal. */
function changesOf(step: Step, now: string): Record<string, unknown> {
  switch (step.action) {
    case null:
      return { auto_dismissed_by: step.autoDismissedBy };
    case 'fixed':
      return { state: 'fixed', updated_at: now, fixed_at: now, auto_dismissed_at: null, auto_dismissed_by: null };
    case 'reintroduced':
      return { state: 'open', updated_at: now, fixed_at: null };
    case 'auto_dismissed':
      return { state: 'auto_dismissed', updated_at: now, auto_dismissed_at: now, auto_dismissed_by: step.autoDismissedBy };
    case 'auto_reopened':
      return { state: 'open', updated_at: now, auto_dismissed_at: null, auto_dismissed_by: null };
    default:
      throw new Error(`the engine does not take the transition ${step.action}`);
  }
}

/** The columns of `next` that differ from `current` (0/1 and boolean alike). */
function differing(current: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const same = (a: unknown, b: unknown) => (typeof a === 'boolean' || typeof b === 'boolean' ? Boolean(a) === Boolean(b) : a === b);
  return Object.fromEntries(Object.entries(next).filter(([key, value]) => !same(current[key], value)));
}

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
    const withSnapshots = await snapshots.repositoriesWithManifests(trx, locked);
    const rowsByPackage = rowIdsByPackage(vulnerabilities);
    const ranges = await this.deps.ranges(trx, vulnerabilities.map((v) => v.id));
    const evaluations = locked.map((repoId): Evaluation => {
      const matched = matchFindings(held.get(repoId) ?? [], rowsByPackage, ranges);
      const facts = new AdvisoryFacts(advisories, vulnerabilities, owners.get(repoId)!.ownerId);
      const plans = planTransitions({
        alerts: alerts.get(repoId) ?? [], findings: raisingFindings(matched, advisories), hasSnapshot: withSnapshots.has(repoId), facts, policy: policies.get(repoId) ?? NO_TRIAGE, reopened: undefined,
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
    const hasSnapshot = contributions.length > 0;
    const dependencies = matchable(currentDependencies(contributions));
    if (applied !== undefined) await this.deps.dependencyIndex.sync(trx, repoId, dependencies);
    const matched = await this.findings(trx, dependencies);
    const all = await store.alertsOf(trx, repoId);
    const advisories = await this.deps.advisories.traitsByIds(trx, [...all.map((a) => a.advisoryId), ...matched.map((f) => f.advisoryId)]);
    const facts = new AdvisoryFacts(advisories, await this.deps.advisories.vulnerabilityTraitsOf(trx, [...advisories.keys()]), ownerId);
    return { repoId, plans: planTransitions({ alerts: all, findings: raisingFindings(matched, advisories), hasSnapshot, facts, policy, reopened }), facts };
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
      const changes: Array<{ alertId: number; changes: Record<string, unknown> }> = [];
      const events: AlertEvent[] = [];
      // An alert takes at most one step a round: its evaluation, by alert id.
      const evaluationOf = new Map<number, number>();
      for (const [e, { plans }] of evaluations.entries()) {
        for (const plan of plans) {
          const step = plan.steps[round];
          if (step === undefined) continue;
          const alertId = plan.alert?.id ?? alertIdOf.get(plan)!;
          if (step.action !== 'created') changes.push({ alertId, changes: { ...(round === 0 ? plan.refresh : {}), ...changesOf(step, now) } });
          if (step.action !== null) {
            events.push({ alertId, action: step.action, senderId: null });
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
    await this.deps.events.insert(trx, eventRows.flatMap((byRound) => byRound.flatMap((r) => r ?? [])));
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

const packageKeyOf = (ecosystem: string, normalizedName: string) => `${ecosystem}\u0000${normalizedName}`;

/** Vulnerability row ids by packageKeyOf, ascending. */
function rowIdsByPackage(rows: ReadonlyArray<{ id: number; ecosystem: string; packageKey: string }>): Map<string, number[]> {
  const byPackage = new Map<string, number[]>();
  for (const row of [...rows].sort((a, b) => a.id - b.id)) {
    const key = packageKeyOf(row.ecosystem, row.packageKey);
    (byPackage.get(key) ?? byPackage.set(key, []).get(key)!).push(row.id);
  }
  return byPackage;
}

/** The dependencies that can match: an advisory ecosystem and a version. */
function matchable(dependencies: ReadonlyArray<Omit<CurrentDependency, 'id'>>): MatchableDependency[] {
  return dependencies.flatMap((d) => {
    const { ecosystem, version, name } = d.package;
    return ecosystem !== null && version !== null && isEcosystem(ecosystem)
      ? [{ ecosystem, normalizedName: normalizePackageName(ecosystem, name), packageName: name, version, manifestPath: d.manifestPath, scope: d.scope, relationship: d.relationship }]
      : [];
  });
}

/**
 * The dependencies that fall in a vulnerable range of the rows of their package (`rowsByPackage`,
 * by packageKeyOf, ids ascending), in dependency then row order.
 */
function matchFindings(dependencies: readonly MatchableDependency[], rowsByPackage: ReadonlyMap<string, readonly number[]>, ranges: ReadonlyMap<number, MatchableRange>): Finding[] {
  const found: Finding[] = [];
  for (const d of dependencies) {
    const { ecosystem, version } = d;
    for (const rowId of rowsByPackage.get(packageKeyOf(ecosystem, d.normalizedName)) ?? []) {
      const range = ranges.get(rowId);
      // A version that does not parse in its ecosystem matches nothing.
      const match = range?.compiled === undefined ? undefined : matchVersion(range.compiled, version);
      if (!range || !match?.ok || !match.isAffected) continue;
      found.push({
        advisoryId: range.advisoryId, vulnerabilityId: rowId, ecosystem, packageName: d.packageName, manifestPath: d.manifestPath,
        scope: d.scope, relationship: RELATIONSHIPS[d.relationship],
      });
    }
  }
  return found;
}

const EXPOSURE = { runtime: 0, development: 1, direct: 0, transitive: 1, unknown: 2 } as const;

/**
 * Of two findings of one key (a manifest holding the package twice), the one its alert shows:
 * the more exposed use (runtime before development, then direct before transitive), then the
 * first vulnerability row and name; never the order the dependencies were read in, which
 * differs between a snapshot's evaluation and an advisory's.
 */
function preferred(a: Finding, b: Finding): Finding {
  const order = EXPOSURE[a.scope] - EXPOSURE[b.scope] || EXPOSURE[a.relationship] - EXPOSURE[b.relationship]
    || a.vulnerabilityId - b.vulnerabilityId || (a.packageName < b.packageName ? -1 : a.packageName > b.packageName ? 1 : 0);
  return order <= 0 ? a : b;
}

/** The findings that raise alerts (reviewed and malware advisories), one per key, in the order keys first appear. */
function raisingFindings(matched: readonly Finding[], advisories: ReadonlyMap<number, AdvisoryTraits>): Map<string, Finding> {
  const findings = new Map<string, Finding>();
  for (const f of matched) {
    const type = advisories.get(f.advisoryId)?.type;
    if (type !== 'reviewed' && type !== 'malware') continue;
    const key = findingKey(f.advisoryId, f.ecosystem, f.packageName, f.manifestPath);
    const held = findings.get(key);
    findings.set(key, held === undefined ? f : preferred(held, f));
  }
  return findings;
}

/** What an evaluation of one repository does to an alert, or to a finding no alert has. */
interface Plan {
  alert: EngineAlert | null;
  finding: Finding | undefined;
  /** Columns brought in line (copies, the dependency as now submitted), written with the first step. */
  refresh: Record<string, unknown>;
  steps: Step[];
}

/**
 * The plans of one repository: every alert against the findings, then the findings no alert
 * has. Without an applied snapshot the alerts stand as they are (triaged, never fixed or
 * created); `reopened`: only that alert is planned.
 */
function planTransitions(input: {
  alerts: readonly EngineAlert[]; findings: ReadonlyMap<string, Finding>; hasSnapshot: boolean; facts: AdvisoryFacts; policy: TriagePolicy; reopened: number | undefined;
}): Plan[] {
  const { findings, hasSnapshot, facts, policy, reopened } = input;
  const plans: Plan[] = [];
  const claimed = new Set<string>();
  for (const alert of input.alerts) {
    const key = isEcosystem(alert.ecosystem) ? findingKey(alert.advisoryId, alert.ecosystem, alert.packageName, alert.manifestPath) : '';
    // A finding belongs to one alert: the lowest-numbered (a world file may declare it twice).
    const finding = claimed.has(key) ? undefined : findings.get(key);
    if (finding) claimed.add(key);
    const vulnerable = hasSnapshot ? finding !== undefined : alert.state !== 'fixed';
    const verdict = facts.verdict(alert, finding, vulnerable);
    const refresh = differing({ ...alert.copies, scope: alert.scope, relationship: alert.relationship, vulnerability_id: alert.vulnerabilityId }, {
      ...facts.copies(alert.advisoryId, verdict.facts.hasPatch),
      ...(finding ? { scope: finding.scope, relationship: finding.relationship, vulnerability_id: finding.vulnerabilityId } : {}),
    });
    if (reopened === undefined || alert.id === reopened) plans.push({ alert, finding, refresh, steps: stepsFor(alert, verdict, policy, alert.id === reopened) });
  }
  for (const [key, finding] of findings) {
    if (claimed.has(key) || reopened !== undefined) continue;
    const steps = stepsFor(null, facts.verdict(null, finding, true), policy);
    if (steps.length > 0) plans.push({ alert: null, finding, refresh: {}, steps });
  }
  return plans;
}

/** What alerts copy and auto-triage looks at, from the advisories of one evaluation. */
class AdvisoryFacts {
  private readonly byId: Map<number, VulnerabilityTraits>;

  /** `vulnerabilities`: every row of the advisories, in id order. */
  constructor(private readonly advisories: ReadonlyMap<number, AdvisoryTraits>, private readonly vulnerabilities: readonly VulnerabilityTraits[], private readonly ownerId: number) {
    this.byId = new Map(vulnerabilities.map((v) => [v.id, v]));
  }

  vulnerability(id: number | null): VulnerabilityTraits | undefined {
    return id === null ? undefined : this.byId.get(id);
  }

  /** The row an alert shows: the matched one, else the advisory's first on its package (as alert-views.ts). */
  private rowOf(alert: EngineAlert): VulnerabilityTraits | undefined {
    return this.vulnerability(alert.vulnerabilityId) ?? this.vulnerabilities.find((v) => v.advisoryId === alert.advisoryId && v.ecosystem === alert.ecosystem && v.packageName === alert.packageName);
  }

  copies(advisoryId: number, hasPatch: boolean): AlertCopies {
    const advisory = this.advisories.get(advisoryId)!;
    return {
      owner_id: this.ownerId, severity: advisory.severity, classification: advisory.classification,
      epss_percentage: advisory.epssPercentage, epss_sort: advisory.epssPercentage ?? -1, has_patch: hasPatch,
    };
  }

  /** An alert's (or a new finding's) verdict: its finding when there is one, else the alert as it stands. */
  verdict(alert: EngineAlert | null, finding: Finding | undefined, vulnerable: boolean): Verdict {
    const advisory = this.advisories.get(finding?.advisoryId ?? alert!.advisoryId)!;
    const row = finding ? this.vulnerability(finding.vulnerabilityId) : this.rowOf(alert!);
    const facts: TriageFacts = {
      ecosystem: finding?.ecosystem ?? alert!.ecosystem,
      packageName: finding?.packageName ?? alert!.packageName,
      manifestPath: finding?.manifestPath ?? alert!.manifestPath,
      scope: (finding?.scope ?? alert!.scope) as TriageFacts['scope'],
      severity: advisory.severity,
      cweIds: advisory.cweIds,
      svcsaId: advisory.svcsaId,
      cveId: advisory.cveId,
      hasPatch: row?.hasPatch ?? false,
    };
    return { vulnerable, withdrawn: advisory.withdrawn, facts };
  }
}
