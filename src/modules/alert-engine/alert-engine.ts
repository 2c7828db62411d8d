import type { Knex } from 'knex';
import type { BatchLookup } from '../../cache/cached-batch';
import type { MatchableRange } from '../advisories/affects-matching';
import type { PackageRow } from '../advisories/advisories.store';
import { ECOSYSTEMS } from '../dependency-alerts/alerts.types';
import { matchVersion, normalizePackageName, type Ecosystem } from '../advisories/versions';
import type { TriageFacts, TriagePolicies, TriagePolicy } from '../auto-triage/triage-policy';
import type { AlertEvent, AlertEvents } from '../dependency-alerts/alert-events';
import { currentDependencies } from '../dependency-graph/current-dependencies';
import type { CurrentDependency } from '../dependency-graph/dependency-graph.types';
import type { DependencySnapshotsStore } from '../dependency-graph/dependency-snapshots.store';
import { stepsFor, type Step, type Verdict } from './alert-decisions';
import type { AlertCopies, AdvisoryTraits, AlertEngineStore, EngineAlert, EngineAlertRow, VulnerabilityTraits } from './alert-engine.store';
import type { AlertReevaluation } from './alert-reevaluation';

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
  store: AlertEngineStore;
  /** The vulnerability rows of packages, through the (ecosystem, package_key) index. */
  packageRows: (db: Knex.Transaction, keys: ReadonlyMap<string, readonly string[]>) => Promise<PackageRow[]>;
  /** Vulnerability rows by id, compiled for matching. */
  ranges: BatchLookup<MatchableRange>;
  events: AlertEvents;
  policies: TriagePolicies;
}

export class AlertEngine implements AlertReevaluation {
  constructor(private readonly deps: AlertEngineDeps) {}

  async repositories(trx: Knex.Transaction, repoIds: readonly number[], now: string): Promise<void> {
    // Ascending ids: evaluations that lock several repositories lock them in one order (no deadlock).
    const ids = [...new Set(repoIds)].sort((a, b) => a - b);
    if (ids.length === 0) return;
    const policies = await this.deps.policies.forRepositories(trx, ids);
    for (const repoId of ids) await this.repository(trx, repoId, now, policies.get(repoId) ?? NO_TRIAGE);
  }

  /**
   * After a person reopened an alert (#27): that alert is evaluated at once, so it may be fixed
   * at once; it is not auto-dismissed again by this evaluation, and no other alert is touched
   * by a person's request.
   */
  async afterReopening(trx: Knex.Transaction, repoId: number, alertId: number, now: string): Promise<void> {
    const policies = await this.deps.policies.forRepositories(trx, [repoId]);
    await this.repository(trx, repoId, now, policies.get(repoId) ?? NO_TRIAGE, alertId);
  }

  /** Evaluates one repository; `reopened`: only that alert, just reopened by a person. */
  private async repository(trx: Knex.Transaction, repoId: number, now: string, policy: TriagePolicy, reopened?: number): Promise<void> {
    const { store, snapshots } = this.deps;
    const repo = await store.lockRepository(trx, repoId);
    if (repo === undefined) return;
    const contributions = await snapshots.currentContributions(trx, repoId);
    const hasSnapshot = contributions.length > 0;
    const matched = hasSnapshot ? await this.findings(trx, currentDependencies(contributions)) : [];
    const all = await store.alertsOf(trx, repoId);
    const advisories = await store.advisoriesByIds(trx, [...all.map((a) => a.advisoryId), ...matched.map((f) => f.advisoryId)]);
    // Only reviewed and malware advisories raise alerts.
    const findings = new Map<string, Finding>();
    for (const f of matched) {
      const type = advisories.get(f.advisoryId)?.type;
      const key = findingKey(f.advisoryId, f.ecosystem, f.packageName, f.manifestPath);
      if ((type === 'reviewed' || type === 'malware') && !findings.has(key)) findings.set(key, f);
    }
    const facts = new AdvisoryFacts(advisories, await store.vulnerabilitiesOf(trx, [...advisories.keys()]), repo.ownerId);
    await this.apply(trx, repoId, planTransitions({ alerts: all, findings, hasSnapshot, facts, policy, reopened }), facts, now);
  }

