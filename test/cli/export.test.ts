import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../../src/composition';
import { openDatabase } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { apiClient } from '../durability/api-client';
import { stopIfRunning } from '../durability/server-process';
import { withoutIssueMarks } from '../helpers/document-marks';
import { sharedDatabase, startInstance, type SharedDatabase } from '../helpers/instances';
import { DEMO_OWNER_TOKEN, OPERATIONS, demoWorld, recordDemoDeliveries, sampleUrl } from '../helpers/operations';
import { plannerRows } from '../helpers/planner-rows';
import { hashTables } from '../helpers/table-hash';
import { dialect } from '../helpers/test-database';
import { CLI } from './built-cli';

// `orgsec export FILE` and `orgsec load FILE --replace` (issue 36, part 3): the demo world
// with what it cannot declare (webhook deliveries, an OIDC signing key, an alert changed through
// the API) exported by the built CLI and restored into an empty database of the same dialect
// and into SQLite: every GET the API has answers the same on both (ids, node ids, timestamps,
// deliveries, the JWKS), and the demo tokens still authenticate (their hashes came along).

const run = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });

/** Every GET of the catalogue as the demo world's owner sends it, and the public OIDC documents. */
const GET_URLS = [
  ...OPERATIONS.filter((o) => o.method === 'GET').map(sampleUrl),
  '/orgs/acme-corp/dependency-bot/alerts?per_page=100', '/repos/acme-corp/api/dependency-bot/alerts?state=dismissed,open,fixed,auto_dismissed',
  '/oidc/.well-known/openid-configuration', '/oidc/.well-known/jwks',
];

/** What an answer says of the moment it was made, not of the data (the SBOM's creation time). */
async function answers(databaseUrl: string): Promise<Array<{ url: string; status: number; body: unknown }>> {
  const instance = await startInstance(databaseUrl);
  try {
    const api = apiClient(instance.url, DEMO_OWNER_TOKEN);
    const out = [];
    for (const url of GET_URLS) {
      const { status, body } = await api.send('GET', url);
      out.push({ url, status, body: withoutIssueMarks(body) });
    }
    return out;
  } finally {
    await stopIfRunning(instance);
  }
}

/** After a restore, a write creates rows with ids after the restored ones (PostgreSQL's sequences were moved past them). */
async function expectNewRowsTaken(databaseUrl: string): Promise<void> {
  const instance = await startInstance(databaseUrl);
  try {
    const api = apiClient(instance.url, DEMO_OWNER_TOKEN);
    const rule = await api.send('POST', '/orgs/acme-corp/dependency-bot/rules', { name: 'After the restore', conditions: { severity: ['low'] }, action: 'dismiss' });
    expect(rule.status).toBe(201);
    const all = (await api.send('GET', '/orgs/acme-corp/dependency-bot/rules')).body as Array<{ id: number }>;
    expect(rule.body.id).toBe(Math.max(...all.map((r) => r.id)));
    expect(all.length).toBeGreaterThan(1);
  } finally {
    await stopIfRunning(instance);
  }
}

let dir: string;
let source: SharedDatabase;
const targets: SharedDatabase[] = [];
let exportFile: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-export-'));
  source = await sharedDatabase();
  const db = openDatabase(source.url, { poolMax: 2 });
  try {
    await migrateLatest(db);
    await createServices(db, { rateLimits: false }).world.load(demoWorld());
    await recordDemoDeliveries(db.knex);
  } finally {
    await db.close();
  }
  // Through the API: an OIDC token minted (its signing key made) and an alert dismissed with an assignee.
  const instance = await startInstance(source.url);
  try {
    const api = apiClient(instance.url, DEMO_OWNER_TOKEN);
    const mint = await api.send('POST', '/repos/acme-corp/api/actions/oidc/token', { context: { event_name: 'push', ref: 'refs/heads/main', sha: 'c'.repeat(40), workflow: 'deploy', actor: 'alice' } });
    expect(mint.status).toBe(201);
    const patch = await api.send('PATCH', '/repos/acme-corp/api/dependency-bot/alerts/1', { state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'exported', assignees: ['bob'] });
    expect(patch.status).toBe(200);
  } finally {
    await stopIfRunning(instance);
  }
  exportFile = path.join(dir, 'orgsec.json');
  const exported = run('export', exportFile, '--database', source.url);
  expect(exported.stderr).toBe('');
  expect(exported.stdout).toMatch(/^Exported [\d,]+ rows of \d+ tables to .* in \d+\.\d s\.\n$/);
}, 120_000);

