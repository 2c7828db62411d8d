import { insertJsonRows } from '../../database/dialect';
import type { Executor } from '../../database/transaction';
import { chunksOf } from '../../shared/chunks';
import type { Ecosystem } from '../advisories/versions';

// The repository_dependencies table (see its migration): every repository's current
// dependencies that can match an advisory, kept in step with its snapshots, so that an
// advisory change finds the repositories and versions it concerns through one index.

/** Keys per statement: well under either dialect's bound-parameter limit. */
const CHUNK = 500;

/** A current dependency that can match: an advisory ecosystem and a version. */
export interface MatchableDependency {
  ecosystem: Ecosystem;
  /** The package name normalized per ecosystem (advisory_vulnerabilities.package_key). */
  normalizedName: string;
  packageName: string;
  version: string;
  manifestPath: string;
  scope: 'runtime' | 'development';
  relationship: 'direct' | 'indirect' | 'unknown';
}

const INSERT_COLUMNS = [
  ['repo_id', 'integer'], ['ecosystem', 'text'], ['normalized_name', 'text'], ['package_name', 'text'], ['version', 'text'],
  ['manifest_path', 'text'], ['scope', 'text'], ['relationship', 'text'],
] as const;
const READ_COLUMNS = ['id', 'repo_id', 'ecosystem', 'normalized_name', 'package_name', 'version', 'manifest_path', 'scope', 'relationship'];

/**
 * What tells two rows apart, as one string both here and in SQL (reading one column per row is
 * several times faster than reading eight): the fixed-vocabulary fields, then each free-text
 * one after its length in characters (so no content can make two rows look alike), the last
 * without. normalized_name follows from ecosystem and package_name.
 */
const IDENTITY_SQL = "ecosystem || ':' || scope || ':' || relationship || ':' || length(package_name) || ':' || package_name || length(version) || ':' || version || manifest_path";
const identityOf = (d: MatchableDependency) => `${d.ecosystem}:${d.scope}:${d.relationship}:${characters(d.packageName)}:${d.packageName}${characters(d.version)}:${d.version}${d.manifestPath}`;

/** Length in characters (code points), as SQL's length() counts. */
function characters(text: string): number {
  return /[\uD800-\uDBFF]/.test(text) ? [...text].length : text.length;
}

function dependencyOf(row: Record<string, any>): MatchableDependency {
  return {
    ecosystem: row.ecosystem, normalizedName: row.normalized_name, packageName: row.package_name, version: row.version,
    manifestPath: row.manifest_path, scope: row.scope, relationship: row.relationship,
  };
}

export class DependencyIndexStore {
  /**
   * Brings a repository's rows in line with its current dependencies: deletes the rows no
   * longer among them and inserts those that are new (a scan that changed a few packages
   * writes a few rows). Call in the transaction that changed its snapshots.
   */
  async sync(db: Executor, repoId: number, dependencies: readonly MatchableDependency[]): Promise<void> {
    const missing = new Map<string, MatchableDependency[]>();
    for (const d of dependencies) {
      const key = identityOf(d);
      (missing.get(key) ?? missing.set(key, []).get(key)!).push(d);
    }
    const stale: number[] = [];
    for (const row of await db('repository_dependencies').where('repo_id', repoId).select('id', db.raw(`${IDENTITY_SQL} as identity`))) {
      const key: string = row.identity;
      const wanted = missing.get(key);
      if (wanted === undefined) stale.push(Number(row.id));
      else if (wanted.length === 1) missing.delete(key);
      else wanted.pop();
    }
    for (const chunk of chunksOf(stale, CHUNK)) await db('repository_dependencies').whereIn('id', chunk).delete();
    const rows = [...missing.values()].flat().map((d) => [repoId, d.ecosystem, d.normalizedName, d.packageName, d.version, d.manifestPath, d.scope, d.relationship]);
    await insertJsonRows(db, 'repository_dependencies', INSERT_COLUMNS, rows);
  }

  /** The dependencies on any of these packages, by repository (ascending ids), each repository's in row order. */
  async holding(db: Executor, packages: ReadonlyArray<{ ecosystem: string; normalizedName: string }>): Promise<Map<number, MatchableDependency[]>> {
    const unique = [...new Map(packages.map((p) => [`${p.ecosystem}\u0000${p.normalizedName}`, [p.ecosystem, p.normalizedName]])).values()];
    const rows: Array<Record<string, any>> = [];
    for (const chunk of chunksOf(unique, CHUNK)) rows.push(...await db('repository_dependencies').whereIn(['ecosystem', 'normalized_name'], chunk).select(READ_COLUMNS));
    rows.sort((a, b) => a.repo_id - b.repo_id || a.id - b.id);
    const byRepo = new Map<number, MatchableDependency[]>();
    for (const row of rows) {
      const repoId = Number(row.repo_id);
      (byRepo.get(repoId) ?? byRepo.set(repoId, []).get(repoId)!).push(dependencyOf(row));
    }
    return byRepo;
  }
}
