import { createServices, type Services } from '../../src/composition';
import { WorldError } from '../../src/modules/world/world.loader';
import { ALERT_BATCH_SIZE } from '../../src/modules/world/world.source';
import { batchWorld } from '../helpers/batch-world';
import { plannerRows } from '../helpers/planner-rows';
import { hashTables } from '../helpers/table-hash';
import { createTestDatabase, dialect, type TestDatabase } from '../helpers/test-database';

// Alerts load a batch at a time; these worlds span several batches, so every rule of
// one-by-one loading is checked across batch boundaries.

let db: TestDatabase;
let services: Services;

beforeAll(async () => {
  db = await createTestDatabase();
  services = createServices(db);
});
afterAll(() => db.destroy());

async function repoId(owner: string, name: string): Promise<number> {
  const row = await db.knex('repositories as r').join('accounts as o', 'o.id', 'r.owner_id').where({ 'o.login': owner, 'r.name': name }).first('r.id');
  return Number(row.id);
}

async function expectRejectedWithoutWriting(world: unknown): Promise<WorldError> {
  const before = await hashTables(db.knex);
  const error = await services.world.load(world).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WorldError);
  expect(await hashTables(db.knex)).toEqual(before);
  return error as WorldError;
}

async function listIndexes(): Promise<string[]> {
  const rows = dialect === 'postgres'
    ? await db.knex('pg_indexes').where({ tablename: 'dependency_alerts' }).whereRaw('schemaname = current_schema()').select('indexname as name')
    : await db.knex('sqlite_master').where({ type: 'index', tbl_name: 'dependency_alerts' }).whereNotNull('sql').select('name');
  return rows.map((r) => r.name as string).sort();
}

/** The alert tables' triggers, each with whether it fires (PostgreSQL disables, SQLite drops them). */
async function listTriggers(): Promise<string[]> {
  const rows = dialect === 'postgres'
    ? await db.knex.raw(`select t.tgname || ':' || t.tgenabled::text as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
        where c.relname in ('dependency_alerts', 'dependency_alert_assignees') and c.relnamespace = current_schema()::regnamespace and not t.tgisinternal`).then((r: { rows: unknown[] }) => r.rows)
    : await db.knex('sqlite_master').where({ type: 'trigger' }).whereIn('tbl_name', ['dependency_alerts', 'dependency_alert_assignees']).select('name');
  return (rows as Array<{ name: string }>).map((r) => r.name).sort();
}

const dataVersion = async () => Number((await db.knex('data_versions').where('id', 1).first('data'))!.data);

