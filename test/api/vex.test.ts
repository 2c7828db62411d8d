import { Spec } from '@cyclonedx/cyclonedx-library';
import { cycloneDxValidator } from '../../src/modules/sbom/cyclonedx-schema';
import { VEX_ASSESSMENTS, assessmentFromCycloneDx, assessmentFromOpenVex, type AssessedState } from '../../src/modules/vex/vex-assessments';
import { DISMISSED_REASONS } from '../../src/modules/dependency-alerts/alerts.types';
import { loadOctokit, orgsecClient } from '../helpers/octokit';
import { openVexValidator } from '../helpers/openvex-schema';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { hashTables } from '../helpers/table-hash';

// Issue 39: alerts out as VEX. Every state and dismissal reason of a repository's alerts, in
// CycloneDX 1.6 (checked against the specification's schema as @cyclonedx/cyclonedx-library
// ships it) and OpenVEX 0.2.0 (against its rules, test/helpers/openvex-schema.ts), read back
// to the state they came from; computed alerts name the vulnerable versions their snapshot holds.

const ORG = 'vx-org';
const OWNER = 'vx_owner_token';
const PUBLIC_ONLY = 'vx_public_token';
const OUTSIDER = 'vx_outsider_token';
const FINE = 'vx_fine_token';
const OPENVEX = 'application/openvex+json';

const advisory = (n: number, name: string, ecosystem = 'npm') => ({
  svcsa_id: `SVCSA-VEX-000${n}`, cve_id: `CVE-2026-900${n}`, classification: 'general', severity: 'high', summary: `${name} is vulnerable`, description: 'A test advisory.',
  published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z',
  identifiers: [{ type: 'SVCSA', value: `SVCSA-VEX-000${n}` }, { type: 'CVE', value: `CVE-2026-900${n}` }],
  cvss: { vector_string: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', score: 9.8 },
  cwes: [{ cwe_id: 'CWE-79', name: 'Cross-site Scripting' }],
  vulnerabilities: [{ package: { ecosystem, name }, severity: 'high', vulnerable_version_range: '< 4.17.21', first_patched_version: { identifier: '4.17.21' } }],
});

const declared = (repo: string, number: number, state: string, extra: Record<string, unknown> = {}) => ({
  repository: `${ORG}/${repo}`, number, advisory: 'SVCSA-VEX-0001', package: { ecosystem: 'npm', name: 'lodash' }, manifest_path: `m${number}/package-lock.json`,
  scope: 'runtime', relationship: 'direct', state, created_at: '2026-02-01T10:00:00Z', updated_at: '2026-02-03T10:00:00Z', ...extra,
});

/** One declared alert per assessed state of the table but a withdrawal (the engine's alone). */
const STATES_REPO: Array<[AssessedState, Record<string, unknown>]> = [
  ['open', {}],
  ['fixed', { fixed_at: '2026-02-03T10:00:00Z' }],
  ['auto_dismissed:rule', { auto_dismissed_at: '2026-02-03T10:00:00Z' }],
  ...DISMISSED_REASONS.map((reason): [AssessedState, Record<string, unknown>] => [`dismissed:${reason}`, {
    dismissed_at: '2026-02-03T10:00:00Z', dismissed_by: 'vx-owner', dismissed_reason: reason, dismissed_comment: `Because ${reason}.`,
  }]),
];

const world = {
  users: [{ login: 'vx-owner' }, { login: 'vx-outsider' }],
  organizations: [{ login: ORG, owners: ['vx-owner'] }],
  repositories: [
    { owner: ORG, name: 'states', private: true },
    { owner: ORG, name: 'computed', private: true },
    { owner: ORG, name: 'open-source', private: false },
    { owner: ORG, name: 'many', private: true },
    { owner: ORG, name: 'quiet', private: true },
  ],
  advisories: [advisory(1, 'lodash'), advisory(2, 'minimist')],
  alerts: [
    ...STATES_REPO.map(([key, extra], i) => declared('states', i + 1, key.split(':')[0]!, extra)),
    declared('open-source', 1, 'open'),
    // More than a batch (200) in one repository, and in the organization's document.
    ...Array.from({ length: 230 }, (_, i) => declared('many', i + 1, 'open')),
  ],
  tokens: [
    { token: OWNER, type: 'classic', user: 'vx-owner', scopes: ['repo', 'security_events'] },
    { token: PUBLIC_ONLY, type: 'classic', user: 'vx-owner', scopes: ['public_repo'] },
    { token: OUTSIDER, type: 'classic', user: 'vx-outsider', scopes: ['repo', 'security_events'] },
    { token: FINE, type: 'fine_grained', user: 'vx-owner', resource_owner: ORG, repositories: ['computed'], permissions: { dependency_alerts: 'read', contents: 'write' } },
  ],
};

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
  // Computed alerts: lodash twice in one manifest (one version vulnerable), reached through express.
  const snapshot = await t.http().post(`/repos/${ORG}/computed/dependency-graph/snapshots`).set(bearer(OWNER)).send({
    version: 0, sha: 'c'.repeat(40), ref: 'refs/heads/main', scanned: '2026-03-01T00:00:00Z',
    job: { id: 'vex-1', correlator: 'vex' }, detector: { name: 'vex-detector', version: '1.0.0', url: 'https://example.com/detector' },
    manifests: { 'package-lock.json': { name: 'package-lock.json', file: { source_location: 'package-lock.json' }, resolved: {
      'express': { package_url: 'pkg:npm/express@4.18.0', relationship: 'direct', dependencies: ['pkg:npm/lodash@4.17.4'] },
      'lodash-old': { package_url: 'pkg:npm/lodash@4.17.4', relationship: 'indirect' },
      'lodash': { package_url: 'pkg:npm/lodash@4.17.21', relationship: 'direct' },
    } } },
  });
  expect(snapshot.status).toBe(201);
}, 60_000);
afterAll(() => t.close());

