import fs from 'node:fs';
import path from 'node:path';
import { runNodeModule } from '../helpers/node-module';
import { demoWorld } from '../helpers/operations';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { suiteOverrides, suitePackages, suiteVersions } from '../helpers/readme';

// The README's Clients example, run as a user runs it: its packages are the ones its
// `npm install` line names, its token the one its `export` line sets, and its script the
// code block as written, with only the server's address changed to this test's.

const ROOT = path.join(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const CLIENTS = README.slice(README.indexOf('\n## Clients\n'), README.indexOf('\n## ', README.indexOf('\n## Clients\n') + 1));
const SHELL = /```sh\n([\s\S]*?)```/.exec(CLIENTS)![1]!;
const SCRIPT = /Save this as `client\.mjs`[\s\S]*?```js\n([\s\S]*?)```/.exec(CLIENTS)![1]!;
const README_ORIGIN = 'http://127.0.0.1:3000';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
});
afterAll(() => t.close());

it('installs only packages the suite itself has, at the versions it has, overridden as it overrides them (Node 20)', () => {
  const installed = /npm install (.+)/.exec(SHELL)![1]!.trim().split(/\s+/);
  expect(installed.length).toBeGreaterThan(0);
  for (const spec of installed) {
    const at = spec.lastIndexOf('@');
    expect(suitePackages()).toContain(spec.slice(0, at));
    expect(spec.slice(at + 1)).toBe(suiteVersions()[spec.slice(0, at)]);
  }
  const [, parent, child, version] = /npm pkg set 'overrides\.(@[^.]+)\.([^=]+)=(\S+)'/.exec(SHELL)!;
  expect(suiteOverrides()[parent!]).toEqual({ [child!]: version });
});

it('runs as written against the demo world, and prints what the API holds', async () => {
  expect(SCRIPT).toContain(`baseUrl: '${README_ORIGIN}/api/v3'`);
  const token = /export ORGSEC_TOKEN=(\S+)/.exec(SHELL)![1]!;
  const run = await runNodeModule(SCRIPT.replaceAll(README_ORIGIN, t.url), { ORGSEC_TOKEN: token });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const world = demoWorld() as any;
  const openAlerts = world.alerts.filter((alert: { repository: string; state: string }) => alert.repository.startsWith('acme-corp/') && alert.state === 'open');
  const lines = run.stdout.trim().split('\n');
  expect(lines[0]).toMatch(/^\d+ organization roles: .*Role reader/);
  expect(lines[1]).toMatch(new RegExp(`^${openAlerts.length} open alerts: `));
  expect(lines[2]).toMatch(/^OIDC token properties: \S/);
  expect(lines[3]).toBe('1 attestation(s) for the web artifact');
  expect(lines[4]).toBe('GraphQL says you are alice');
}, 30_000);