describe('a world with more alerts than one batch', () => {
  const world = batchWorld('batches', 2 * ALERT_BATCH_SIZE + 500);

  beforeAll(() => services.world.load(world));

  it('writes every alert, numbered ones with their numbers and unnumbered ones after the highest number of their repository', async () => {
    const rows = await db.knex('dependency_alerts').where('repo_id', await repoId('batches', 'one')).orderBy('number').select('number', 'manifest_path');
    const declared = world.alerts.filter((a) => a.repository === 'batches/one');
    expect(rows).toHaveLength(declared.length);
    const numbered = declared.filter((a) => 'number' in a) as Array<{ number: number; manifest_path: string }>;
    const highest = Math.max(...numbered.map((a) => a.number));
    for (const a of numbered) expect(rows.find((r) => Number(r.number) === a.number)?.manifest_path).toBe(a.manifest_path);
    const unnumbered = declared.filter((a) => !('number' in a)).map((a) => a.manifest_path);
    // In file order, from the highest number on.
    expect(rows.filter((r) => Number(r.number) > highest).map((r) => r.manifest_path)).toEqual(unnumbered);
  });

  it('resolves assignees and dismissers to users', async () => {
    const dev = await db.knex('accounts').where('login', 'batches-dev').first('id');
    const owner = await db.knex('accounts').where('login', 'batches-owner').first('id');
    const counted = await db.knex('dependency_alert_assignees').where('user_id', dev.id).count({ n: '*' }).first();
    expect(Number(counted?.n)).toBe(world.alerts.filter((a) => a.assignees.includes('batches-dev')).length);
    const dismissed = await db.knex('dependency_alerts').where('state', 'dismissed').whereIn('repo_id', [
      await repoId('batches', 'one'), await repoId('batches', 'two'), await repoId('batches', 'three'),
    ]).select('dismissed_by_id');
    expect(dismissed.length).toBe(world.alerts.filter((a) => 'state' in a).length);
    expect(new Set(dismissed.map((r) => Number(r.dismissed_by_id)))).toEqual(new Set([Number(owner.id)]));
  });

  it('a second time writes nothing and moves no version', async () => {
    const before = await hashTables(db.knex);
    await services.world.load(world);
    expect(await hashTables(db.knex)).toEqual(before);
  });

  it('fails naming an alert of a later batch whose advisory does not exist, and writes nothing', async () => {
    const alerts = [...batchWorld('late-ref', 2 * ALERT_BATCH_SIZE + 10).alerts];
    const index = 2 * ALERT_BATCH_SIZE + 6; // numbered
    alerts[index] = { ...alerts[index]!, advisory: 'SVCSA-NOPE' };
    const error = await expectRejectedWithoutWriting({ ...batchWorld('late-ref', 0), alerts });
    expect(error.message).toBe(`alerts[${index}] "late-ref/${['one', 'two', 'three'][index % 3]}#${index + 1}": advisory "SVCSA-NOPE" does not exist`);
  });

  it('fails naming an unnumbered alert of a later batch whose assignee does not exist, and writes nothing', async () => {
    const alerts = [...batchWorld('late-user', ALERT_BATCH_SIZE + 10).alerts];
    const index = ALERT_BATCH_SIZE + 4; // i % 7 === 3: unnumbered
    alerts[index] = { ...alerts[index]!, assignees: ['no-such-assignee'] };
    const error = await expectRejectedWithoutWriting({ ...batchWorld('late-user', 0), alerts });
    expect(error.message).toBe(`alerts[${index}] "late-user/${['one', 'two', 'three'][index % 3]}": user "no-such-assignee" does not exist`);
  });

  it('reports a schema problem of a later batch before a dangling reference elsewhere, as a whole-world parse did', async () => {
    const alerts: unknown[] = [...batchWorld('late-schema', 2 * ALERT_BATCH_SIZE + 10).alerts];
    alerts[2 * ALERT_BATCH_SIZE + 1] = { ...(alerts[2 * ALERT_BATCH_SIZE + 1] as object), state: 'gone' };
    const error = await expectRejectedWithoutWriting({
      ...batchWorld('late-schema', 0), teams: [{ org: 'late-schema', slug: 'crew', members: ['no-such-member'] }], alerts,
    });
    expect(error.message).toMatch(new RegExp(`^alerts\\[${2 * ALERT_BATCH_SIZE + 1}\\]\\.state: `));
  });

  it('names at most 10 problems, in schema order, across batches', async () => {
    const alerts: unknown[] = [...batchWorld('many-errors', 3 * ALERT_BATCH_SIZE).alerts];
    for (let i = 0; i < 12; i++) alerts[i * 250] = { ...(alerts[i * 250] as object), scope: 'nowhere' };
    const error = await expectRejectedWithoutWriting({ ...batchWorld('many-errors', 0), users: [{ login: 'bad login' }], alerts, tokens: [{}] });
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[0]).toMatch(/^users\[0\]\.login: /);
    expect(lines.slice(1).map((l) => l.split(':')[0])).toEqual(Array.from({ length: 9 }, (_, i) => `alerts[${i * 250}].scope`));
  });

  it('a declaration repeated within a batch updates the alert the earlier one wrote, as one-by-one loading did', async () => {
    const base = batchWorld('repeat', 0);
    const alert = { repository: 'repeat/one', number: 1, advisory: 'SVCSA-repeat', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'package.json' };
    await services.world.load({ ...base, alerts: [alert, { ...alert, state: 'fixed', fixed_at: '2026-03-01T00:00:00Z' }] });
    const row = await db.knex('dependency_alerts').where('repo_id', await repoId('repeat', 'one')).first('state', 'version');
    expect(row).toEqual({ state: 'fixed', version: 2 });
  });
});

