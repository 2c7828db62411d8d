import { migrateLatest } from '../../src/database/migrate';
import { insertedId, migrateBefore, migrationConfig } from '../helpers/migration-steps';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The migration that gives attestations their verdict columns: rows stored before keep every
// value and have no verdict (it is computed when read); the columns are added in place, so the
// table keeps its data_versions triggers; down drops them and keeps the rows.

const NAME = '20261127100000_add_attestation_verdicts';
const NOW = '2026-02-01T00:00:00Z';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase({ migrate: false });
});
afterEach(() => db.destroy());

describe('the migration that adds attestation verdicts', () => {
  it('keeps earlier attestations without a verdict, moves data_versions when one is written, and rolls back keeping the rows', async () => {
    await migrateBefore(db, NAME);
    const ownerId = insertedId(await db.knex('accounts').insert({ login: 'verdict-org', login_key: 'verdict-org', type: 'Organization', name: 'verdict-org', created_at: NOW, updated_at: NOW }).returning('id'));
    const repoId = insertedId(await db.knex('repositories').insert({ owner_id: ownerId, name: 'app', name_key: 'app', private: false, description: null, fork: false, created_at: NOW, updated_at: NOW }).returning('id'));
    const row = { repo_id: repoId, bundle: '{"mediaType":"application/vnd.dev.sigstore.bundle.v0.3+json"}', bundle_sha256: '5f1e0c8d2b7a4e9f3c6d1a8b0e2f4c7d9a3b5e8f1c0d2a4b6e8f0a1c3e5d7b9f', predicate_type: 'https://slsa.dev/provenance/v1', initiator_id: null, created_at: NOW };
    const id = insertedId(await db.knex('attestations').insert(row).returning('id'));

    await migrateLatest(db);
    expect(await db.knex('attestations').where('id', id).first()).toEqual({ id, ...row, verified: null, verification_reason: null, verification_signer: null, verification_roots: null });
    const before = await db.knex('data_versions').first('data');
    await db.knex('attestations').where('id', id).update({ verified: false, verification_reason: 'trusted root: none', verification_roots: '3c9e71d04b8f2a6e5d1c7b093f4a8e2d6b0c5f1a9e3d7c2b8f4a0e6d1c5b9f3a' });
    const after = await db.knex('data_versions').first('data');
    expect(Number(after.data)).toBeGreaterThan(Number(before.data));

    await db.knex.migrate.down({ ...migrationConfig(db), name: NAME });
    expect(await db.knex('attestations').where('id', id).first()).toEqual({ id, ...row });
  });
});
