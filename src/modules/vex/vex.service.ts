import type { Principal } from '../../auth/principal';
import type { OperationName } from '../../operations';
import type { MatchableRange } from '../advisories/affects-matching';
import type { DependencyAlertsService } from '../dependency-alerts/alerts.service';
import type { AlertEventScope, AlertFilters, AlertView } from '../dependency-alerts/alerts.types';
import type { CurrentDependency } from '../dependency-graph/dependency-graph.types';
import { purlOfPackage } from '../dependency-graph/package-url';
import { alertDependencies } from '../dependency-paths/alert-paths';
import type { VexEntry, VexSubject } from './vex.types';

/** A VEX document's content: what it covers, and its alerts in batches as they are read. */
export interface VexContent {
  subject: VexSubject;
  entries: AsyncIterable<VexEntry[]>;
}

const OPERATION: Readonly<Record<AlertEventScope['kind'], OperationName>> = { repo: 'getRepositoryVex', org: 'getOrganizationVex' };

/**
 * VEX out: the alerts #24 or #25 would list, each with the package URLs of its vulnerable
 * dependencies in the repository's current snapshots (read once per repository: the alerts
 * come one repository at a time).
 */
export class VexService {
  constructor(private readonly deps: { alerts: DependencyAlertsService }) {}

  async content(principal: Principal, target: AlertEventScope, filters: AlertFilters): Promise<VexContent> {
    const { alerts } = this.deps;
    const exported = await alerts.exportable(principal, OPERATION[target.kind], target, filters);
    async function* entries(): AsyncGenerator<VexEntry[]> {
      let held: { repoId: number; dependencies: CurrentDependency[] } | undefined;
      for await (const views of exported.batches) {
        if (views.length === 0) continue; // deleted since their keys were read
        const repoId = views[0]!.alert.repoId;
        if (held?.repoId !== repoId) held = { repoId, dependencies: (await alerts.currentDependenciesByRepoIds(principal, [repoId])).get(repoId)! };
        yield entriesOf(views, held.dependencies, await alerts.vulnerableRangesByIds(principal, rangeIdsOf(views)));
      }
    }
    return { subject: exported.subject, entries: entries() };
  }
}

const rangeIdsOf = (views: readonly AlertView[]) => views.flatMap(({ alert }) => (alert.vulnerabilityId === null ? [] : [alert.vulnerabilityId]));

/** Each alert with its vulnerable dependencies' package URLs, else its package's without a version (none for an ecosystem without a purl type). */
function entriesOf(views: readonly AlertView[], dependencies: readonly CurrentDependency[], ranges: ReadonlyMap<number, MatchableRange>): VexEntry[] {
  return views.map((view) => {
    const { alert } = view;
    const current = new Set(alertDependencies(alert, alert.vulnerabilityId === null ? undefined : ranges.get(alert.vulnerabilityId), dependencies).map((d) => d.packageUrl));
    const unversioned = purlOfPackage(alert.ecosystem, alert.packageName, null);
    return { view, packageUrls: current.size > 0 ? [...current] : unversioned === undefined ? [] : [unversioned] };
  });
}