  /** Writes the plans: refreshed copies, new alerts, then the transitions in rounds with their events. */
  private async apply(trx: Knex.Transaction, repoId: number, plans: readonly Plan[], facts: AdvisoryFacts, now: string): Promise<void> {
    const { store } = this.deps;
    // Alerts that only have copies to refresh.
    for (const plan of plans) if (plan.alert && plan.steps.length === 0 && Object.keys(plan.refresh).length > 0) await store.update(trx, plan.alert.id, plan.refresh);
    // New alerts, numbered after the last (the repository row is locked).
    let number = await store.maxNumber(trx, repoId);
    const fresh = plans.filter((plan) => plan.alert === null);
    const rows: EngineAlertRow[] = fresh.map(({ finding }) => {
      const f = finding!;
      return {
        repo_id: repoId, number: (number += 1), advisory_id: f.advisoryId, vulnerability_id: f.vulnerabilityId, ecosystem: f.ecosystem,
        package_name: f.packageName, manifest_path: f.manifestPath, scope: f.scope, relationship: f.relationship, state: 'open',
        created_at: now, updated_at: now, auto_dismissed_at: null, auto_dismissed_by: null,
        ...facts.copies(f.advisoryId, facts.vulnerability(f.vulnerabilityId)?.hasPatch ?? false),
      };
    });
    const idsByNumber = await store.insert(trx, rows);
    const alertIdOf = new Map(fresh.map((plan, i) => [plan, idsByNumber.get(rows[i]!.number)!]));

    // The transitions in rounds: every alert's first step, its events, then every second step
    // (an alert created and dismissed by a rule at once records `created`, then `auto_dismissed`).
    const rounds = Math.max(0, ...plans.map((plan) => plan.steps.length));
    for (let round = 0; round < rounds; round++) {
      const events: AlertEvent[] = [];
      for (const plan of plans) {
        const step = plan.steps[round];
        if (step === undefined) continue;
        const alertId = plan.alert?.id ?? alertIdOf.get(plan)!;
        if (step.action !== 'created') await store.update(trx, alertId, { ...(round === 0 ? plan.refresh : {}), ...changesOf(step, now) });
        if (step.action !== null) events.push({ alertId, action: step.action, senderId: null });
      }
      await this.deps.events.record(trx, events, now);
    }
  }

  /** The current dependencies with a version that fall in a vulnerable range, in dependency then row order. */
  private async findings(trx: Knex.Transaction, dependencies: readonly CurrentDependency[]): Promise<Finding[]> {
    const matchable = dependencies.flatMap((d) => {
      const { ecosystem, version } = d.package;
      return ecosystem !== null && version !== null && isEcosystem(ecosystem) ? [{ d, ecosystem, version, key: normalizePackageName(ecosystem, d.package.name) }] : [];
    });
    if (matchable.length === 0) return [];
    const keys = new Map<string, Set<string>>();
    for (const { ecosystem, key } of matchable) keys.set(ecosystem, (keys.get(ecosystem) ?? new Set()).add(key));
    const rows = await this.deps.packageRows(trx, new Map([...keys].map(([eco, names]) => [eco, [...names]])));
    const ranges = await this.deps.ranges(trx, rows.map((row) => row.id));
    const rowsByPackage = new Map<string, number[]>();
    for (const row of [...rows].sort((a, b) => a.id - b.id)) {
      const packageKey = `${row.ecosystem}\u0000${row.packageKey}`;
      rowsByPackage.set(packageKey, [...(rowsByPackage.get(packageKey) ?? []), row.id]);
    }
    const found: Finding[] = [];
    for (const { d, ecosystem, version, key } of matchable) {
      for (const rowId of rowsByPackage.get(`${ecosystem}\u0000${key}`) ?? []) {
        const range = ranges.get(rowId);
        // A version that does not parse in its ecosystem matches nothing.
        const match = range?.compiled === undefined ? undefined : matchVersion(range.compiled, version);
        if (!range || !match?.ok || !match.isAffected) continue;
        found.push({
          advisoryId: range.advisoryId, vulnerabilityId: rowId, ecosystem, packageName: d.package.name, manifestPath: d.manifestPath,
          scope: d.scope, relationship: RELATIONSHIPS[d.relationship],
        });
      }
    }
    return found;
  }
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
