import { compileAffected } from '../../src/modules/advisories/versions';
import type { MatchableRange } from '../../src/modules/advisories/affects-matching';
import type { TriageFacts, TriagePolicy } from '../../src/modules/auto-triage/triage-policy';
import type { AdvisoryTraits, VulnerabilityTraits } from '../../src/modules/advisories/advisories.types';
import type { EngineAlert } from '../../src/modules/alert-engine/alert-engine.store';
import { matchable, matchFindings, preferred, raisingFindings, rowIdsByPackage, type Finding } from '../../src/modules/alert-engine/alert-findings';
import { AdvisoryFacts, planTransitions, type Plan, type PlanningInput } from '../../src/modules/alert-engine/alert-planning';
import type { MatchableDependency } from '../../src/modules/alert-engine/dependency-index.store';
import { vulnerabilityOf } from '../../src/modules/dependency-alerts/alert-views';

// The alert engine's planning over plain data (no database): which dependencies are findings,
// which alert each finding belongs to, and what each alert does.

const advisory = (id: number, o: Partial<AdvisoryTraits> = {}): AdvisoryTraits => ({
  id, svcsaId: `GHSA-${id}`, cveId: null, severity: 'high', classification: 'general', type: 'reviewed', withdrawn: false, epssPercentage: null, cweIds: [], ...o,
});
const row = (id: number, advisoryId: number, o: Partial<VulnerabilityTraits> = {}): VulnerabilityTraits => ({
  id, advisoryId, ecosystem: 'npm', packageName: 'left-pad', packageKey: 'left-pad', hasPatch: false, ...o,
});
const finding = (o: Partial<Finding> = {}): Finding => ({
  advisoryId: 1, vulnerabilityId: 10, ecosystem: 'npm', packageName: 'left-pad', manifestPath: 'package-lock.json', scope: 'runtime', relationship: 'direct', ...o,
});
const alert = (o: Partial<EngineAlert> = {}): EngineAlert => ({
  id: 100, repoId: 1, number: 1, advisoryId: 1, ecosystem: 'npm', packageName: 'left-pad', manifestPath: 'package-lock.json', scope: 'runtime',
  relationship: 'direct', state: 'open', autoDismissedBy: null, vulnerabilityId: 10,
  copies: { owner_id: 7, severity: 'high', classification: 'general', epss_percentage: null, epss_sort: -1, has_patch: false }, ...o,
});
const factsOf = (advisories: AdvisoryTraits[] = [advisory(1)], rows: VulnerabilityTraits[] = [row(10, 1)]) => new AdvisoryFacts(new Map(advisories.map((a) => [a.id, a])), rows, 7);
const none: TriagePolicy = () => null;
const rule: TriagePolicy = () => ({ kind: 'rule', ruleId: 7, action: 'dismiss' });
const keyed = (...findings: Finding[]) => raisingFindings(findings, new Map([[1, advisory(1)], [2, advisory(2)]]));
/** The manifests the tests' snapshots cover, unless a test says otherwise. */
const covered = new Set(['package-lock.json', 'b/package-lock.json', 'c/package-lock.json']);
const plan = (o: Partial<PlanningInput>): Plan[] => planTransitions({ alerts: [], findings: new Map(), coveredManifests: covered, facts: factsOf(), policy: none, reopened: undefined, ...o });
/** Each plan as (alert number or the new finding's row, steps' actions, refresh). */
const summary = (plans: Plan[]) => plans.map((p) => [p.alert?.number ?? `new ${p.finding!.vulnerabilityId}`, p.steps.map((s) => s.action), p.refresh]);

