import { DependencyIndexStore, type MatchableDependency } from '../../src/modules/alert-engine/dependency-index.store';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The engine's dependency index over a real database: a scan writes only what changed, and
// the identity read back in SQL agrees with the one built in JavaScript whatever the names
// hold (colons, digits, astral characters, the same text split differently between fields).

const NOW = '2026-02-01T00:00:00Z';
let db: TestDatabase;
let repoId: number;
const index = new DependencyIndexStore();

beforeAll(async () => {
  db = await createTestDatabase();
  const [owner] = await db.knex('accounts').insert({ login: 'idx-org', login_key: 'idx-org', type: 'Organization', name: 'idx-org', created_at: NOW, updated_at: NOW }).returning('id');
  const [repo] = await db.knex('repositories').insert({ owner_id: (owner as { id: number }).id, name: 'app', name_key: 'app', created_at: NOW, updated_at: NOW }).returning('id');
  repoId = Number((repo as { id: number }).id);
});
afterAll(() => db.destroy());

const dep = (packageName: string, version: string, manifestPath = 'package-lock.json', o: Partial<MatchableDependency> = {}): MatchableDependency => ({
  ecosystem: 'npm', normalizedName: packageName, packageName, version, manifestPath, scope: 'runtime', relationship: 'direct', ...o,
});

async function rows(): Promise<Array<{ id: number; package_name: string; version: string; manifest_path: string }>> {
  return (await db.knex('repository_dependencies').where('repo_id', repoId).orderBy('id').select('id', 'package_name', 'version', 'manifest_path'))
    .map((r) => ({ ...r, id: Number(r.id) }));
}

describe('the dependency index', () => {
  const tricky = [
    dep('a:1', '2:3'), dep('a', '1:23'), dep('12', '3'), dep('1', '23'),
    dep('emoji-😀', '1.0.0', 'app/😀/package-lock.json'), dep('plain', '1.0.0', 'a:b/package-lock.json'),
    dep('plain', '1.0.0', 'package-lock.json', { scope: 'development' }), dep('plain', '1.0.0', 'package-lock.json', { relationship: 'indirect' }),
    dep('twice', '1.0.0'), dep('twice', '1.0.0'),
  ];

  it('keeps every row of an unchanged scan as it is', async () => {
    await index.sync(db.knex, repoId, tricky);
    const first = await rows();
    expect(first).toHaveLength(tricky.length);
    await index.sync(db.knex, repoId, tricky);
    expect(await rows()).toEqual(first);
  });

  it('replaces only what a scan changed, and finds repositories by package', async () => {
    const before = await rows();
    // '12@3' upgraded to 4, one of the two identical 'twice' gone.
    const next = [...tricky.filter((d) => d.packageName !== '12').slice(0, -1), dep('12', '4')];
    await index.sync(db.knex, repoId, next);
    const after = await rows();
    const kept = after.filter((r) => before.some((b) => b.id === r.id));
    expect(kept).toHaveLength(tricky.length - 1 - 1);
    expect(after.filter((r) => !before.some((b) => b.id === r.id))).toEqual([{ id: expect.any(Number), package_name: '12', version: '4', manifest_path: 'package-lock.json' }]);
    const held = await index.holding(db.knex, [{ ecosystem: 'npm', normalizedName: '12' }, { ecosystem: 'npm', normalizedName: 'emoji-😀' }]);
    expect([...held.keys()]).toEqual([repoId]);
    expect(held.get(repoId)!.map((d) => `${d.packageName}@${d.version}`).sort()).toEqual(['12@4', 'emoji-😀@1.0.0']);
  });

  it('empties a repository whose scan holds nothing that can match', async () => {
    await index.sync(db.knex, repoId, []);
    expect(await rows()).toEqual([]);
  });
});
