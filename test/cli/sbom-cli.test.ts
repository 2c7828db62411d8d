import os from 'node:os';
import path from 'node:path';
import { buildProgram } from '../../src/cli/program';
import type { Output } from '../../src/cli/output';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { hashTables } from '../helpers/table-hash';

// Issue 39: `orgsec sbom submit` records a CycloneDX or SPDX document as a repository's
// dependencies, through the same path as the API, and prints the alerts.

const DEMO_PATH = path.join(__dirname, '..', '..', 'db', 'demo-world.json');
const FIXTURES = path.join(__dirname, '..', 'fixtures', 'sbom');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
  await orgsec('load', DEMO_PATH);
});
afterAll(() => db.destroy());

async function orgsec(...args: string[]): Promise<string[]> {
  const out: string[] = [];
  const output: Output = { out: (line) => out.push(line), err: () => undefined };
  await buildProgram(output).exitOverride().parseAsync(['node', 'orgsec', ...args, '--database', db.url]);
  return out;
}

it.each([
  ['orgsec.cdx.json', 'CycloneDX 1.6'],
  ['orgsec.spdx.json', 'SPDX 2.3'],
])('records %s and prints what it recorded and the alerts', async (file, format) => {
  const out = await orgsec('sbom', 'submit', path.join(FIXTURES, file), '--repo', 'acme-corp/web', '--manifest', `${file}-lock`);
  expect(out[0]).toMatch(new RegExp(`^Recorded \\d+ packages of .*${file} \\(${format}: \\d+ components, \\d+ skipped, 0 no advisory can match\\) as snapshot \\d+ of acme-corp/web, manifest "${file}-lock": SUCCESS\\.$`));
  expect(out[out.length - 1]).toMatch(/^Alerts of acme-corp\/web: \d+ open, \d+ dismissed, \d+ fixed, \d+ auto-dismissed\.$/);
  const record = await db.knex('audit_log').where('action', 'dependency_snapshot.create').orderBy('id', 'desc').first('actor', 'repo');
  expect(record).toEqual({ actor: `orgsec-cli (${os.userInfo().username})`, repo: 'acme-corp/web' });
});

it.each([
  ['a repository that does not exist', [path.join(FIXTURES, 'orgsec.cdx.json'), '--repo', 'acme-corp/nope'], 'no repository acme-corp/nope'],
  ['--repo that is not OWNER/REPO', [path.join(FIXTURES, 'orgsec.cdx.json'), '--repo', 'acme-corp'], '--repo: must be OWNER/REPO'],
  ['a document that is not an SBOM', [path.join(__dirname, '..', '..', 'package.json'), '--repo', 'acme-corp/web'], 'The document was not recorded: / is neither a CycloneDX BOM'],
])('refuses %s, and records nothing', async (_name, args, message) => {
  const before = await hashTables(db.knex);
  await expect(orgsec('sbom', 'submit', ...args)).rejects.toThrow(message);
  expect(await hashTables(db.knex)).toEqual(before);
});
