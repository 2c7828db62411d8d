import type { ContributedPackage, SnapshotContribution, StoredPackage } from './dependency-snapshots.store';

/**
 * The current dependency set of a repository from its current snapshots (reference.md Part 2):
 * contributions come ordered by correlator, then detector. A manifest name belongs to the
 * first contribution that describes it (the first correlator in alphabetical order); the same
 * detector under other correlators has its resolved packages merged in (a package URL the
 * manifest already holds is kept once); other detectors' manifests of that name are left out.
 */
export function currentDependencies<P extends ContributedPackage = StoredPackage>(
  contributions: ReadonlyArray<SnapshotContribution<P>>,
): Array<P & { manifestName: string; manifestPath: string }> {
  const owners = new Map<string, { detectorName: string; manifestPath: string; packageUrls: Set<string> }>();
  const out: Array<P & { manifestName: string; manifestPath: string }> = [];
  for (const contribution of contributions) {
    for (const manifest of contribution.manifests) {
      let owner = owners.get(manifest.name);
      if (owner === undefined) {
        owner = { detectorName: contribution.detectorName, manifestPath: manifest.sourceLocation ?? manifest.name, packageUrls: new Set() };
        owners.set(manifest.name, owner);
      } else if (owner.detectorName !== contribution.detectorName) {
        continue;
      }
      for (const p of manifest.packages) {
        if (owner.packageUrls.has(p.packageUrl)) continue;
        owner.packageUrls.add(p.packageUrl);
        out.push({ ...p, manifestName: manifest.name, manifestPath: owner.manifestPath });
      }
    }
  }
  return out;
}
