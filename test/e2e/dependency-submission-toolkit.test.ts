import { runNodeModule } from '../helpers/node-module';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// The original's public submission library, @github/dependency-submission-toolkit (what the
// ecosystem's submission actions are built on), run as a CI job runs it: a script in its own
// process, configured only by the job's environment (GITHUB_API_URL pointed at orgsec, the
// token as the action input, the repository, commit, ref, job and run of the CI system).

const TOKEN = 'toolkit_owner_token';
const SHA = 'ce587453ced02b1526dfb4cb910479d431683101';

const world = {
  users: [{ login: 'toolkit-owner' }],
  organizations: [{ login: 'toolkit-org', owners: ['toolkit-owner'] }],
  repositories: [{ owner: 'toolkit-org', name: 'shop', private: true }],
  advisories: [{
    svcsa_id: 'GHSA-35jh-r3h4-6jhm', cve_id: 'CVE-2021-23337', summary: 'Command Injection in lodash', severity: 'high',
    published_at: '2021-02-15T20:00:00Z', updated_at: '2021-02-15T20:00:00Z',
    vulnerabilities: [{ package: { ecosystem: 'npm', name: 'lodash' }, severity: 'high', vulnerable_version_range: '< 4.17.21', first_patched_version: { identifier: '4.17.21' } }],
  }],
  tokens: [{ token: TOKEN, type: 'classic', user: 'toolkit-owner', scopes: ['repo'] }],
};

// A detector's submission step, as the toolkit's README shows it.
const SCRIPT = `
import { Manifest, PackageCache, Snapshot, submitSnapshot } from '@github/dependency-submission-toolkit';
const cache = new PackageCache();
const lodash = cache.package('pkg:npm/lodash@4.17.20');
const express = cache.package('pkg:npm/express@4.18.2').dependsOn(lodash);
const manifest = new Manifest('package-lock.json', 'web/package-lock.json');
manifest.addDirectDependency(express, 'runtime');
manifest.addIndirectDependency(lodash, 'runtime');
const snapshot = new Snapshot({ name: 'example-npm-detector', version: '0.1.0', url: 'https://example.com/detector' });
snapshot.addManifest(manifest);
await submitSnapshot(snapshot);
`;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
});
afterAll(() => t.close());

const runJob = (env: Record<string, string>) => runNodeModule(SCRIPT, env);

const CI_ENV = {
  GITHUB_REPOSITORY: 'toolkit-org/shop', GITHUB_SHA: SHA, GITHUB_REF: 'refs/heads/main', GITHUB_RUN_ID: '4242',
  GITHUB_JOB: 'dependency-submission', GITHUB_EVENT_NAME: 'push', GITHUB_WORKFLOW: 'ci',
};

it('submits a snapshot that orgsec applies, and the vulnerable dependency raises an alert', async () => {
  const run = await runJob({ ...CI_ENV, GITHUB_API_URL: t.url, INPUT_TOKEN: TOKEN });
  expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
  expect(run.stdout).toContain('Snapshot successfully created');

  const sbom = await t.http().get('/repos/toolkit-org/shop/dependency-graph/sbom').set(bearer(TOKEN));
  expect(sbom.status).toBe(200);
  const names = sbom.body.sbom.packages.map((p: { name: string; versionInfo?: string }) => `${p.name}@${p.versionInfo}`);
  expect(names).toEqual(expect.arrayContaining(['lodash@4.17.20', 'express@4.18.2']));

  const alerts = await t.http().get('/repos/toolkit-org/shop/dependency-bot/alerts').set(bearer(TOKEN));
  expect(alerts.status).toBe(200);
  expect(alerts.body.map((a: any) => [a.number, a.state, a.dependency.package.name, a.dependency.manifest_path, a.dependency.relationship, a.security_advisory.svcsa_id]))
    .toEqual([[1, 'open', 'lodash', 'web/package-lock.json', 'transitive', 'GHSA-35jh-r3h4-6jhm']]);
}, 30_000);

it('fails the job with the refusal when the token may not write the repository', async () => {
  const run = await runJob({ ...CI_ENV, GITHUB_API_URL: t.url, INPUT_TOKEN: 'osp_not_a_real_token_0000000000000000000' });
  expect(run.code).not.toBe(0);
  expect(run.stdout + run.stderr).toContain('Bad credentials');
}, 30_000);