describe('text that array and list syntax would have to escape', () => {
  it('is stored as declared', async () => {
    const base = batchWorld('escape', 0);
    const manifest = 'a "quoted", {braced} \\ NULL path/package.json';
    const comment = 'it\'s "fine",\n{really}\\';
    await services.world.load({ ...base, alerts: [{
      repository: 'escape/one', number: 1, advisory: 'SVCSA-escape', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: manifest,
      state: 'dismissed', dismissed_at: '2026-02-02T00:00:00Z', dismissed_by: 'escape-owner', dismissed_reason: 'tolerable_risk', dismissed_comment: comment,
    }] });
    const row = await db.knex('dependency_alerts').where('repo_id', await repoId('escape', 'one')).first('manifest_path', 'dismissed_comment', 'has_patch');
    expect(row).toMatchObject({ manifest_path: manifest, dismissed_comment: comment });
    expect(Boolean(row.has_patch)).toBe(true);
  });
});

describe('a world with enough alerts for a bulk insert', () => {
  /** SQLite's page cache of the connection (the load widens it while it runs). */
  const cacheSize = async () => (dialect === 'sqlite' ? (await db.knex.raw('pragma cache_size'))[0].cache_size : null);

  it('loads them and leaves every index and trigger of the alerts tables and the page cache as they were, also when a later batch fails; the data version moves', async () => {
    const indexes = await listIndexes();
    const triggers = await listTriggers();
    const cache = await cacheSize();
    const versionBefore = await dataVersion();
    const world = batchWorld('bulk', 20_500);
    const alerts = [...world.alerts];
    alerts[20_400] = { ...alerts[20_400]!, advisory: 'SVCSA-NOPE' };
    await expectRejectedWithoutWriting({ ...world, alerts });
    expect(await listIndexes()).toEqual(indexes);
    expect(await listTriggers()).toEqual(triggers);
    expect(await cacheSize()).toBe(cache);
    await services.world.load(world);
    expect(await listIndexes()).toEqual(indexes);
    expect(await listTriggers()).toEqual(triggers);
    expect(triggers.length).toBeGreaterThan(4);
    expect(await cacheSize()).toBe(cache);
    // Caches of every instance see the load (on SQLite the per-row bumps were left out for one).
    expect(await dataVersion()).toBeGreaterThan(versionBefore);
    const counted = await db.knex('dependency_alerts').whereIn('repo_id', [await repoId('bulk', 'one'), await repoId('bulk', 'two'), await repoId('bulk', 'three')])
      .count({ n: '*' }).first();
    expect(Number(counted?.n)).toBe(20_500);
  }, 120_000);

  it('leaves PostgreSQL\'s planner knowing the tables\' new sizes (SQLite: no statistics, the plans the plan tests guard)', async () => {
    const alerts = Number((await db.knex('dependency_alerts').count({ n: '*' }).first())!.n);
    if (dialect === 'postgres') {
      // reltuples is -1 until a table is first vacuumed or analyzed; autovacuum would come round only minutes later.
      expect(alerts).toBeGreaterThan(20_500);
      expect(Math.abs((await plannerRows(db.knex, 'dependency_alerts')) - alerts)).toBeLessThan(alerts * 0.05);
    } else {
      expect(await db.knex('sqlite_master').where('name', 'sqlite_stat1').first()).toBeUndefined();
    }
  });
});

