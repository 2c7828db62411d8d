import type { CacheBudget } from '../../cache/cache-budget';
import { referenceCachedInWrites, type KeyedLookup } from '../../cache/reference-in-writes';
import { matchableRanges } from '../advisories/affects-matching';
import type { GlobalAdvisoriesStore, PackageRow } from '../advisories/advisories.store';
import type { AdvisoryLookupStore } from '../advisories/advisories.lookup-store';
import type { VulnerabilityTraits } from '../advisories/advisories.types';
import type { AlertEngineDeps } from './alert-engine';

/** The budget of each look-up's cache (CACHE_MB's shares: cache-budget.ts). */
export interface EngineReadBudgets {
  traits: CacheBudget;
  vulnerabilities: CacheBudget;
  packages: CacheBudget;
  ranges: CacheBudget;
}

/**
 * What the alert engine reads of the advisory database, which every snapshot reads again: kept
 * per committed reference version, inside the write transactions the engine runs in
 * (cache/reference-in-writes.ts says when that is safe). Ranges are kept compiled; a package
 * with no advisory is kept too (most of a snapshot's are). `newestCommitted`: the newest
 * reference version read outside transactions (DataVersionReader.newestRead).
 */
export function engineAdvisoryReads(
  stores: { advisories: Pick<AdvisoryLookupStore, 'traitsByIds' | 'vulnerabilityTraitsOf'>; global: Pick<GlobalAdvisoriesStore, 'rowsOfPackages' | 'rangesByIds'> },
  newestCommitted: () => number | undefined,
  budgets: EngineReadBudgets,
): Pick<AlertEngineDeps, 'advisories' | 'packageRows' | 'ranges'> {
  const cached = <K, V extends {}>(lookup: KeyedLookup<K, V>, keyOf: (key: K) => string, budget: CacheBudget) => (
    referenceCachedInWrites(lookup, { keyOf, newestCommitted, budget })
  );
  const traitsByIds = cached((db, ids: readonly number[]) => stores.advisories.traitsByIds(db, ids), String, budgets.traits);
  const vulnerabilitiesByAdvisory = cached(async (db, advisoryIds: readonly number[]) => {
    const byAdvisory = new Map<number, VulnerabilityTraits[]>(advisoryIds.map((id) => [id, []]));
    for (const row of await stores.advisories.vulnerabilityTraitsOf(db, advisoryIds)) byAdvisory.get(row.advisoryId)?.push(row);
    return byAdvisory;
  }, String, budgets.vulnerabilities);
  const rowsByPackage = cached(async (db, packages: readonly string[]) => {
    const byPackage = new Map<string, PackageRow[]>(packages.map((key) => [key, []]));
    for (const row of await stores.global.rowsOfPackages(db, namesByEcosystem(packages))) byPackage.get(packageKey(row.ecosystem, row.packageKey))?.push(row);
    return byPackage;
  }, (key) => key, budgets.packages);
  return {
    advisories: {
      traitsByIds,
      vulnerabilityTraitsOf: async (db, advisoryIds) => [...(await vulnerabilitiesByAdvisory(db, advisoryIds)).values()].flat().sort((a, b) => a.id - b.id),
    },
    packageRows: async (db, keys) => {
      const packages = [...keys].flatMap(([ecosystem, names]) => names.map((name) => packageKey(ecosystem, name)));
      return [...(await rowsByPackage(db, packages)).values()].flat();
    },
    ranges: cached(matchableRanges((db, ids) => stores.global.rangesByIds(db, ids)), String, budgets.ranges),
  };
}

const packageKey = (ecosystem: string, name: string) => `${ecosystem}\n${name}`;

function namesByEcosystem(packages: readonly string[]): Map<string, string[]> {
  const byEcosystem = new Map<string, string[]>();
  for (const key of packages) {
    const at = key.indexOf('\n');
    const ecosystem = key.slice(0, at);
    (byEcosystem.get(ecosystem) ?? byEcosystem.set(ecosystem, []).get(ecosystem)!).push(key.slice(at + 1));
  }
  return byEcosystem;
}
