import fs from 'node:fs';
import path from 'node:path';
import { scoreCvssVector, type CvssKind } from '../../../src/modules/advisories/osv';

// Vectors scored by FIRST's official calculators (see test/fixtures/cvss/README.md).
const DIR = path.join(__dirname, '..', '..', 'fixtures', 'cvss');

function samples(file: string): Array<[string, number]> {
  return fs
    .readFileSync(path.join(DIR, file), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const [vector, score] = line.split(' - ');
      return [vector ?? '', Number(score)];
    });
}

describe.each<[string, CvssKind]>([
  ['v3.1-base.txt', 'CVSS_V3'],
  ['v3.0-base.txt', 'CVSS_V3'],
  ['v4.0.txt', 'CVSS_V4'],
  ['v4.0-threat-environmental-supplemental.txt', 'CVSS_V4'],
])('scoreCvssVector on FIRST-scored vectors of %s', (file, kind) => {
  const rows = samples(file);

  it(`gives each of its ${rows.length} vectors FIRST's score`, () => {
    const wrong = rows.filter(([vector, score]) => {
      const scored = scoreCvssVector(kind, vector);
      return !scored.ok || scored.score !== score;
    });
    expect(wrong).toEqual([]);
    expect(rows.length).toBeGreaterThan(30);
  });
});

describe('scoreCvssVector on malformed vectors', () => {
  it.each<[CvssKind, string, string]>([
    ['CVSS_V3', 'garbage', 'must start with CVSS:3.0 or CVSS:3.1'],
    ['CVSS_V3', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N/SA:N', 'must start with CVSS:3.0 or CVSS:3.1'],
    ['CVSS_V4', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'must start with CVSS:4.0'],
    ['CVSS_V3', 'CVSS:3.1/AV:N', 'base metrics AC, PR, UI, S, C, I, A missing'],
    ['CVSS_V3', 'CVSS:3.1/AV:X/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'base metric AV missing'],
    ['CVSS_V3', 'CVSS:3.1/AV:N/AV:L/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'metric AV is repeated'],
    ['CVSS_V3', 'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H/', '"" is not a METRIC:VALUE pair'],
    ['CVSS_V3', 'CVSS:3.1/AV:Q/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H', 'Unknown component value Q for component AV'],
    ['CVSS_V4', 'CVSS:4.0/AV:N/AC:L/AT:N/PR:N/UI:N/VC:H/VI:H/VA:H/SC:N/SI:N', 'base metric SA missing'],
  ])('%s %s → not scored: %s', (kind, vector, reason) => {
    expect(scoreCvssVector(kind, vector)).toEqual({ ok: false, reason });
  });
});