describe('the engine\'s findings', () => {
  const below120: MatchableRange = { advisoryId: 1, compiled: compileAffected('npm', { ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.2.0' }] }] }) };
  const below200: MatchableRange = { advisoryId: 2, compiled: compileAffected('npm', { ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '2.0.0' }] }] }) };
  const dependency = (o: Partial<MatchableDependency> = {}): MatchableDependency => ({
    ecosystem: 'npm', normalizedName: 'left-pad', packageName: 'left-pad', version: '1.0.0', manifestPath: 'package-lock.json', scope: 'runtime', relationship: 'indirect', ...o,
  });
  const rows = rowIdsByPackage([{ id: 11, ecosystem: 'npm', packageKey: 'left-pad' }, { id: 10, ecosystem: 'npm', packageKey: 'left-pad' }]);
  const ranges = new Map([[10, below120], [11, below200]]);

  it('finds a dependency in each vulnerable range of its package, in dependency then row order, indirect named transitive', () => {
    expect(matchFindings([dependency(), dependency({ manifestPath: 'b/package-lock.json', version: '1.5.0', relationship: 'direct' })], rows, ranges)).toEqual([
      finding({ relationship: 'transitive' }),
      finding({ advisoryId: 2, vulnerabilityId: 11, relationship: 'transitive' }),
      finding({ advisoryId: 2, vulnerabilityId: 11, manifestPath: 'b/package-lock.json' }),
    ]);
  });

  it('finds nothing for a version outside the ranges, one that does not parse, or another package', () => {
    expect(matchFindings([dependency({ version: '2.0.0' }), dependency({ version: 'not a version' }), dependency({ normalizedName: 'right-pad' })], rows, ranges)).toEqual([]);
  });

  it('matches only dependencies with an advisory ecosystem and a version, by their normalized name', () => {
    const current = (ecosystem: string | null, name: string, version: string | null) => ({
      packageUrl: `pkg:x/${name}`, package: { purlType: 'x', ecosystem, name, version }, manifestName: 'm', manifestPath: 'requirements.txt',
      scope: 'runtime' as const, relationship: 'direct' as const, dependencies: [],
    });
    expect(matchable([current('pip', 'Foo_Bar', '1.0'), current(null, 'x', '1.0'), current('cocoapods', 'x', '1.0'), current('pip', 'y', null)])).toEqual([
      { ecosystem: 'pip', normalizedName: 'foo-bar', packageName: 'Foo_Bar', version: '1.0', manifestPath: 'requirements.txt', scope: 'runtime', relationship: 'direct' },
    ]);
  });

  it('prefers, of two findings of one key, runtime before development, direct before transitive, then the first row, then the name', () => {
    const dev = finding({ scope: 'development' });
    const transitive = finding({ relationship: 'transitive' });
    const unknown = finding({ relationship: 'unknown' });
    const later = finding({ vulnerabilityId: 11 });
    const named = finding({ packageName: 'Left-Pad' });
    expect(preferred(dev, finding())).toEqual(finding());
    expect(preferred(finding({ scope: 'development' }), transitive)).toBe(transitive);
    expect(preferred(transitive, finding())).toEqual(finding());
    expect(preferred(unknown, transitive)).toBe(transitive);
    expect(preferred(later, finding())).toEqual(finding());
    expect(preferred(finding(), named)).toBe(named);
    const first = finding();
    expect(preferred(first, finding())).toBe(first);
  });

  it('raises one finding per key, the preferred whatever the order read, and none of unreviewed advisories', () => {
    const dev = finding({ scope: 'development' });
    const runtime = finding({ vulnerabilityId: 12 });
    expect([...keyed(dev, runtime).values()]).toEqual([runtime]);
    expect([...keyed(runtime, dev).values()]).toEqual([runtime]);
    const advisories = new Map([[1, advisory(1, { type: 'unreviewed' })], [2, advisory(2, { type: 'malware' })], [3, advisory(3, { withdrawn: true })]]);
    const found = raisingFindings([finding(), finding({ advisoryId: 2 }), finding({ advisoryId: 3 }), finding({ advisoryId: 4 })], advisories);
    // Withdrawn advisories' findings still count (the lifecycle dismisses their alerts); unknown advisories' do not.
    expect([...found.values()].map((f) => f.advisoryId)).toEqual([2, 3]);
  });
});

