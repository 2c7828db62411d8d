import type { Executor } from '../../database/transaction';
import { MAX_RESOLVED_PER_MANIFEST } from './dependency-graph.schemas';
import type { DependencyPackage, SnapshotInput, SnapshotResult } from './dependency-graph.types';
import { chunksOf } from '../../shared/chunks';

/** Keys per statement: well under either dialect's limit on bound values. */
const CHUNK = 200;

/**
 * A resolved package as dependency_snapshot_manifests.packages holds it (see the migration
 * 20261127090000): key, package URL, purl type, ecosystem, name, version, scope, relationship,
 * dependencies, metadata.
 */
type StoredPackageArray = [string, string, string, string | null, string, string | null, ContributedPackage['scope'], ContributedPackage['relationship'], string[], Record<string, unknown>];

/** Manifests per insert statement (six values each). */
const MANIFESTS_PER_STATEMENT = 50;

/** The manifests one current snapshot contributes, in the order they were sent. */
export interface SnapshotContribution<P extends ContributedPackage = StoredPackage> {
  snapshotId: number;
  correlator: string;
  detectorName: string;
  createdAt: string;
  manifests: Array<ContributedManifest<P>>;
}

export interface ContributedManifest<P extends ContributedPackage = StoredPackage> {
  name: string;
  sourceLocation: string | null;
  packages: P[];
}

/** A package as read back, with its row id (GraphQL's cursors). */
export interface StoredPackage extends ContributedPackage {
  id: number;
}

/** A resolved package of a manifest, as stored or as just submitted. */
export interface ContributedPackage {
  packageUrl: string;
  package: DependencyPackage;
  scope: 'runtime' | 'development';
  relationship: 'direct' | 'indirect' | 'unknown';
  dependencies: string[];
}

/** Snapshots as submitted, which one is current per (correlator, detector), and which manifests applied ones covered. */
export class DependencySnapshotsStore {
  /** The branch whose snapshots are applied (refs/heads/<default_branch>). */
  async defaultBranchOf(db: Executor, repoId: number): Promise<string> {
    const row = await db('repositories').where('id', repoId).first('default_branch');
    return String(row?.default_branch ?? 'main');
  }

  /** Stores a submission whole; answers its id. */
  async insert(db: Executor, repoId: number, input: SnapshotInput, result: SnapshotResult, now: string): Promise<number> {
    const [row] = await db('dependency_snapshots').insert({
      repo_id: repoId, version: input.version, job_id: input.job.id, correlator: input.job.correlator, job_html_url: input.job.htmlUrl,
      sha: input.sha, ref: input.ref, detector_name: input.detector.name, detector_version: input.detector.version, detector_url: input.detector.url,
      scanned: input.scanned, metadata: JSON.stringify(input.metadata), result, created_at: now,
    }).returning('id');
    const snapshotId = Number(row.id ?? row);
    // One row per manifest, in the order sent (ids ascending), its packages in one column.
    for (const chunk of chunksOf(input.manifests, MANIFESTS_PER_STATEMENT)) {
      await db('dependency_snapshot_manifests').insert(chunk.map((manifest) => ({
        snapshot_id: snapshotId, manifest_key: manifest.key, name: manifest.name, source_location: manifest.sourceLocation, metadata: JSON.stringify(manifest.metadata),
        packages: JSON.stringify(manifest.resolved.map((r): StoredPackageArray => [
          r.key, r.packageUrl, r.package.purlType, r.package.ecosystem, r.package.name, r.package.version, r.scope, r.relationship, r.dependencies, r.metadata,
        ])),
      })));
    }
    return snapshotId;
  }

  /** Whether the same submission (job, detector, commit, ref, scan time) is stored already. */
  async isStored(db: Executor, repoId: number, input: SnapshotInput): Promise<boolean> {
    const row = await db('dependency_snapshots').where({
      repo_id: repoId, job_id: input.job.id, correlator: input.job.correlator, detector_name: input.detector.name,
      sha: input.sha, ref: input.ref, scanned: input.scanned,
    }).first('id');
    return row !== undefined;
  }

  /** The snapshot applied now (`at`, UTC with milliseconds): SUCCESS, as a later read of it says. */
  async markApplied(db: Executor, snapshotId: number, at: string): Promise<void> {
    await db('dependency_snapshots').where('id', snapshotId).update({ result: 'SUCCESS' satisfies SnapshotResult, applied_at: at });
  }