describe('a world with more advisories than one chunk', () => {
  // Advisories are written 200 at a time; 450 span three chunks, and each advisory's
  // vulnerabilities (1–3 packages) and its alerts' copies must follow across them.
  const count = 450;
  const pkg = (i: number, part: number) => ({ ecosystem: 'npm' as const, name: `chunked-${i}-${part}` });
  const advisory = (i: number, severity = 'high', fixed = '2.0.0') => ({
    svcsa_id: `SVCSA-CHUNK-${i}`, summary: `chunked ${i}`, severity, published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
    vulnerabilities: Array.from({ length: 1 + (i % 3) }, (_, part) => ({
      package: pkg(i, part), severity, vulnerable_version_range: '< 2.0.0', first_patched_version: part === 0 ? { identifier: fixed } : null,
    })),
  });
  const world = (advisories: Array<ReturnType<typeof advisory>>) => ({
    users: [{ login: 'chunks-owner' }],
    organizations: [{ login: 'chunks', owners: ['chunks-owner'] }],
    repositories: [{ owner: 'chunks', name: 'one' }],
    advisories,
    alerts: Array.from({ length: count }, (_, i) => ({
      repository: 'chunks/one', number: i + 1, advisory: `SVCSA-CHUNK-${i}`, package: pkg(i, i % 2 === 0 ? 0 : i % 3), manifest_path: 'package.json',
    })),
  });
  const vulnerabilityRows = () => db.knex('advisory_vulnerabilities as v').join('advisories as a', 'a.id', 'v.advisory_id')
    .where('a.svcsa_id', 'like', 'SVCSA-CHUNK-%').orderBy(['a.svcsa_id', 'v.package_name']).select('a.svcsa_id', 'v.package_name', 'v.first_patched_version');

  it('writes every advisory with its vulnerabilities, gives each alert its advisory\'s facts, and a second load writes nothing', async () => {
    const advisories = Array.from({ length: count }, (_, i) => advisory(i));
    await services.world.load(world(advisories));
    const rows = await vulnerabilityRows();
    expect(rows).toHaveLength(advisories.reduce((n, a) => n + a.vulnerabilities.length, 0));
    expect(rows.filter((r) => r.first_patched_version === '2.0.0')).toHaveLength(count);
    const alerts = await db.knex('dependency_alerts').where('repo_id', await repoId('chunks', 'one')).orderBy('number').select('number', 'severity', 'has_patch');
    // has_patch follows the vulnerability each alert's package matched: only the first package of each advisory has a fix.
    expect(alerts.map((a) => Boolean(a.has_patch))).toEqual(Array.from({ length: count }, (_, i) => (i % 2 === 0 ? true : i % 3 === 0)));
    const before = await hashTables(db.knex);
    await services.world.load(world(advisories));
    expect(await hashTables(db.knex)).toEqual(before);
  });

  it('a reload that changes advisories of the later chunks rewrites only their vulnerabilities and moves only their alerts', async () => {
    const changed = new Set([250, 449]);
    const advisories = Array.from({ length: count }, (_, i) => (changed.has(i) ? advisory(i, 'critical', '3.0.0') : advisory(i)));
    const versions = async () => new Map((await db.knex('dependency_alerts').where('repo_id', await repoId('chunks', 'one')).select('number', 'version', 'severity'))
      .map((r) => [Number(r.number), { version: Number(r.version), severity: r.severity as string }]));
    const before = await versions();
    await services.world.load(world(advisories));
    const after = await versions();
    for (const [number, row] of after) {
      const isChanged = changed.has(number - 1);
      expect({ number, moved: row.version !== before.get(number)!.version, severity: row.severity })
        .toEqual({ number, moved: isChanged, severity: isChanged ? 'critical' : 'high' });
    }
    const fixes = (await vulnerabilityRows()).filter((r) => r.first_patched_version === '3.0.0').map((r) => r.svcsa_id);
    expect(fixes.sort()).toEqual(['SVCSA-CHUNK-250', 'SVCSA-CHUNK-449']);
  });

  it('keeps the last entry of an advisory given twice in one chunk, as writing them one by one did', async () => {
    const advisories = Array.from({ length: count }, (_, i) => advisory(i));
    advisories.splice(5, 0, advisory(4, 'low', '9.0.0'));
    await services.world.load(world(advisories));
    const row = await db.knex('advisories').where('svcsa_id', 'SVCSA-CHUNK-4').first('severity');
    expect(row.severity).toBe('low');
    expect((await vulnerabilityRows()).filter((r) => r.svcsa_id === 'SVCSA-CHUNK-4').map((r) => r.first_patched_version)).toEqual(['9.0.0', null]);
  });
});

describe('a declaration repeated in a later batch, loaded into an empty table', () => {
  it('updates the alert the earlier batch wrote: batches of numbers not yet written skip the look-up, this one does not', async () => {
    const fresh = await createTestDatabase();
    try {
      const world = batchWorld('later', ALERT_BATCH_SIZE + 10);
      const repeat = {
        repository: 'later/one', number: 1, advisory: 'SVCSA-later', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'numbered/0/package.json',
        state: 'fixed', fixed_at: '2026-03-01T00:00:00Z',
      };
      await createServices(fresh).world.load({ ...world, alerts: [...world.alerts, repeat] });
      const rows = await fresh.knex('dependency_alerts as a').join('repositories as r', 'r.id', 'a.repo_id').where({ 'r.name': 'one', 'a.number': 1 }).select('a.state');
      expect(rows).toEqual([{ state: 'fixed' }]);
      expect(Number((await fresh.knex('dependency_alerts').count({ n: '*' }).first())!.n)).toBe(ALERT_BATCH_SIZE + 10);
    } finally {
      await fresh.destroy();
    }
  });
});
