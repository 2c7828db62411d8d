import { Spec } from '@cyclonedx/cyclonedx-library';
import type { AdvisoryRecord } from '../../src/modules/advisories/advisories.types';
import type { AlertRecord, AlertView } from '../../src/modules/dependency-alerts/alerts.types';
import { cycloneDxValidator } from '../../src/modules/sbom/cyclonedx-schema';
import { CycloneDxVexWriter } from '../../src/modules/vex/cyclonedx-vex';
import { OpenVexWriter } from '../../src/modules/vex/openvex';
import { VEX_ASSESSMENTS, assessedState, assessmentFromCycloneDx, assessmentFromOpenVex, type AssessedState } from '../../src/modules/vex/vex-assessments';
import type { VexDocumentInfo, VexEntry, VexWriter } from '../../src/modules/vex/vex.types';
import { openVexValidator } from '../helpers/openvex-schema';

// The VEX writers over every assessed state of the mapping table, the withdrawn advisory's
// among them (which only the alert engine makes, so the API test cannot declare it): each
// document valid against its specification, each state read back from the standard fields.

const repository = { id: 7, ownerId: 3, ownerLogin: 'Acme', ownerType: 'Organization', ownerSiteAdmin: false, name: 'Web', isPrivate: true, description: null, fork: false } as const;

const advisory: AdvisoryRecord = {
  id: 1, svcsaId: 'SVCSA-2026-0100', cveId: null, classification: 'general', summary: 'A flaw', description: 'A flaw.', severity: 'critical',
  cvssVectorString: null, cvssScore: null, cvssSeverities: { cvss_v3: null, cvss_v4: null }, epssPercentage: null, epssPercentile: null,
  cwes: [], identifiers: [{ type: 'SVCSA', value: 'SVCSA-2026-0100' }, { type: 'GHSA', value: 'GHSA-aaaa-bbbb-cccc' }], references: [],
  publishedAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-02T00:00:00Z', withdrawnAt: null, type: 'reviewed', reviewedAt: null, nvdPublishedAt: null,
  sourceCodeLocation: null, credits: [], vulnerabilities: [],
};

const ALERT_OF: Record<AssessedState, Partial<AlertRecord>> = {
  'open': { state: 'open' },
  'fixed': { state: 'fixed', fixedAt: '2026-03-01T00:00:00Z' },
  'dismissed:fix_started': { state: 'dismissed', dismissedReason: 'fix_started', dismissedComment: 'PR #12.' },
  'dismissed:no_bandwidth': { state: 'dismissed', dismissedReason: 'no_bandwidth', dismissedComment: null },
  'dismissed:tolerable_risk': { state: 'dismissed', dismissedReason: 'tolerable_risk', dismissedComment: '' },
  'dismissed:not_used': { state: 'dismissed', dismissedReason: 'not_used', dismissedComment: 'Only the CLI uses it.' },
  'dismissed:inaccurate': { state: 'dismissed', dismissedReason: 'inaccurate', dismissedComment: 'Wrong package.' },
  'auto_dismissed:rule': { state: 'auto_dismissed', autoDismissedBy: 'preset', autoDismissedAt: '2026-03-01T00:00:00Z' },
  'auto_dismissed:withdrawal': { state: 'auto_dismissed', autoDismissedBy: 'withdrawal', autoDismissedAt: '2026-03-01T00:00:00Z' },
};
const STATES = Object.keys(VEX_ASSESSMENTS) as AssessedState[];

function entryOf(key: AssessedState, number: number, ecosystem = 'npm', packageName = '@scope/pkg'): VexEntry {
  const alert: AlertRecord = {
    id: number, repoId: repository.id, number, advisoryId: 1, ecosystem, packageName, manifestPath: 'package-lock.json', scope: 'runtime', relationship: 'direct',
    state: 'open', createdAt: '2026-02-01T00:00:00Z', updatedAt: '2026-03-01T00:00:00Z', fixedAt: null, autoDismissedAt: null, dismissedAt: null,
    dismissedById: null, dismissedReason: null, dismissedComment: null, epssSort: 0, version: 1, vulnerabilityId: null, autoDismissedBy: null,
    ...ALERT_OF[key],
  };
  if (alert.state === 'dismissed') Object.assign(alert, { dismissedAt: '2026-03-01T00:00:00Z', dismissedById: 9 });
  const view: AlertView = {
    alert, advisory, vulnerability: null, assignees: [], repository, dismissedBy: alert.dismissedById === null ? null : { id: 9, login: 'octocat', type: 'User', siteAdmin: false },
  };
  return { view, packageUrls: ecosystem === 'actions' ? [] : [`pkg:npm/%40scope/pkg@1.0.${number}`, 'pkg:npm/%40scope/pkg@2.0.0'] };
}

