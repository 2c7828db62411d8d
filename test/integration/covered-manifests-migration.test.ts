import { migrateLatest } from '../../src/database/migrate';
import { insertedId, migrateBefore } from '../helpers/migration-steps';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The migration that records which manifests applied snapshots covered (issue 40): a database
// with snapshots finds, per repository, the paths of every applied snapshot's manifests (the
// source location, else the name), once each, and none of a snapshot that was not applied.

const NAME = '20261208090000_record_covered_manifests';
const NOW = '2026-02-01T00:00:00Z';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase({ migrate: false });
});
afterEach(() => db.destroy());

/** A stored snapshot with manifests of [name, source_location], answered `result`. */
async function snapshot(repoId: number, result: 'SUCCESS' | 'ACCEPTED', manifests: Array<[string, string | null]>): Promise<void> {
  const snapshotId = insertedId(await db.knex('dependency_snapshots').insert({
    repo_id: repoId, version: 0, job_id: 'job', correlator: 'ci', sha: 'ce587453ced02b1526dfb4cb910479d431683101', ref: 'refs/heads/main',
    detector_name: 'detector', detector_version: '1', detector_url: 'https://example.com/d', scanned: '2026-02-01T00:00:00.000Z', result, created_at: NOW,
  }).returning('id'));
  for (const [name, source] of manifests) {
    await db.knex('dependency_snapshot_manifests').insert({ snapshot_id: snapshotId, manifest_key: name, name, source_location: source });
  }
}

describe('the migration that records covered manifests', () => {
  it('records the manifest paths of every applied snapshot, once per repository, and none of one not applied', async () => {
    await migrateBefore(db, NAME);
    const ownerId = insertedId(await db.knex('accounts').insert({ login: 'cov-org', login_key: 'cov-org', type: 'Organization', name: 'cov-org', created_at: NOW, updated_at: NOW }).returning('id'));
    const repo = async (name: string) => insertedId(await db.knex('repositories').insert({ owner_id: ownerId, name, name_key: name, created_at: NOW, updated_at: NOW }).returning('id'));
    const app = await repo('app');
    const other = await repo('other');
    await snapshot(app, 'SUCCESS', [['package-lock.json', 'app/package-lock.json'], ['Gemfile.lock', null]]);
    await snapshot(app, 'SUCCESS', [['package-lock.json', 'app/package-lock.json']]);
    await snapshot(app, 'ACCEPTED', [['go.mod', null]]);
    await snapshot(other, 'SUCCESS', [['Gemfile.lock', null]]);
    await migrateLatest(db);
    const rows = await db.knex('repository_covered_manifests').select('repo_id', 'manifest_path');
    // Sorted here: the order of texts in SQL follows the database's collation.
    const repoName = new Map([[app, 'app'], [other, 'other']]);
    expect(rows.map((row) => `${repoName.get(Number(row.repo_id))} ${row.manifest_path}`).sort()).toEqual([
      'app Gemfile.lock', 'app app/package-lock.json', 'other Gemfile.lock',
    ]);
  });
});