  /** The snapshot waits in the queue from `at` (UTC with milliseconds). */
  async markQueued(db: Executor, snapshotId: number, at: string): Promise<void> {
    await db('dependency_snapshots').where('id', snapshotId).update({ queued_at: at });
  }

  /** A stored submission as it was checked (the queue's worker applies it from here); undefined when it is gone. */
  async storedInput(db: Executor, snapshotId: number): Promise<SnapshotInput | undefined> {
    const row = await db('dependency_snapshots').where('id', snapshotId).first();
    if (row === undefined) return undefined;
    const manifests: Array<Record<string, any>> = await db('dependency_snapshot_manifests').where('snapshot_id', snapshotId).orderBy('id')
      .select('manifest_key', 'name', 'source_location', 'metadata', 'packages');
    return {
      version: Number(row.version),
      job: { id: row.job_id, correlator: row.correlator, htmlUrl: row.job_html_url ?? null },
      sha: row.sha, ref: row.ref,
      detector: { name: row.detector_name, version: row.detector_version, url: row.detector_url },
      scanned: row.scanned,
      metadata: JSON.parse(row.metadata),
      manifests: manifests.map((m) => ({
        key: m.manifest_key, name: m.name, sourceLocation: m.source_location ?? null, metadata: JSON.parse(m.metadata),
        resolved: (JSON.parse(m.packages) as StoredPackageArray[]).map(([key, packageUrl, purlType, ecosystem, name, version, scope, relationship, dependencies, metadata]) => ({
          key, packageUrl, package: { purlType, ecosystem, name, version }, scope, relationship, dependencies, metadata,
        })),
      })),
    };
  }

  /**
   * Makes a snapshot the current one of its (correlator, detector) unless a current one was
   * scanned later; one statement, so concurrent submissions of one pair keep the newest.
   * Answers whether it is now current.
   */
  async makeCurrent(db: Executor, repoId: number, input: SnapshotInput, snapshotId: number): Promise<boolean> {
    const key = { repo_id: repoId, correlator: input.job.correlator, detector_name: input.detector.name };
    await db('repository_current_snapshots')
      .insert({ ...key, snapshot_id: snapshotId, scanned: input.scanned })
      .onConflict(['repo_id', 'correlator', 'detector_name'])
      .merge(['snapshot_id', 'scanned'])
      .whereRaw('repository_current_snapshots.scanned <= excluded.scanned');
    const current = await db('repository_current_snapshots').where(key).first('snapshot_id');
    return Number(current?.snapshot_id) === snapshotId;
  }

  /** Every repository with at least one applied snapshot (a world load re-evaluates them). */
  async repositoriesWithSnapshots(db: Executor): Promise<number[]> {
    const rows: Array<{ repo_id: number }> = await db('repository_current_snapshots').distinct('repo_id');
    return rows.map((row) => Number(row.repo_id)).sort((a, b) => a - b);
  }

  /** The current snapshots of a repository with their manifests and packages, by correlator then detector. */
  async currentContributions(db: Executor, repoId: number): Promise<SnapshotContribution[]> {
    const rows: Array<Record<string, any>> = await currentManifests(db)
      .where('c.repo_id', repoId)
      .orderBy(CONTRIBUTION_ORDER)
      .select(...MANIFEST_COLUMNS, 'm.packages');
    const contributions: SnapshotContribution[] = [];
    for (const row of rows) appendManifest(contributions, row).packages.push(...storedPackagesOf(row));
    return contributions;
  }

  /** currentContributions of several repositories, one statement per chunk of them (GraphQL's loaders); a repository with none is absent. */
  async currentContributionsByRepoIds(db: Executor, repoIds: readonly number[]): Promise<Map<number, SnapshotContribution[]>> {
    const byRepo = new Map<number, SnapshotContribution[]>();
    for (const chunk of chunksOf([...new Set(repoIds)], CHUNK)) {
      const rows: Array<Record<string, any>> = await currentManifests(db)
        .whereIn('c.repo_id', chunk)
        .orderBy([{ column: 'c.repo_id' }, ...CONTRIBUTION_ORDER])
        .select('c.repo_id', ...MANIFEST_COLUMNS, 'm.packages');
      for (const row of rows) {
        const repoId = Number(row.repo_id);
        const contributions = byRepo.get(repoId) ?? byRepo.set(repoId, []).get(repoId)!;
        appendManifest(contributions, row).packages.push(...storedPackagesOf(row));
      }
    }
    return byRepo;
  }

