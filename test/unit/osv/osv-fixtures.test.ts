import fs from 'node:fs';
import path from 'node:path';
import { mapOsvAdvisory, type ImportedAdvisory } from '../../../src/modules/advisories/osv';
import { renderSimpleRange } from '../../helpers/osv-range-text';
import { FIXTURES, type FixtureFacts } from './osv-fixtures.expected';

const ROOT = path.join(__dirname, '..', '..', 'fixtures', 'osv');

interface RawOsv {
  id: string;
  summary: string;
  details: string;
  published: string;
  modified: string;
  references: Array<{ url: string }>;
}

/** The whole advisory a fixture must become: verbatim fields from the file, the rest from the hand-checked facts. */
function expectedAdvisory(raw: RawOsv, facts: FixtureFacts): ImportedAdvisory {
  const cvss = { vector_string: facts.vector, score: facts.score };
  return {
    svcsaId: raw.id,
    cveId: facts.cveId,
    type: 'reviewed',
    classification: 'general',
    summary: raw.summary,
    description: raw.details,
    severity: facts.severity,
    cvss,
    cvssSeverities: { cvss_v3: cvss, cvss_v4: { vector_string: null, score: 0 } },
    cwes: [facts.cwe],
    identifiers: [
      { type: 'SVCSA', value: raw.id },
      { type: 'CVE', value: facts.cveId },
    ],
    references: raw.references.map(({ url }) => ({ url })),
    publishedAt: raw.published,
    updatedAt: raw.modified,
    withdrawnAt: null,
    reviewedAt: facts.reviewedAt,
    nvdPublishedAt: facts.nvdPublishedAt,
    sourceCodeLocation: facts.sourceCodeLocation,
    credits: [],
    vulnerabilities: facts.vulnerabilities.map((v) => ({
      package: { ecosystem: v.ecosystem, name: v.name },
      vulnerableVersionRange: v.range,
      firstPatchedVersion: v.fixed,
      vulnerableFunctions: [],
      ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: v.introduced }, { fixed: v.fixed }] }],
      versions: v.versions ?? [],
    })),
  };
}

describe('mapping the real OSV advisories of test/fixtures/osv', () => {
  it.each(FIXTURES.map((facts) => [path.basename(facts.file, '.json'), facts] as const))(
    '%s maps with every field as interfaces.md "Advisory database" says',
    (_id, facts) => {
      const raw = JSON.parse(fs.readFileSync(path.join(ROOT, facts.file), 'utf8')) as RawOsv;
      expect(mapOsvAdvisory(raw, renderSimpleRange)).toEqual({ kind: 'mapped', advisory: expectedAdvisory(raw, facts), notes: [] });
    },
  );

  it('covers the nine ecosystems of the spec', () => {
    const ecosystems = new Set(FIXTURES.flatMap((f) => f.vulnerabilities.map((v) => v.ecosystem)));
    expect([...ecosystems].sort()).toEqual(['composer', 'go', 'maven', 'npm', 'nuget', 'pip', 'pub', 'rubygems', 'rust']);
  });
});