afterAll(async () => {
  for (const t of targets) await t.drop();
  await source?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function restoredInto(target: SharedDatabase): Promise<void> {
  targets.push(target);
  const loaded = run('load', exportFile, '--replace', '--database', target.url);
  expect(loaded.stderr).toBe('');
  expect(loaded.stdout).toMatch(new RegExp(`^Restored [\\d,]+ rows of \\d+ tables, exported from ${dialect} at `));
}

describe(`an export of ${dialect}`, () => {
  it('restored into an empty database of the same kind, answers every GET as the source does', async () => {
    const target = await sharedDatabase();
    await restoredInto(target);
    const expected = await answers(source.url);
    expect(expected.filter((a) => a.status !== 200)).toEqual([]);
    expect((expected.find((a) => a.url.endsWith('/jwks'))!.body as { keys: unknown[] }).keys).toHaveLength(1);
    expect(await answers(target.url)).toEqual(expected);
    await expectNewRowsTaken(target.url);
  }, 120_000);

  it('restored into SQLite, answers every GET as the source does (an export moves a database between the two)', async () => {
    const file = path.join(dir, 'moved.sqlite');
    const target: SharedDatabase = { url: file, drop: async () => undefined };
    await restoredInto(target);
    expect(await answers(file)).toEqual(await answers(source.url));
  }, 120_000);

  (dialect === 'sqlite' && process.env.TEST_DATABASE_URL ? it : it.skip)('restored into PostgreSQL, answers every GET as the source does, and takes new rows after them', async () => {
    const target = await sharedDatabase('postgres');
    await restoredInto(target);
    // The planner knows the restored tables' sizes at once (src/database/planner-statistics.ts).
    const restored = openDatabase(target.url);
    try {
      const alerts = Number((await restored.knex('dependency_alerts').count({ n: '*' }).first())!.n);
      expect(alerts).toBeGreaterThan(0);
      expect(await plannerRows(restored.knex, 'dependency_alerts')).toBe(alerts);
    } finally {
      await restored.close();
    }
    expect(await answers(target.url)).toEqual(await answers(source.url));
    await expectNewRowsTaken(target.url);
  }, 120_000);

  it('restored over a database in use, names no alert state it held before and reuses no id it gave (caches key alerts by id and version)', async () => {
    const target = await sharedDatabase();
    await restoredInto(target);
    await expectNewRowsTaken(target.url); // a rule beyond the export's
    const db = openDatabase(target.url, { poolMax: 1 });
    try {
      const before = { version: Number((await db.knex('dependency_alerts').max({ v: 'version' }).first())!.v), rule: Number((await db.knex('dependency_bot_rules').max({ v: 'id' }).first())!.v) };
      const loaded = run('load', exportFile, '--replace', '--database', target.url);
      expect(loaded.status).toBe(0);
      expect(Number((await db.knex('dependency_alerts').min({ v: 'version' }).first())!.v)).toBeGreaterThan(before.version);
      expect(await db.knex('dependency_bot_rules').max({ v: 'id' }).first().then((r) => Number(r!.v))).toBeLessThan(before.rule);
      await expectNewRowsTaken(target.url);
      expect(await db.knex('dependency_bot_rules').max({ v: 'id' }).first().then((r) => Number(r!.v))).toBeGreaterThan(before.rule);
    } finally {
      await db.close();
    }
  }, 120_000);

  it('refuses, changing nothing: without --replace, a file cut short, an existing file to export to', async () => {
    const target = await sharedDatabase();
    targets.push(target);
    expect(run('load', exportFile, '--replace', '--database', target.url).status).toBe(0);
    const db = openDatabase(target.url, { poolMax: 1 });
    try {
      const before = await hashTables(db.knex);
      const withoutReplace = run('load', exportFile, '--database', target.url);
      expect(withoutReplace.status).toBe(1);
      expect(withoutReplace.stderr).toBe(`error: ${exportFile} is an export of a whole database: add --replace to restore it (it empties the database first)\n`);
      const cut = path.join(dir, 'cut.json');
      const text = fs.readFileSync(exportFile, 'utf8');
      fs.writeFileSync(cut, text.slice(0, Math.floor(text.length * 0.6)));
      const cutShort = run('load', cut, '--replace', '--database', target.url);
      expect(cutShort.status).toBe(1);
      expect(cutShort.stderr).toMatch(/^error: /);
      expect(await hashTables(db.knex)).toEqual(before);
      const again = run('export', exportFile, '--database', target.url);
      expect(again.status).toBe(1);
      expect(again.stderr).toBe(`error: ${exportFile} exists: an export never overwrites a file, give it a new name\n`);
    } finally {
      await db.close();
    }
  }, 120_000);
});