  /**
   * currentContributions right after `applied` was stored and made current in this
   * transaction: its packages are taken as submitted rather than read back (its manifests
   * were inserted in the order given, so in id order); the other snapshots' are read.
   */
  async contributionsAfter(db: Executor, repoId: number, applied: { snapshotId: number; input: SnapshotInput }): Promise<Array<SnapshotContribution<ContributedPackage>>> {
    const rows: Array<Record<string, any>> = await currentManifests(db)
      .where('c.repo_id', repoId)
      .orderBy(CONTRIBUTION_ORDER)
      .select(...MANIFEST_COLUMNS, db.raw('case when m.snapshot_id = ? then null else m.packages end as packages', [applied.snapshotId]));
    const contributions: Array<SnapshotContribution<ContributedPackage>> = [];
    let appliedManifests = 0;
    for (const row of rows) {
      const manifest = appendManifest(contributions, row);
      if (Number(row.snapshot_id) === applied.snapshotId) manifest.packages.push(...applied.input.manifests[appliedManifests++]!.resolved);
      else manifest.packages.push(...storedPackagesOf(row));
    }
    return contributions;
  }

  /**
   * The manifest paths the applied snapshots of these repositories have covered
   * (repository_covered_manifests); a repository that has none is absent.
   */
  async coveredManifestPaths(db: Executor, repoIds: readonly number[]): Promise<Map<number, Set<string>>> {
    const byRepo = new Map<number, Set<string>>();
    for (const chunk of chunksOf([...new Set(repoIds)], CHUNK)) {
      for (const row of await db('repository_covered_manifests').whereIn('repo_id', chunk).select('repo_id', 'manifest_path')) {
        const repoId = Number(row.repo_id);
        (byRepo.get(repoId) ?? byRepo.set(repoId, new Set()).get(repoId)!).add(row.manifest_path);
      }
    }
    return byRepo;
  }

  /** Records manifest paths an applied snapshot covers, not recorded yet (the caller holds the repository's lock). */
  async recordCoveredManifestPaths(db: Executor, repoId: number, manifestPaths: readonly string[]): Promise<void> {
    for (const chunk of chunksOf(manifestPaths, CHUNK)) {
      await db('repository_covered_manifests').insert(chunk.map((manifestPath) => ({ repo_id: repoId, manifest_path: manifestPath })));
    }
  }
}

/** The current snapshots' manifests (c, s, m), ordered within a repository by CONTRIBUTION_ORDER. */
const currentManifests = (db: Executor) => db('repository_current_snapshots as c')
  .join('dependency_snapshots as s', 's.id', 'c.snapshot_id')
  .join('dependency_snapshot_manifests as m', 'm.snapshot_id', 's.id');
const CONTRIBUTION_ORDER = [{ column: 'c.correlator' }, { column: 'c.detector_name' }, { column: 'm.id' }];
const MANIFEST_COLUMNS = ['s.id as snapshot_id', 'c.correlator', 'c.detector_name', 's.created_at', 'm.id as manifest_id', 'm.name as manifest_name', 'm.source_location'];

/** Adds a manifest row (rows in CONTRIBUTION_ORDER) to its contribution; answers the manifest, its packages still to add. */
function appendManifest<P extends ContributedPackage>(contributions: Array<SnapshotContribution<P>>, row: Record<string, any>): ContributedManifest<P> {
  let contribution = contributions.at(-1);
  if (contribution?.snapshotId !== Number(row.snapshot_id)) {
    contribution = { snapshotId: Number(row.snapshot_id), correlator: row.correlator, detectorName: row.detector_name, createdAt: row.created_at, manifests: [] };
    contributions.push(contribution);
  }
  const manifest: ContributedManifest<P> = { name: row.manifest_name, sourceLocation: row.source_location ?? null, packages: [] };
  contribution.manifests.push(manifest);
  return manifest;
}

/** A manifest row's packages, each with an id from its manifest's id and its position (below the most a manifest holds). */
function storedPackagesOf(row: Record<string, any>): StoredPackage[] {
  const base = Number(row.manifest_id) * MAX_RESOLVED_PER_MANIFEST;
  return (JSON.parse(row.packages) as StoredPackageArray[]).map(([, packageUrl, purlType, ecosystem, name, version, scope, relationship, dependencies], i) => ({
    id: base + i, packageUrl, package: { purlType, ecosystem, name, version }, scope, relationship, dependencies,
  }));
}