describe('the engine\'s plans', () => {
  it('gives a finding to the lowest-numbered of the alerts on it; the others, without one, are fixed', () => {
    const findings = keyed(finding());
    expect(summary(plan({ alerts: [alert(), alert({ id: 101, number: 2 })], findings }))).toEqual([[1, [], {}], [2, ['fixed'], {}]]);
  });

  it('creates an alert for a finding no alert has, triaged at once', () => {
    const findings = keyed(finding(), finding({ advisoryId: 2, vulnerabilityId: 20 }));
    const facts = factsOf([advisory(1), advisory(2)], [row(10, 1), row(20, 2)]);
    expect(summary(plan({ alerts: [alert()], findings, facts, policy: rule }))).toEqual([[1, ['auto_dismissed'], {}], ['new 20', ['created', 'auto_dismissed'], {}]]);
  });

  it('dismisses the alerts of a withdrawn advisory and creates none for it', () => {
    const facts = factsOf([advisory(1, { withdrawn: true }), advisory(2, { withdrawn: true })], [row(10, 1), row(20, 2)]);
    const plans = plan({ alerts: [alert()], findings: keyed(finding(), finding({ advisoryId: 2, vulnerabilityId: 20 })), facts });
    expect(summary(plans)).toEqual([[1, ['auto_dismissed'], {}]]);
    expect(plans[0]!.steps[0]!.autoDismissedBy).toBe('withdrawal');
  });

  it('without a covered manifest, neither fixes nor reintroduces alerts, but still triages them', () => {
    const alerts = [alert(), alert({ id: 101, number: 2, state: 'fixed' })];
    expect(summary(plan({ alerts, coveredManifests: new Set() }))).toEqual([[1, [], {}], [2, [], {}]]);
    expect(summary(plan({ alerts, coveredManifests: new Set(), policy: rule }))).toEqual([[1, ['auto_dismissed'], {}], [2, [], {}]]);
  });

  it('settles only the alerts of covered manifests: one of a manifest no snapshot covered stands, triaged', () => {
    const alerts = [alert(), alert({ id: 101, number: 2, manifestPath: 'Gemfile.lock' }), alert({ id: 102, number: 3, manifestPath: 'Gemfile.lock', state: 'fixed' })];
    expect(summary(plan({ alerts }))).toEqual([[1, ['fixed'], {}], [2, [], {}], [3, [], {}]]);
    expect(summary(plan({ alerts, policy: rule }))).toEqual([[1, ['fixed'], {}], [2, ['auto_dismissed'], {}], [3, [], {}]]);
    expect(summary(plan({ alerts, coveredManifests: new Set([...covered, 'Gemfile.lock']) }))).toEqual([[1, ['fixed'], {}], [2, ['fixed'], {}], [3, [], {}]]);
  });

  it('refreshes only the columns that differ, a stored 0 or 1 being the same as false or true', () => {
    const stored = alert({ copies: { ...alert().copies, has_patch: 0 as unknown as boolean }, vulnerabilityId: 10 });
    expect(summary(plan({ alerts: [stored], findings: keyed(finding()) }))).toEqual([[1, [], {}]]);
    const facts = factsOf([advisory(1, { severity: 'critical', epssPercentage: 0.5 })], [row(10, 1, { hasPatch: true }), row(11, 1)]);
    const moved = finding({ vulnerabilityId: 11, scope: 'development' });
    expect(summary(plan({ alerts: [stored], findings: keyed(moved), facts }))).toEqual([
      [1, [], { severity: 'critical', epss_percentage: 0.5, epss_sort: 0.5, scope: 'development', vulnerability_id: 11 }],
    ]);
    expect(summary(plan({ alerts: [stored], findings: keyed(finding()), facts }))).toEqual([[1, [], { severity: 'critical', epss_percentage: 0.5, epss_sort: 0.5, has_patch: true }]]);
  });

  it('plans only the alert a person reopened, not auto-dismissing it, and creates nothing', () => {
    const alerts = [alert(), alert({ id: 101, number: 2, manifestPath: 'b/package-lock.json' })];
    const findings = keyed(finding(), finding({ manifestPath: 'b/package-lock.json' }), finding({ manifestPath: 'c/package-lock.json' }));
    expect(summary(plan({ alerts, findings, policy: rule, reopened: 101 }))).toEqual([[2, [], {}]]);
    expect(summary(plan({ alerts, findings: keyed(finding()), policy: rule, reopened: 101 }))).toEqual([[2, ['fixed'], {}]]);
  });

  it('triages an alert without a finding by the row it shows: the matched one, else its advisory\'s first on its package', () => {
    const seen: TriageFacts[] = [];
    const untilPatch: TriagePolicy = (f) => { seen.push(f); return f.hasPatch ? null : { kind: 'rule', ruleId: 8, action: 'dismiss_until_patch' }; };
    const rows = [row(9, 2, { hasPatch: false }), row(10, 1, { packageName: 'other', hasPatch: false }), row(11, 1, { hasPatch: true }), row(12, 1, { hasPatch: false })];
    const facts = factsOf([advisory(1), advisory(2)], rows);
    const declared = alert({ vulnerabilityId: null });
    expect(summary(plan({ alerts: [declared], coveredManifests: new Set(), facts, policy: untilPatch }))).toEqual([[1, [], { has_patch: true }]]);
    expect(summary(plan({ alerts: [alert({ vulnerabilityId: 12 })], coveredManifests: new Set(), facts, policy: untilPatch }))).toEqual([[1, ['auto_dismissed'], {}]]);
    expect(seen.map((f) => f.hasPatch)).toEqual([true, false]);
  });
});

describe('the row an alert shows', () => {
  const rows = [{ id: 10, ecosystem: 'npm', packageName: 'other' }, { id: 11, ecosystem: 'npm', packageName: 'left-pad' }, { id: 12, ecosystem: 'npm', packageName: 'left-pad' }];

  it('is the matched row, else the first on its package, else none', () => {
    expect(vulnerabilityOf({ vulnerabilityId: 12, ecosystem: 'npm', packageName: 'left-pad' }, rows)?.id).toBe(12);
    expect(vulnerabilityOf({ vulnerabilityId: null, ecosystem: 'npm', packageName: 'left-pad' }, rows)?.id).toBe(11);
    expect(vulnerabilityOf({ vulnerabilityId: 99, ecosystem: 'npm', packageName: 'left-pad' }, rows)?.id).toBe(11);
    expect(vulnerabilityOf({ vulnerabilityId: null, ecosystem: 'pip', packageName: 'left-pad' }, rows)).toBeUndefined();
  });
});
