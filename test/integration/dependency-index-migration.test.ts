import { migrateLatest } from '../../src/database/migrate';
import { insertedId, migrateBefore } from '../helpers/migration-steps';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The migration that moves snapshot packages into their manifests and "which repositories hold
// a package" into repository_dependencies: a database with applied snapshots keeps its
// packages, in order, and finds the same dependencies, merged by the reference's rules.

const NAME = '20261127090000_reshape_dependency_storage';
const NOW = '2026-02-01T00:00:00Z';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase({ migrate: false });
});
afterEach(() => db.destroy());

/** A current snapshot of (correlator, detector) with manifests of [name, source_location, purls as [ecosystem, name, normalized, version]]. */
async function currentSnapshot(repoId: number, correlator: string, detector: string, manifests: Array<[string, string | null, Array<[string | null, string, string | null, string | null]>]>): Promise<void> {
  const snapshotId = insertedId(await db.knex('dependency_snapshots').insert({
    repo_id: repoId, version: 0, job_id: `job-${correlator}`, correlator, sha: 'ce587453ced02b1526dfb4cb910479d431683101', ref: 'refs/heads/main',
    detector_name: detector, detector_version: '1', detector_url: 'https://example.com/d', scanned: '2026-02-01T00:00:00.000Z', result: 'SUCCESS', created_at: NOW,
  }).returning('id'));
  for (const [name, source, packages] of manifests) {
    const manifestId = insertedId(await db.knex('dependency_snapshot_manifests').insert({ snapshot_id: snapshotId, manifest_key: name, name, source_location: source }).returning('id'));
    for (const [ecosystem, pkg, normalized, version] of packages) {
      await db.knex('dependency_snapshot_packages').insert({
        manifest_id: manifestId, package_key: pkg, package_url: `pkg:${ecosystem ?? 'generic'}/${pkg}${version ? `@${version}` : ''}`, purl_type: ecosystem ?? 'generic',
        ecosystem, package_name: pkg, normalized_name: normalized, version, scope: 'runtime', relationship: 'direct',
      });
    }
  }
  await db.knex('repository_current_snapshots').insert({ repo_id: repoId, correlator, detector_name: detector, snapshot_id: snapshotId, scanned: '2026-02-01T00:00:00.000Z' });
}

describe('the migration that reshapes dependency storage', () => {
  it('fills repository_dependencies from the current snapshots, merged as the engine merges them, and moves packages into their manifests', async () => {
    await migrateBefore(db, NAME);
    const ownerId = insertedId(await db.knex('accounts').insert({ login: 'mig-org', login_key: 'mig-org', type: 'Organization', name: 'mig-org', created_at: NOW, updated_at: NOW }).returning('id'));
    const repoId = insertedId(await db.knex('repositories').insert({ owner_id: ownerId, name: 'app', name_key: 'app', created_at: NOW, updated_at: NOW }).returning('id'));
    // a-ci owns package-lock.json; z-ci's same detector merges into it, another detector's is left out.
    await currentSnapshot(repoId, 'a-ci', 'npm-detector', [
      ['package-lock.json', 'app/package-lock.json', [['npm', 'left-pad', 'left-pad', '1.0.0'], ['npm', 'no-version', 'no-version', null]]],
      ['requirements.txt', null, [['pip', 'Django_REST', 'django-rest', '3.0.0'], [null, 'plain', null, '1.0']]],
    ]);
    await currentSnapshot(repoId, 'z-ci', 'npm-detector', [['package-lock.json', 'z/package-lock.json', [['npm', 'left-pad', 'left-pad', '1.0.0'], ['npm', 'qs', 'qs', '6.0.0']]]]);
    await currentSnapshot(repoId, 'z-ci', 'other-detector', [['package-lock.json', 'other/package-lock.json', [['npm', 'minimist', 'minimist', '1.0.0']]]]);
    await migrateLatest(db);

    expect(await db.knex('repository_dependencies').orderBy('id').select('repo_id', 'ecosystem', 'normalized_name', 'package_name', 'version', 'manifest_path')).toEqual([
      { repo_id: repoId, ecosystem: 'npm', normalized_name: 'left-pad', package_name: 'left-pad', version: '1.0.0', manifest_path: 'app/package-lock.json' },
      { repo_id: repoId, ecosystem: 'pip', normalized_name: 'django-rest', package_name: 'Django_REST', version: '3.0.0', manifest_path: 'requirements.txt' },
      { repo_id: repoId, ecosystem: 'npm', normalized_name: 'qs', package_name: 'qs', version: '6.0.0', manifest_path: 'app/package-lock.json' },
    ]);
    // The packages moved into their manifests, in order; their table is gone.
    const manifests = await db.knex('dependency_snapshot_manifests').orderBy('id').select('name', 'packages');
    expect(manifests.map((m) => [m.name, JSON.parse(m.packages).map((p: unknown[]) => p.slice(1, 6))])).toEqual([
      ['package-lock.json', [['pkg:npm/left-pad@1.0.0', 'npm', 'npm', 'left-pad', '1.0.0'], ['pkg:npm/no-version', 'npm', 'npm', 'no-version', null]]],
      ['requirements.txt', [['pkg:pip/Django_REST@3.0.0', 'pip', 'pip', 'Django_REST', '3.0.0'], ['pkg:generic/plain@1.0', 'generic', null, 'plain', '1.0']]],
      ['package-lock.json', [['pkg:npm/left-pad@1.0.0', 'npm', 'npm', 'left-pad', '1.0.0'], ['pkg:npm/qs@6.0.0', 'npm', 'npm', 'qs', '6.0.0']]],
      ['package-lock.json', [['pkg:npm/minimist@1.0.0', 'npm', 'npm', 'minimist', '1.0.0']]],
    ]);
    expect(await db.knex.schema.hasTable('dependency_snapshot_packages')).toBe(false);
  });
});