const info: VexDocumentInfo = {
  subject: { kind: 'repo', repo: repository }, apiBase: 'https://orgsec.example', uuid: '0b0f9c3e-7a52-4c1e-9d7a-1f0c2b3a4d5e',
  timestamp: '2026-12-06T00:00:00Z', tool: { name: 'orgsec', version: '0.1.0' },
};

/** A document written in two batches, as the routes write one. */
function documentOf(writer: VexWriter, entries: VexEntry[]): any {
  return JSON.parse(writer.start() + writer.entries(entries.slice(0, 3)) + writer.entries(entries.slice(3)) + writer.end());
}

const entries = STATES.map((key, i) => entryOf(key, i + 1));

test('every assessed state has its table row and comes from an alert', () => {
  expect(entries.map(({ view }) => assessedState(view.alert))).toEqual(STATES);
});

test('CycloneDX: valid for 1.6, each state read back from the analysis', () => {
  const doc = documentOf(new CycloneDxVexWriter(info), entries);
  const validate = cycloneDxValidator(Spec.Version.v1dot6);
  expect(validate(doc) ? [] : validate.errors).toEqual([]);
  const read = doc.vulnerabilities.map((v: any) => assessmentFromCycloneDx(v.analysis));
  // By the standard fields alone, a rule's dismissal reads as tolerable risk and a withdrawal as inaccurate: the properties tell them apart.
  expect(read).toEqual(STATES.map((s) => ({ 'auto_dismissed:rule': 'dismissed:tolerable_risk', 'auto_dismissed:withdrawal': 'dismissed:inaccurate' } as Record<string, string>)[s] ?? s));
  expect(doc.vulnerabilities.at(-1).properties).toEqual(expect.arrayContaining([{ name: 'orgsec:alert:state', value: 'auto_dismissed' }]));
  expect(doc.vulnerabilities[0].references).toEqual([{ id: 'GHSA-aaaa-bbbb-cccc', source: { name: 'GitHub', url: 'https://github.com/advisories/GHSA-aaaa-bbbb-cccc' } }]);
  // A package shared by several alerts is one component.
  expect(doc.components.map((c: any) => c.purl).sort()).toEqual([...STATES.map((_, i) => `pkg:npm/%40scope/pkg@1.0.${i + 1}`), 'pkg:npm/%40scope/pkg@2.0.0'].sort());
  expect(doc.components[0]).toMatchObject({ group: '@scope', name: 'pkg', version: '1.0.1' });
});

test('OpenVEX: valid for 0.2.0, each state read back from its status and statement', () => {
  const doc = documentOf(new OpenVexWriter(info), entries);
  const validate = openVexValidator();
  expect(validate(doc) ? [] : validate.errors).toEqual([]);
  expect(doc.statements.map((s: any) => assessmentFromOpenVex(s))).toEqual(STATES);
  expect(doc.statements[0].products[0]['@id']).toBe('pkg:github/acme/web');
  expect(doc.statements[2].action_statement).toBe('A fix has been started. PR #12.');
});

test('an ecosystem no purl type names: CycloneDX lists the package by name, OpenVEX names the repository alone', () => {
  const unnamed = [entryOf('open', 1, 'actions', 'actions/checkout')];
  const cdx = documentOf(new CycloneDxVexWriter(info), unnamed);
  const validate = cycloneDxValidator(Spec.Version.v1dot6);
  expect(validate(cdx) ? [] : validate.errors).toEqual([]);
  expect(cdx.components).toEqual([{ 'type': 'library', 'name': 'actions/checkout', 'bom-ref': 'pkg:github/acme/web#actions:actions/checkout' }]);
  const open = documentOf(new OpenVexWriter(info), unnamed);
  expect(openVexValidator()(open)).toBe(true);
  expect(open.statements[0].products).toEqual([{ '@id': 'pkg:github/acme/web', 'identifiers': { purl: 'pkg:github/acme/web' } }]);
});

test('the OpenVEX rules refuse what the specification forbids', () => {
  const doc = documentOf(new OpenVexWriter(info), [entryOf('dismissed:not_used', 1)]);
  const validate = openVexValidator();
  expect(validate({ ...doc, statements: [{ ...doc.statements[0], impact_statement: 'both' }] })).toBe(false);
  expect(validate({ ...doc, statements: [{ ...doc.statements[0], status: 'affected', justification: undefined }] })).toBe(false);
  expect(validate({ ...doc, statements: [] })).toBe(false);
});
