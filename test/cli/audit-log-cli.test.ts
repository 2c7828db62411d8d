import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildProgram } from '../../src/cli/program';
import type { Output } from '../../src/cli/output';
import { hashToken } from '../../src/auth/token-format';
import { writeEpssFile } from '../helpers/advisory-import';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// Issue 37: the commands that change what orgsec trusts leave their records, by the account
// that ran them (load, token create, advisories import, oidc rotate-key), and
// `orgsec audit-log export` writes every record, those of no organization too.

const DEMO_PATH = path.join(__dirname, '..', '..', 'db', 'demo-world.json');
const OSV_FIXTURES = path.join(__dirname, '..', 'fixtures', 'osv');

let db: TestDatabase;
let dir: string;
beforeAll(async () => {
  db = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-audit-cli-'));
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function orgsec(...args: string[]): Promise<string[]> {
  const out: string[] = [];
  const output: Output = { out: (line) => out.push(line), err: () => undefined };
  await buildProgram(output).exitOverride().parseAsync(['node', 'orgsec', ...args, '--database', db.url]);
  return out;
}

const records = () => db.knex('audit_log').orderBy('id').select('*');
const COMMAND_ACTOR = `orgsec-cli (${os.userInfo().username})`;

it('load, token create, advisories import and oidc rotate-key each record what they changed, by the command\'s user', async () => {
  await orgsec('load', DEMO_PATH);
  const [token] = await orgsec('token', 'create', '--type', 'fine_grained', '--user', 'bob', '--owner', 'acme-corp', '--permissions', 'members:read');
  await orgsec('advisories', 'import', OSV_FIXTURES);
  await orgsec('oidc', 'rotate-key');
  await orgsec('oidc', 'rotate-key');
  const rows = await records();
  const mine = rows.filter((r) => r.actor === COMMAND_ACTOR);
  expect(mine.map((r) => r.action)).toEqual(['world.load', 'token.create', 'advisory.import', 'oidc.signing_key.rotate', 'oidc.signing_key.rotate']);
  for (const row of mine) expect({ action: row.action, bot: Boolean(row.actor_is_bot), token: row.token_id, request: row.request_id }).toEqual({ action: row.action, bot: false, token: null, request: null });
  const [load, created, imported, , rotated] = mine.map((r) => ({ ...r, data: JSON.parse(r.data) }));
  expect(load!.data).toMatchObject({ replace: false, counts: expect.objectContaining({ organizations: expect.any(Number) }) });
  expect(created).toMatchObject({ org: 'acme-corp', user: 'bob', data: { token_type: 'fine_grained', token_last_four: token!.slice(-4), permissions: { members: 'read' } } });
  expect(JSON.stringify(rows)).not.toContain(token);
  expect(imported!.data.imported.length).toBeGreaterThan(0);
  const keys = await db.knex('oidc_signing_keys').orderBy('generation').select('kid');
  expect(rotated!.data).toEqual({ kid: keys[keys.length - 1].kid, replaced_kid: keys[keys.length - 2].kid });
});

it('token revoke (by value or by id) and advisories import-epss record what they changed, and nothing when nothing changed', async () => {
  const [byValue] = await orgsec('token', 'create', '--user', 'alice', '--scopes', 'read:org');
  const [byId] = await orgsec('token', 'create', '--type', 'installation', '--app', 'audit-bot', '--owner', 'acme-corp', '--permissions', 'members:read');
  const idOf = async (raw: string) => Number((await db.knex('tokens').where('token_hash', hashToken(raw)).first('id')).id);
  expect(await orgsec('token', 'revoke', byValue!)).toEqual([`Revoked token ${await idOf(byValue!)}.`]);
  expect(await orgsec('token', 'revoke', String(await idOf(byId!)))).toEqual([`Revoked token ${await idOf(byId!)}.`]);
  expect(await orgsec('token', 'revoke', byValue!)).toEqual([`Token ${await idOf(byValue!)} was revoked already.`]);
  await expect(orgsec('token', 'revoke', 'osp_not_a_token_anyone_has')).rejects.toThrow('No token has this id or value.');
  const epss = path.join(dir, 'epss.csv');
  writeEpssFile(epss, [['CVE-2022-25898', '0.00231', '0.61234']]);
  await orgsec('advisories', 'import-epss', epss);
  await orgsec('advisories', 'import-epss', epss); // the same scores again: nothing changes
  const revocations = (await records()).filter((r) => ['token.revoke', 'advisory.epss_import'].includes(r.action)).map((r) => [r.action, r.actor, r.user, r.org, JSON.parse(r.data)]);
  expect(revocations).toEqual([
    ['token.revoke', COMMAND_ACTOR, 'alice', null, { revoked_token_id: await idOf(byValue!), token_type: 'classic' }],
    ['token.revoke', COMMAND_ACTOR, null, 'acme-corp', { revoked_token_id: await idOf(byId!), token_type: 'installation' }],
    ['advisory.epss_import', COMMAND_ACTOR, null, null, { scores: 1, updated: 1, model: { version: 'v2025.03.14', scoreDate: '2026-11-26T12:55:00Z' } }],
  ]);
});

it('audit-log export writes every record as NDJSON, org-less ones too, filtered by --phrase', async () => {
  const all = path.join(dir, 'all.ndjson');
  expect(await orgsec('audit-log', 'export', all)).toEqual([expect.stringMatching(/^Exported \d+ audit-log records to /)]);
  const lines = fs.readFileSync(all, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line));
  // Oldest first by time: the demo world's records (November) before what the commands recorded now.
  const byTime = await db.knex('audit_log').orderBy([{ column: 'created_at' }, { column: 'id' }]).select('document_id');
  expect(lines.map((r) => r._document_id)).toEqual(byTime.map((r) => r.document_id));
  expect(lines.filter((r) => r.org === null).map((r) => r.action)).toEqual(expect.arrayContaining(['world.load', 'advisory.import', 'oidc.signing_key.rotate']));
  const some = path.join(dir, 'rotations.ndjson');
  await orgsec('audit-log', 'export', some, '--phrase', 'action:oidc.signing_key.rotate', '--order', 'desc');
  expect(fs.readFileSync(some, 'utf8').trimEnd().split('\n').map((line) => JSON.parse(line).action)).toEqual(['oidc.signing_key.rotate', 'oidc.signing_key.rotate']);
});

it('audit-log export refuses a bad phrase before it makes the file, and an existing file', async () => {
  const file = path.join(dir, 'bad.ndjson');
  await expect(orgsec('audit-log', 'export', file, '--phrase', 'country:de')).rejects.toThrow(/`country` is not a qualifier/);
  expect(fs.existsSync(file)).toBe(false);
  await expect(orgsec('audit-log', 'export', path.join(dir, 'all.ndjson'))).rejects.toThrow(/EEXIST/);
});
