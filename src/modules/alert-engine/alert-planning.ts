import type { AdvisoryTraits, VulnerabilityTraits } from '../advisories/advisories.types';
import type { TriageFacts, TriagePolicy } from '../auto-triage/triage-policy';
import { stepsFor, type Step, type Verdict } from '../dependency-alerts/alert-lifecycle';
import { vulnerabilityOf } from '../dependency-alerts/alert-views';
import type { AlertCopies, AlertRefresh, EngineAlert, RefreshedColumns } from './alert-engine.store';
import { alertFindingKey, type Finding } from './alert-findings';

// The alert engine's planning, as pure functions over what it read: each alert of a repository
// against the findings, and the findings no alert has, each with the lifecycle's steps
// (alert-lifecycle.ts) and the copies to bring in line. alert-engine.ts writes the plans.

/** What an evaluation of one repository does to an alert, or to a finding no alert has. */
export interface Plan {
  alert: EngineAlert | null;
  finding: Finding | undefined;
  /** Columns brought in line (copies, the dependency as now submitted), written with the first step. */
  refresh: AlertRefresh;
  steps: Step[];
}

export interface PlanningInput {
  /** The repository's alerts, by number. */
  alerts: readonly EngineAlert[];
  /** The raising findings by key (raisingFindings). */
  findings: ReadonlyMap<string, Finding>;
  /**
   * The manifest paths the repository's applied snapshots have covered: an alert of one of them
   * without a finding is no longer vulnerable (upgraded, removed, or its manifest gone); an
   * alert of another manifest stands as declared.
   */
  coveredManifests: ReadonlySet<string>;
  facts: AdvisoryFacts;
  policy: TriagePolicy;
  /** Only this alert, just reopened by a person, is planned. */
  reopened: number | undefined;
}

/** The columns of `next` that differ from `current` (0/1 and boolean alike). */
function differing<T extends object>(current: T, next: Partial<T>): Partial<T> {
  const same = (a: unknown, b: unknown) => (typeof a === 'boolean' || typeof b === 'boolean' ? Boolean(a) === Boolean(b) : a === b);
  return Object.fromEntries(Object.entries(next).filter(([key, value]) => !same((current as Record<string, unknown>)[key], value))) as Partial<T>;
}

/**
 * The plans of one repository: every alert against the findings, then the findings no alert
 * has. An alert of a manifest no applied snapshot has covered stands as it is (triaged, never
 * fixed); `reopened`: only that alert is planned.
 */
export function planTransitions(input: PlanningInput): Plan[] {
  const { findings, coveredManifests, facts, policy, reopened } = input;
  const plans: Plan[] = [];
  const claimed = new Set<string>();
  for (const alert of input.alerts) {
    const key = alertFindingKey(alert);
    // A finding belongs to one alert: the lowest-numbered (a world file may declare it twice).
    const finding = claimed.has(key) ? undefined : findings.get(key);
    if (finding) claimed.add(key);
    // A snapshot settles only the alerts of the manifests it covers (interfaces.md Part 2).
    const vulnerable = finding !== undefined || (!coveredManifests.has(alert.manifestPath) && alert.state !== 'fixed');
    const verdict = facts.verdict(alert, finding, vulnerable);
    const refresh = differing<RefreshedColumns>({ ...alert.copies, scope: alert.scope, relationship: alert.relationship, vulnerability_id: alert.vulnerabilityId }, {
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
export class AdvisoryFacts {
  private readonly byId: Map<number, VulnerabilityTraits>;
  private readonly byAdvisory = new Map<number, VulnerabilityTraits[]>();

  /** `vulnerabilities`: every row of the advisories, in id order. */
  constructor(private readonly advisories: ReadonlyMap<number, AdvisoryTraits>, vulnerabilities: readonly VulnerabilityTraits[], private readonly ownerId: number) {
    this.byId = new Map(vulnerabilities.map((v) => [v.id, v]));
    for (const v of vulnerabilities) (this.byAdvisory.get(v.advisoryId) ?? this.byAdvisory.set(v.advisoryId, []).get(v.advisoryId)!).push(v);
  }

  vulnerability(id: number | null): VulnerabilityTraits | undefined {
    return id === null ? undefined : this.byId.get(id);
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
    // Without a finding, the row the alert shows (alert-views.ts).
    const row = finding ? this.vulnerability(finding.vulnerabilityId) : vulnerabilityOf(alert!, this.byAdvisory.get(alert!.advisoryId) ?? []);
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