const vex = (path: string, { token = OWNER, accept }: { token?: string; accept?: string } = {}) => {
  const request = t.http().get(path).set(bearer(token)).buffer(true).parse((res, done) => {
    let text = '';
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => { text += chunk; });
    res.on('end', () => done(null, text));
  });
  return accept === undefined ? request : request.set('Accept', accept);
};
const parsed = (res: { body: unknown }) => JSON.parse(res.body as string);

function expectValidCycloneDx(doc: unknown): void {
  const validate = cycloneDxValidator(Spec.Version.v1dot6);
  expect(validate(doc) ? [] : validate.errors).toEqual([]);
}

function expectValidOpenVex(doc: unknown): void {
  const validate = openVexValidator();
  expect(validate(doc) ? [] : validate.errors).toEqual([]);
}

const property = (v: any, name: string) => v.properties.find((p: any) => p.name === name)?.value;

describe('a repository\'s alerts as CycloneDX 1.6', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await vex(`/repos/${ORG}/states/dependency-bot/vex`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.cyclonedx+json; version=1.6');
    doc = parsed(res);
  });

  test('is valid against the specification\'s schema', () => {
    expectValidCycloneDx(doc);
    expect(doc).toMatchObject({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, metadata: { component: { 'bom-ref': `pkg:github/${ORG}/states`, purl: `pkg:github/${ORG}/states` } } });
    expect(doc.serialNumber).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
  });

  test('states every alert, by number, with the analysis of the mapping table', () => {
    expect(doc.vulnerabilities.map((v: any) => property(v, 'orgsec:alert:number'))).toEqual(STATES_REPO.map((_, i) => String(i + 1)));
    for (const [i, [key]] of STATES_REPO.entries()) {
      const v = doc.vulnerabilities[i];
      const { state, justification, response } = VEX_ASSESSMENTS[key].cyclonedx;
      expect(v.analysis).toMatchObject({ state, firstIssued: '2026-02-01T10:00:00Z', lastUpdated: '2026-02-03T10:00:00Z' });
      expect(v.analysis.justification).toBe(justification);
      expect(v.analysis.response ?? []).toEqual(response);
      expect(v).toMatchObject({ 'id': 'SVCSA-VEX-0001', 'bom-ref': expect.stringMatching(new RegExp(`/repos/${ORG}/states/dependency-bot/alerts/${i + 1}$`)) });
      expect(v.references).toEqual([{ id: 'CVE-2026-9001', source: { name: 'NVD', url: 'https://nvd.nist.gov/vuln/detail/CVE-2026-9001' } }]);
      expect(v.ratings).toEqual([{ score: 9.8, severity: 'high', method: 'CVSSv31', vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H' }]);
      expect(v.cwes).toEqual([79]);
    }
  });

  test('round-trips every dismissed reason, by the analysis alone and by the properties', () => {
    for (const [i, [key]] of STATES_REPO.entries()) {
      const v = doc.vulnerabilities[i];
      if (key.startsWith('dismissed:')) {
        expect(assessmentFromCycloneDx(v.analysis)).toBe(key);
        expect(property(v, 'orgsec:alert:dismissed_reason')).toBe(key.split(':')[1]);
        expect(v.analysis.detail).toBe(`Dismissed as ${key.split(':')[1]} by vx-owner on 2026-02-03. Because ${key.split(':')[1]}.`);
      } else {
        expect(property(v, 'orgsec:alert:state')).toBe(key.split(':')[0]);
      }
    }
  });

  test('names the package of an alert no snapshot holds without a version, as a component of the repository', () => {
    const refs = new Set(doc.vulnerabilities.flatMap((v: any) => v.affects.map((a: any) => a.ref)));
    expect([...refs]).toEqual([`pkg:github/${ORG}/states#pkg:npm/lodash`]);
    expect(doc.components).toEqual([{ 'type': 'library', 'name': 'lodash', 'bom-ref': `pkg:github/${ORG}/states#pkg:npm/lodash`, 'purl': 'pkg:npm/lodash' }]);
  });

  test('is the default for application/json and for Octokit\'s own media type', async () => {
    for (const accept of ['application/json', 'application/vnd.github.v3+json', '*/*', 'application/vnd.cyclonedx+json; version=1.6']) {
      const res = await vex(`/repos/${ORG}/states/dependency-bot/vex`, { accept });
      expect([accept, res.status, parsed(res).bomFormat]).toEqual([accept, 200, 'CycloneDX']);
    }
    const octokit = orgsecClient((await loadOctokit()).Paginating, t.url, OWNER);
    const { data, headers } = await octokit.request('GET /repos/{owner}/{repo}/dependency-bot/vex', { owner: ORG, repo: 'states' });
    expect(headers['content-type']).toBe('application/json; charset=utf-8');
    expect((data as any).vulnerabilities).toHaveLength(STATES_REPO.length);
  });
});

describe('a repository\'s alerts as OpenVEX 0.2.0', () => {
  let doc: any;
  beforeAll(async () => {
    const res = await vex(`/repos/${ORG}/states/dependency-bot/vex`, { accept: OPENVEX });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(OPENVEX);
    doc = parsed(res);
  });

  test('is valid against the specification\'s rules', () => {
    expectValidOpenVex(doc);
    expect(doc).toMatchObject({ '@context': 'https://openvex.dev/ns/v0.2.0', 'version': 1, 'tooling': expect.stringMatching(/^orgsec \d/) });
  });

  test('states each alert with the status of the mapping table, and reads back to it', () => {
    expect(doc.statements).toHaveLength(STATES_REPO.length);
    for (const [i, [key]] of STATES_REPO.entries()) {
      const s = doc.statements[i];
      expect(s['@id']).toMatch(new RegExp(`/repos/${ORG}/states/dependency-bot/alerts/${i + 1}$`));
      expect(s.status).toBe(VEX_ASSESSMENTS[key].openvex.status);
      expect(s.vulnerability).toMatchObject({ name: 'SVCSA-VEX-0001', aliases: ['CVE-2026-9001'] });
      expect(s.products).toEqual([{ '@id': `pkg:github/${ORG}/states`, 'identifiers': { purl: `pkg:github/${ORG}/states` }, 'subcomponents': [{ '@id': 'pkg:npm/lodash', 'identifiers': { purl: 'pkg:npm/lodash' } }] }]);
      expect(assessmentFromOpenVex(s)).toBe(key);
    }
  });

  test('carries a dismissal\'s comment after the table\'s sentence, or in the status notes', () => {
    const byKey = new Map(STATES_REPO.map(([key], i) => [key, doc.statements[i]]));
    expect(byKey.get('dismissed:tolerable_risk').action_statement).toBe('No fix is planned: the risk is tolerable. Because tolerable_risk.');
    expect(byKey.get('dismissed:inaccurate').impact_statement).toBe('The alert is inaccurate. Because inaccurate.');
    expect(byKey.get('dismissed:not_used')).toMatchObject({ justification: 'vulnerable_code_not_in_execute_path', status_notes: 'Dismissed as not_used by vx-owner on 2026-02-03. Because not_used.' });
    expect(byKey.get('dismissed:not_used').impact_statement).toBeUndefined();
    expect(byKey.get('open').status_notes).toBeUndefined();
  });
});

describe('computed alerts', () => {
  test('name the vulnerable version the current snapshot holds, not the others of the package', async () => {
    const cdx = parsed(await vex(`/repos/${ORG}/computed/dependency-bot/vex`, { token: FINE }));
    expectValidCycloneDx(cdx);
    expect(cdx.vulnerabilities).toHaveLength(1);
    expect(cdx.vulnerabilities[0].affects).toEqual([{ ref: `pkg:github/${ORG}/computed#pkg:npm/lodash@4.17.4` }]);
    expect(cdx.components).toEqual([expect.objectContaining({ name: 'lodash', version: '4.17.4', purl: 'pkg:npm/lodash@4.17.4' })]);
    const open = parsed(await vex(`/repos/${ORG}/computed/dependency-bot/vex`, { token: FINE, accept: OPENVEX }));
    expectValidOpenVex(open);
    expect(open.statements[0].products[0].subcomponents).toEqual([{ '@id': 'pkg:npm/lodash@4.17.4', 'identifiers': { purl: 'pkg:npm/lodash@4.17.4' } }]);
  });
});

describe('an organization\'s alerts', () => {
  test('come repository by repository, each one\'s by number, in both formats, batches and all', async () => {
    const cdx = parsed(await vex(`/orgs/${ORG}/dependency-bot/vex`));
    expectValidCycloneDx(cdx);
    const stated = cdx.vulnerabilities.map((v: any) => v['bom-ref'].replace(/^.*\/repos\//, ''));
    const expected = [
      ...STATES_REPO.map((_, i) => `${ORG}/states/dependency-bot/alerts/${i + 1}`),
      `${ORG}/computed/dependency-bot/alerts/1`,
      `${ORG}/open-source/dependency-bot/alerts/1`,
      ...Array.from({ length: 230 }, (_, i) => `${ORG}/many/dependency-bot/alerts/${i + 1}`),
    ];
    expect(stated).toEqual(expected);
    // Each repository a component, its packages within it.
    expect(cdx.metadata.component).toBeUndefined();
    expect(cdx.components.map((c: any) => c['bom-ref'])).toEqual(['states', 'computed', 'open-source', 'many'].map((r) => `pkg:github/${ORG}/${r}`));
    expect(cdx.components[1].components.map((c: any) => c.purl)).toEqual(['pkg:npm/lodash@4.17.4']);
    const open = parsed(await vex(`/orgs/${ORG}/dependency-bot/vex`, { accept: OPENVEX }));
    expectValidOpenVex(open);
    expect(open.statements.map((s: any) => s['@id'].replace(/^.*\/repos\//, ''))).toEqual(expected);
  });

  test('are only public repositories\' for a public_repo token', async () => {
    const doc = parsed(await vex(`/orgs/${ORG}/dependency-bot/vex?state=open`, { token: PUBLIC_ONLY, accept: OPENVEX }));
    expect(doc.statements.map((s: any) => s['@id'].replace(/^.*\/repos\//, ''))).toEqual([`${ORG}/open-source/dependency-bot/alerts/1`]);
  });
});

describe('filters and refusals', () => {
  test('`state` chooses the alerts stated', async () => {
    const doc = parsed(await vex(`/repos/${ORG}/states/dependency-bot/vex?state=fixed,dismissed`, { accept: OPENVEX }));
    expect(doc.statements.map((s: any) => s.status)).toEqual(['fixed', 'affected', 'not_affected', 'affected', 'not_affected', 'affected']);
  });

  test('a repository with no alert is a document with none', async () => {
    const cdx = parsed(await vex(`/repos/${ORG}/quiet/dependency-bot/vex`));
    expectValidCycloneDx(cdx);
    expect([cdx.vulnerabilities, cdx.components]).toEqual([[], []]);
    expect(parsed(await vex(`/repos/${ORG}/quiet/dependency-bot/vex`, { accept: OPENVEX })).statements).toEqual([]);
  });

  test('bad input answers a clear error and writes nothing', async () => {
    const before = await hashTables(t.db.knex);
    const badState = await vex(`/repos/${ORG}/states/dependency-bot/vex?state=closed`);
    expect([badState.status, parsed(badState).errors[0]]).toEqual([422, expect.objectContaining({ field: 'state' })]);
    const unknownParameter = await vex(`/repos/${ORG}/states/dependency-bot/vex?format=spdx`);
    expect(unknownParameter.status).toBe(422);
    const html = await vex(`/repos/${ORG}/states/dependency-bot/vex`, { accept: 'text/html' });
    expect([html.status, parsed(html).message]).toEqual([406, expect.stringContaining('application/openvex+json')]);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  test('a caller is refused as the alert lists refuse them: what they may not see is missing', async () => {
    for (const path of [`/repos/${ORG}/states/dependency-bot`, `/orgs/${ORG}/dependency-bot`, `/repos/${ORG}/nothing-here/dependency-bot`]) {
      const list = (await vex(`${path}/alerts`, { token: OUTSIDER })).status;
      expect([path, (await vex(`${path}/vex`, { token: OUTSIDER })).status]).toEqual([path, list]);
      expect(list).not.toBe(200);
    }
    expect((await vex(`/repos/${ORG}/states/dependency-bot/vex`, { token: OUTSIDER })).status).toBe(404);
    // A fine-grained token sees only its selected repository.
    expect((await vex(`/repos/${ORG}/states/dependency-bot/vex`, { token: FINE })).status).toBe(404);
  });
});
