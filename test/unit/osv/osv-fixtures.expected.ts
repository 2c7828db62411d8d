import type { AdvisorySeverity, Ecosystem } from '../../../src/modules/advisories/osv';

// What each fixture of test/fixtures/osv must map to, checked by hand against the file:
// CVSS v3.1 base scores by the spec's formula (§7.1), severities from database_specific.severity,
// CWE names from MITRE's CWE list 4.15, ranges in GitHub's syntax.

export interface FixtureFacts {
  file: string;
  cveId: string;
  vector: string | null;
  score: number;
  severity: AdvisorySeverity;
  cwe: { cwe_id: string; name: string };
  reviewedAt: string | null;
  nvdPublishedAt: string | null;
  sourceCodeLocation: string;
  vulnerabilities: Array<{ ecosystem: Ecosystem; name: string; range: string; introduced: string; fixed: string; versions?: string[] }>;
}

const DIR = 'advisories/github-reviewed/2022';
const XSS = { cwe_id: 'CWE-79', name: "Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')" };
const PERMISSIONS = { cwe_id: 'CWE-276', name: 'Incorrect Default Permissions' };

export const FIXTURES: readonly FixtureFacts[] = [
  {
    file: `${DIR}/02/GHSA-m22m-h4rf-pwq3/GHSA-m22m-h4rf-pwq3.json`,
    cveId: 'CVE-2021-32840',
    vector: 'CVSS:3.1/AV:L/AC:L/PR:N/UI:N/S:U/C:L/I:H/A:L',
    score: 7.3,
    severity: 'high',
    cwe: { cwe_id: 'CWE-22', name: "Improper Limitation of a Pathname to a Restricted Directory ('Path Traversal')" },
    reviewedAt: null,
    nvdPublishedAt: null,
    sourceCodeLocation: 'https://github.com/icsharpcode/SharpZipLib',
    vulnerabilities: [{ ecosystem: 'nuget', name: 'SharpZipLib', range: '< 1.3.3', introduced: '0', fixed: '1.3.3' }],
  },
  {
    file: `${DIR}/02/GHSA-qc84-gqf4-9926/GHSA-qc84-gqf4-9926.json`,
    cveId: 'CVE-2022-23639',
    vector: 'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:H/A:H',
    score: 8.1,
    severity: 'high',
    cwe: { cwe_id: 'CWE-362', name: "Concurrent Execution using Shared Resource with Improper Synchronization ('Race Condition')" },
    reviewedAt: null,
    nvdPublishedAt: null,
    sourceCodeLocation: 'https://github.com/crossbeam-rs/crossbeam',
    vulnerabilities: [{ ecosystem: 'rust', name: 'crossbeam-utils', range: '< 0.8.7', introduced: '0', fixed: '0.8.7' }],
  },
  {
    file: `${DIR}/05/GHSA-f3fp-gc8g-vw66/GHSA-f3fp-gc8g-vw66.json`,
    cveId: 'CVE-2022-29162',
    vector: 'CVSS:3.1/AV:L/AC:L/PR:N/UI:N/S:U/C:L/I:L/A:L',
    score: 5.9,
    severity: 'medium',
    cwe: PERMISSIONS,
    reviewedAt: '2022-05-24T17:36:56Z',
    nvdPublishedAt: '2022-05-17T21:15:00Z',
    sourceCodeLocation: 'github.com/opencontainers/runc',
    vulnerabilities: [{ ecosystem: 'go', name: 'github.com/opencontainers/runc', range: '< 1.1.2', introduced: '0', fixed: '1.1.2' }],
  },
  {
    file: `${DIR}/06/GHSA-22p3-qrh9-cx32/GHSA-22p3-qrh9-cx32.json`,
    cveId: 'CVE-2022-31052',
    vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H',
    score: 6.5,
    severity: 'medium',
    cwe: { cwe_id: 'CWE-674', name: 'Uncontrolled Recursion' },
    reviewedAt: null,
    nvdPublishedAt: null,
    sourceCodeLocation: 'https://github.com/matrix-org/synapse',
    vulnerabilities: [{ ecosystem: 'pip', name: 'matrix-synapse', range: '< 1.61.1', introduced: '0', fixed: '1.61.1' }],
  },
  {
    file: `${DIR}/06/GHSA-25mq-v84q-4j7r/GHSA-25mq-v84q-4j7r.json`,
    cveId: 'CVE-2022-31090',
    vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:H/I:N/A:N',
    score: 7.7,
    severity: 'high',
    cwe: { cwe_id: 'CWE-200', name: 'Exposure of Sensitive Information to an Unauthorized Actor' },
    reviewedAt: null,
    nvdPublishedAt: null,
    sourceCodeLocation: 'https://github.com/guzzle/guzzle',
    vulnerabilities: [
      { ecosystem: 'composer', name: 'guzzlehttp/guzzle', range: '< 6.5.8', introduced: '0', fixed: '6.5.8' },
      { ecosystem: 'composer', name: 'guzzlehttp/guzzle', range: '>= 7.0.0, < 7.4.5', introduced: '7.0.0', fixed: '7.4.5' },
    ],
  },
  {
    file: `${DIR}/06/GHSA-26qj-cr27-r5c4/GHSA-26qj-cr27-r5c4.json`,
    cveId: 'CVE-2022-31071',
    vector: 'CVSS:3.1/AV:L/AC:H/PR:L/UI:N/S:U/C:N/I:L/A:N',
    score: 2.5,
    severity: 'low',
    cwe: PERMISSIONS,
    reviewedAt: '2022-06-15T21:24:14Z',
    nvdPublishedAt: '2022-06-15T23:15:00Z',
    sourceCodeLocation: 'https://github.com/octokit/octopoller.rb',
    vulnerabilities: [{ ecosystem: 'rubygems', name: 'octopoller', range: '>= 0.2.0, < 0.3.0', introduced: '0.2.0', fixed: '0.3.0', versions: ['0.2.0'] }],
  },
  {
    file: `${DIR}/06/GHSA-2gqg-2rg7-gh33/GHSA-2gqg-2rg7-gh33.json`,
    cveId: 'CVE-2022-29711',
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    score: 6.1,
    severity: 'medium',
    cwe: XSS,
    reviewedAt: null,
    nvdPublishedAt: null,
    sourceCodeLocation: 'https://github.com/librenms/librenms',
    vulnerabilities: [{ ecosystem: 'composer', name: 'librenms/librenms', range: '< 22.4.0', introduced: '0', fixed: '22.4.0' }],
  },
  {
    file: `${DIR}/06/GHSA-39r3-h8q6-2phq/GHSA-39r3-h8q6-2phq.json`,
    cveId: 'CVE-2022-34178',
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
    score: 6.1,
    severity: 'medium',
    cwe: XSS,
    reviewedAt: null,
    nvdPublishedAt: null,
    sourceCodeLocation: 'https://github.com/jenkinsci/embeddable-build-status-plugin',
    vulnerabilities: [
      { ecosystem: 'maven', name: 'org.jenkins-ci.plugins:embeddable-build-status', range: '< 2.0.4', introduced: '0', fixed: '2.0.4' },
    ],
  },
  {
    file: `${DIR}/06/GHSA-3fvg-4v2m-98jf/GHSA-3fvg-4v2m-98jf.json`,
    cveId: 'CVE-2022-25898',
    vector: 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:N/I:H/A:N',
    score: 8.6,
    severity: 'high',
    cwe: { cwe_id: 'CWE-347', name: 'Improper Verification of Cryptographic Signature' },
    reviewedAt: null,
    nvdPublishedAt: null,
    sourceCodeLocation: 'https://github.com/kjur/jsrsasign',
    vulnerabilities: [{ ecosystem: 'npm', name: 'jsrsasign', range: '>= 4.8.0, < 10.5.25', introduced: '4.8.0', fixed: '10.5.25' }],
  },
  {
    file: `${DIR}/09/GHSA-4xh4-v2pq-jvhm/GHSA-4xh4-v2pq-jvhm.json`,
    cveId: 'CVE-2023-22963',
    vector: null, // `severity: []`: no CVSS, the severity is GitHub's own
    score: 0,
    severity: 'low',
    cwe: { cwe_id: 'CWE-20', name: 'Improper Input Validation' },
    reviewedAt: '2022-09-19T22:47:29Z',
    nvdPublishedAt: null,
    sourceCodeLocation: 'https://github.com/personnummer/dart',
    vulnerabilities: [{ ecosystem: 'pub', name: 'personnummer', range: '< 3.0.3', introduced: '0', fixed: '3.0.3' }],
  },
];
