import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedDatabase, startInstance, type Instance, type SharedDatabase } from '../helpers/instances';
import { DEMO_OWNER_TOKEN } from '../helpers/operations';
import { README } from '../helpers/readme';
import { writeNpmAdvisoriesZip } from '../helpers/readme-stand-ins';

// The README's five minutes with orgsec's own dependencies, run as a user runs them: the demo
// (what `npm start` serves), then the walk-through's commands as written, in a shell, from a
// folder of their own. Two are replaced, as there is no network here: the SBOM generator, by
// the committed SBOM it made of orgsec (test/fixtures/sbom), and the download of OSV's npm
// advisories, by the zip of committed OSV data that helpers/readme-stand-ins.ts makes: two of
// its test advisories' ranges hold orgsec's versions, one does not. Only the server's address is changed in the commands,
// and `npx orgsec`, a clone's built CLI, is that CLI run by node.

const ROOT = path.join(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'src', 'cli', 'index.js');
const SBOM_FIXTURES = path.join(ROOT, 'test', 'fixtures', 'sbom');
const README_ORIGIN = 'http://127.0.0.1:3000';

const section = README.slice(README.indexOf('\n## Dependency snapshots and computed alerts\n'));
const WALK_THROUGH = /\*\*Five minutes with orgsec's own dependencies\.\*\*[\s\S]*?```sh\n([\s\S]*?)```/.exec(section.slice(0, section.indexOf('\n## ', 1)))![1]!;
/** The block's commands: continued lines joined, printed output (`# …` lines) and trailing comments left out. */
const COMMANDS = WALK_THROUGH.replace(/\\\n\s*/g, '').split('\n').filter((line) => line !== '' && !line.startsWith('#')).map((line) => line.replace(/\s+# .*$/, ''));

let work: string;
let database: SharedDatabase;
let orgsec: Instance;

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-readme-sbom-'));
  database = await sharedDatabase();
  // `npm start` builds, then runs its start script: the built CLI's `serve --demo`.
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  expect(scripts.start).toMatch(/\bnode dist\/src\/cli\/index\.js serve --demo$/);
  orgsec = await startInstance(database.url, {}, ['--demo']);
}, 90_000);

afterAll(async () => {
  await orgsec?.stop();
  await database?.drop();
  fs.rmSync(work, { recursive: true, force: true });
});

/** One command of the walk-through in bash, in the user's folder, against this test's server and database. */
function run(command: string): { status: number | null; stdout: string; stderr: string } {
  const line = command.replaceAll(README_ORIGIN, orgsec.url).replace(/^npx orgsec /, `"${process.execPath}" "${CLI}" `);
  return spawnSync('bash', ['-c', line], { cwd: work, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: work, DATABASE_URL: database.url } });
}

it('is the generator, the download, the import, the demo token and address, the upload and the alerts, in that order', () => {
  expect(COMMANDS).toHaveLength(6);
  const [generate, download, importAll, variables] = COMMANDS;
  // The committed SBOM is what this command made (its README says how it was made).
  const made = /`(npx @cyclonedx\/cyclonedx-npm@[^`]+)`/.exec(fs.readFileSync(path.join(SBOM_FIXTURES, 'README.md'), 'utf8'))![1];
  expect(generate).toBe(made);
  expect(download).toBe('curl -O https://osv-vulnerabilities.storage.googleapis.com/npm/all.zip');
  expect(importAll).toBe('npx orgsec advisories import all.zip');
  expect(variables).toBe(`T="Authorization: Bearer ${DEMO_OWNER_TOKEN}"; B=${README_ORIGIN}`);
});

it('uploads orgsec\'s SBOM to the demo and answers an alert for each advisory whose range holds a package of orgsec\'s tree', async () => {
  const [, , importAll, variables, upload, alerts] = COMMANDS as [string, string, string, string, string, string];
  // Instead of the generator, the SBOM it made; instead of the download, committed OSV data.
  fs.copyFileSync(path.join(SBOM_FIXTURES, 'orgsec.cdx.json'), path.join(work, 'orgsec.cdx.json'));
  await writeNpmAdvisoriesZip(path.join(work, 'all.zip'));

  const imported = run(importAll);
  expect({ status: imported.status, stderr: imported.stderr }).toEqual({ status: 0, stderr: '' });
  // The demo imported the real one already (db/advisories).
  expect(imported.stdout).toContain('3 imported, 0 updated, 1 unchanged, 0 withdrawn, 0 skipped');

  const uploaded = run(`${variables}\n${upload}`);
  expect(uploaded.status).toBe(0);
  expect(JSON.parse(uploaded.stdout)).toMatchObject({
    result: 'SUCCESS', format: 'CycloneDX 1.6', manifest: 'package-lock.json', components: { total: 409, recorded: 404, skipped: 0 },
  });

  const listed = run(`${variables}\n${alerts}`);
  expect(listed.status).toBe(0);
  const open = (JSON.parse(listed.stdout) as Array<{ state: string; dependency: any; security_advisory: { svcsa_id: string } }>)
    .map((a) => [a.security_advisory.svcsa_id, a.dependency.package.name, a.dependency.manifest_path, a.dependency.scope, a.dependency.relationship, a.state].join(' '));
  expect(open.sort()).toEqual([
    'ORGSEC-TEST-1 express package-lock.json runtime direct open',
    'ORGSEC-TEST-2 debug package-lock.json runtime transitive open',
  ]);
}, 60_000);
