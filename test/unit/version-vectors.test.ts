import fs from 'node:fs';
import path from 'node:path';
import { compareVersions, type Ecosystem } from '../../src/modules/advisories/versions';

// Published comparison vectors (osv-scalibr's semantic/testdata, Apache-2.0; see the README of
// test/fixtures/version-vectors): every one runs through the comparator of its ecosystem, both ways.

const VECTORS = path.join(__dirname, '..', 'fixtures', 'version-vectors');

const FILES: ReadonlyArray<[Ecosystem, string]> = [
  ['npm', 'semver-versions.txt'],
  ['rust', 'semver-versions.txt'],
  ['go', 'semver-versions.txt'],
  ['pub', 'pub-versions.txt'],
  ['rubygems', 'rubygems-versions.txt'],
  ['rubygems', 'rubygems-versions-generated.sample.txt'],
  ['nuget', 'nuget-versions.txt'],
  ['composer', 'packagist-versions.txt'],
  ['composer', 'packagist-versions-generated.sample.txt'],
  ['maven', 'maven-versions.txt'],
  ['maven', 'maven-versions-generated.sample.txt'],
  ['maven', 'maven-comparableversion-3.8.7.txt'],
  ['pip', 'pypi-versions.txt'],
  ['pip', 'pypi-versions-generated.sample.txt'],
];

const HUGE = '999999999999999999999999999991';
const HUGE_TRIPLE = `${HUGE}.${HUGE}.${HUGE}`;
// Each checked with packaging 26.2: Version(v) raises InvalidVersion.
const LEGACY_PYPI = [
  '0.1-bulbasaur', '0.1-charmander', '0.9-doduo', '0.9-eevee', '0.9-fearow', '0.9-gyarados', '0.9-horsea', '0.9-ivysaur',
  '-class.-jw.util.version.version-pre', '-class.-jw.util.version.version-preview', '-class.-jw.util.version.version-dev',
  '0.7.1.fix1', '0.7.4.svn.r2010', '2013-07-19T09:11:08+0000', '2013-08-12T21:48:56+0200', '0.7.10p1', '0.7.11p1', '0.3m5', '0.4m1',
];

/**
 * Vectors the ecosystem itself does not pass: each one's version is refused ("invalid") or
 * ordered otherwise ("order"), for the reason given. The test fails if one starts passing.
 */
const EXCEPTIONS: ReadonlyArray<{ ecosystems: readonly Ecosystem[]; versions?: readonly string[]; lines?: readonly string[]; outcome: 'invalid' | 'order'; why: string }> = [
  { ecosystems: ['npm', 'rust', 'go', 'pub'], versions: [HUGE, HUGE_TRIPLE], outcome: 'invalid', why: 'not MAJOR.MINOR.PATCH, and numbers past 2^53 (npm refuses them, as Cargo and pub refuse numbers past 2^64)' },
  { ecosystems: ['npm', 'rust', 'go', 'pub'], versions: ['1.1.3.4.5'], outcome: 'invalid', why: 'five numeric parts: not SemVer (osv-scalibr reads the extra parts as build metadata)' },
  { ecosystems: ['rubygems'], versions: ['1beta', '1gamma'], outcome: 'invalid', why: 'Gem::Version requires a "." before a letter segment (Gem::Version.correct?("1beta") is false)' },
  { ecosystems: ['composer'], versions: ['1.2.3.#'], outcome: 'invalid', why: 'ends with a separator: Composer refuses it, and PHP orders it below itself (version_compare("1.2.3.#", "1.2.3.#") is -1)' },
  { ecosystems: ['composer'], versions: ['v1.9.0-ALPHA.1', 'v1.9.0-BETA.1', 'v1.9.0-ALPHA.2', 'v1.9.0-BETA.2'], outcome: 'order', why: 'raw version_compare does not know upper-case ALPHA/BETA; Composer normalizes them to alpha/beta first' },
  { ecosystems: ['pip'], versions: LEGACY_PYPI, outcome: 'invalid', why: 'legacy non-PEP 440 versions, refused by packaging 22+ and so by pip' },
  {
    ecosystems: ['maven'],
    lines: ['1-ga-1 < 1-1'],
    outcome: 'order',
    why: 'the POM reference says "1-ga-1" = "1-1" (trailing nulls trimmed before each hyphen), as orgsec does; Maven 3.8.7 keeps the "ga" list',
  },
  {
    ecosystems: ['maven'],
    lines: [
      '3.6.2.FL.20090615 < 3.6.2-FL-2009-05-11', '1.2.0.Beta1 < 1.2-M10', '1.0.0.CR5 < 1.0-pre41', '3.0-pre1 > 3.0.0.BETA2', '1.0.0.RC3 < 1.0-pre41',
      '1.0a > 1.0.0.Alpha13', '3.0.0.Alpha6 < 3.0.0-M3', '1.0.0.Alpha11 < 1.0.0-M20', '3.0.0.Beta8 < 3.0.0-rc3',
    ],
    outcome: 'order',
    why: 'a ".0" or "." qualifier after the release numbers: Maven 3.8.7 nests these tokens in lists the POM reference does not describe; orgsec follows the reference (8 of 11,996 random pairs of vector versions differ so)',
  },
];

interface Vector {
  readonly line: string;
  readonly left: string;
  readonly right: string;
  readonly expected: -1 | 0 | 1;
}

function readVectors(file: string): Vector[] {
  const expectations: Readonly<Record<string, -1 | 0 | 1>> = { '<': -1, '=': 0, '>': 1 };
  return fs
    .readFileSync(path.join(VECTORS, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('# ') && !line.startsWith('// '))
    .map((line) => {
      const [left, operator, right, ...rest] = line.split(' ');
      const expected = expectations[operator ?? ''];
      if (left === undefined || right === undefined || expected === undefined || rest.length > 0) throw new Error(`malformed vector: ${line}`);
      return { line, left, right, expected };
    });
}

function exceptionFor(ecosystem: Ecosystem, vector: Vector) {
  return EXCEPTIONS.find(
    (exception) =>
      exception.ecosystems.includes(ecosystem) &&
      (exception.lines?.includes(vector.line) || exception.versions?.includes(vector.left) || exception.versions?.includes(vector.right)),
  );
}

describe.each(FILES)('the %s comparator against %s', (ecosystem, file) => {
  const vectors = readVectors(file);
  const regular = vectors.filter((vector) => !exceptionFor(ecosystem, vector));
  const exceptional = vectors.filter((vector) => exceptionFor(ecosystem, vector));

  it('orders every vector as published, both ways round', () => {
    const failures = regular.filter((vector) => {
      const forward = compareVersions(ecosystem, vector.left, vector.right);
      const backward = compareVersions(ecosystem, vector.right, vector.left);
      return !forward.ok || !backward.ok || forward.order !== vector.expected || backward.order !== -vector.expected;
    });
    expect(failures.map((vector) => vector.line)).toEqual([]);
    expect(regular.length).toBeGreaterThan(0);
  });

  if (exceptional.length > 0) {
    it('departs from the vectors the ecosystem itself does not pass, only in the documented way', () => {
      for (const vector of exceptional) {
        const exception = exceptionFor(ecosystem, vector)!;
        const result = compareVersions(ecosystem, vector.left, vector.right);
        if (exception.outcome === 'invalid') expect({ line: vector.line, ok: result.ok }).toEqual({ line: vector.line, ok: false });
        else expect({ line: vector.line, order: result.ok ? result.order : 'invalid' }).not.toEqual({ line: vector.line, order: vector.expected });
      }
    });
  }
});
