import { mapOsvAdvisory, type ImportedAdvisory } from '../../../src/modules/advisories/osv';
import { renderSimpleRange } from '../../helpers/osv-range-text';

const V3_CRITICAL = 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H'; // 9.8 by the v3.1 formula
const V3_LOW = 'CVSS:3.1/AV:L/AC:H/PR:L/UI:N/S:U/C:N/I:L/A:N'; // 2.5
const V4_HIGH = 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N'; // 9.3 in FIRST's v4.0 calculator

function advisory(fields: Record<string, unknown>): ImportedAdvisory {
  const document = { id: 'GHSA-aaaa-bbbb-cccc', modified: '2024-01-02T03:04:05Z', ...fields };
  const result = mapOsvAdvisory(document, renderSimpleRange);
  if (result.kind !== 'mapped') throw new Error(JSON.stringify(result));
  return result.advisory;
}

describe('mapOsvAdvisory: severity and CVSS', () => {
  it('takes the severity the source states over the CVSS score', () => {
    expect(advisory({ severity: [{ type: 'CVSS_V3', score: V3_CRITICAL }], database_specific: { severity: 'MODERATE' } }).severity).toBe('medium');
  });

  it('without a stated severity, rates the highest CVSS score of v3 and v4', () => {
    const mapped = advisory({ severity: [{ type: 'CVSS_V3', score: V3_LOW }, { type: 'CVSS_V4', score: V4_HIGH }] });
    expect(mapped).toMatchObject({
      severity: 'critical',
      cvss: { vector_string: V3_LOW, score: 2.5 },
      cvssSeverities: { cvss_v3: { vector_string: V3_LOW, score: 2.5 }, cvss_v4: { vector_string: V4_HIGH, score: 9.3 } },
    });
  });

  it.each([
    [V3_LOW, 'low'],
    ['CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H', 'medium'], // 6.5
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:C/C:N/I:H/A:N', 'high'], // 8.6
    [V3_CRITICAL, 'critical'],
    ['CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:N/I:N/A:N', 'unknown'], // 0.0: "None"
  ])('a lone CVSS v3 vector %s rates %s', (vector, severity) => {
    expect(advisory({ severity: [{ type: 'CVSS_V3', score: vector }] }).severity).toBe(severity);
  });

  it("reads another database's database_specific.severity of another type as absent", () => {
    const mapped = advisory({ id: 'RUSTSEC-2024-0001', severity: [{ type: 'CVSS_V3', score: V3_LOW }], database_specific: { severity: { score: 3 }, type: 7 } });
    expect(mapped).toMatchObject({ severity: 'low', classification: 'general', type: 'reviewed' });
  });

  it('treats a malformed vector as absent and reports it', () => {
    const result = mapOsvAdvisory(
      { id: 'PYSEC-2024-1', modified: '2024-01-02T03:04:05Z', severity: [{ type: 'CVSS_V3', score: 'CVSS:3.1/AV:N/AC:L' }] },
      renderSimpleRange,
    );
    expect(result).toMatchObject({
      kind: 'mapped',
      advisory: { severity: 'unknown', cvss: { vector_string: null, score: 0 } },
      notes: [{ kind: 'cvss-malformed', type: 'CVSS_V3', vector: 'CVSS:3.1/AV:N/AC:L', reason: 'base metrics PR, UI, S, C, I, A missing' }],
    });
  });
});

describe('mapOsvAdvisory: identity, classification and type', () => {
  it('takes the first CVE alias as cve_id and lists every CVE alias after the SVCSA identifier', () => {
    expect(advisory({ aliases: ['PYSEC-2024-9', 'CVE-2024-0002', 'CVE-2024-0001'] })).toMatchObject({
      cveId: 'CVE-2024-0002',
      identifiers: [
        { type: 'SVCSA', value: 'GHSA-aaaa-bbbb-cccc' },
        { type: 'CVE', value: 'CVE-2024-0002' },
        { type: 'CVE', value: 'CVE-2024-0001' },
      ],
    });
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    ['a MAL- id', { id: 'MAL-2024-1234' }, 'malware', 'malware'],
    ['a GHSA the source marks as malware', { database_specific: { type: 'malware' } }, 'malware', 'malware'],
    ['a GitHub-reviewed GHSA', { database_specific: { github_reviewed: true } }, 'general', 'reviewed'],
    ['a GHSA GitHub has not reviewed', { database_specific: { github_reviewed: false } }, 'general', 'unreviewed'],
    ['a GHSA that does not say', {}, 'general', 'unreviewed'],
    ['a PYSEC advisory', { id: 'PYSEC-2024-1' }, 'general', 'reviewed'],
  ])('%s is %s, type %s', (_what, fields, classification, type) => {
    expect(advisory(fields)).toMatchObject({ classification, type });
  });
});

describe('mapOsvAdvisory: dates, CWEs, credits, references', () => {
  it('writes dates in UTC, keeps milliseconds the source gives, and uses modified when published is absent', () => {
    expect(advisory({ modified: '2024-01-02T05:04:05.250+02:00', withdrawn: '2024-02-01T00:00:00Z' })).toMatchObject({
      publishedAt: '2024-01-02T03:04:05.250Z',
      updatedAt: '2024-01-02T03:04:05.250Z',
      withdrawnAt: '2024-02-01T00:00:00Z',
    });
  });

  it('names CWEs from the catalogue, and an unknown one by its id', () => {
    expect(advisory({ database_specific: { cwe_ids: ['CWE-1333', 'CWE-99999'] } }).cwes).toEqual([
      { cwe_id: 'CWE-1333', name: 'Inefficient Regular Expression Complexity' },
      { cwe_id: 'CWE-99999', name: 'CWE-99999' },
    ]);
  });

  it('keeps credits with their type in lower case, and the package reference as source_code_location', () => {
    const mapped = advisory({
      credits: [{ name: 'Ada', contact: ['https://example.com/ada'], type: 'FINDER' }, { name: 'Bob' }],
      references: [{ type: 'WEB', url: 'https://example.com/a' }, { type: 'PACKAGE', url: 'https://github.com/o/r' }],
    });
    expect(mapped).toMatchObject({
      credits: [
        { name: 'Ada', type: 'finder', contact: ['https://example.com/ada'] },
        { name: 'Bob', type: null, contact: [] },
      ],
      references: [{ url: 'https://example.com/a' }, { url: 'https://github.com/o/r' }],
      sourceCodeLocation: 'https://github.com/o/r',
    });
  });
});
