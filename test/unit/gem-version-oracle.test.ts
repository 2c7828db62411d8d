import fs from 'node:fs';
import path from 'node:path';
import { eq, gt, valid } from '@renovatebot/ruby-semver';
import { compareVersions, parseVersion } from '../../src/modules/advisories/versions';

// orgsec's Gem::Version against a maintained implementation of it (@renovatebot/ruby-semver, a
// port of RubyGems' Gem::Version), over every version of the published RubyGems vectors: the same
// validity, and the same order for pairs of them (numbers kept below 2^53, where the port is
// exact; letters in one case, which the port orders by locale where Ruby compares bytes).

const VECTORS = path.join(__dirname, '..', 'fixtures', 'version-vectors');

function versionsOf(file: string): string[] {
  return fs
    .readFileSync(path.join(VECTORS, file), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('# ') && !line.startsWith('// '))
    .flatMap((line) => [line.split(' ')[0] as string, line.split(' ')[2] as string]);
}

const EXTRA = ['1.0.0-rc1', '1.0.0.pre-1', '1.0.0.0.0.1', '2.0.0.a.0', '1.0.b1.0'];
const VERSIONS = [...new Set([...versionsOf('rubygems-versions.txt'), ...versionsOf('rubygems-versions-generated.sample.txt'), ...EXTRA])].filter((version) => !/\d{16}/.test(version));

function oracleOrder(a: string, b: string): number {
  return eq(a, b) ? 0 : gt(a, b) ? 1 : -1;
}

describe('Gem::Version against @renovatebot/ruby-semver', () => {
  it('accepts exactly the versions the port accepts', () => {
    const disagreements = VERSIONS.filter((version) => (parseVersion('rubygems', version) !== undefined) !== (valid(version) !== null));
    expect(disagreements).toEqual([]);
  });

  it('orders the versions as the port does, each against its neighbours in text order and against ten pivots', () => {
    const valids = VERSIONS.filter((version) => valid(version) !== null).sort();
    const pivots = valids.filter((_, index) => index % Math.ceil(valids.length / 10) === 0);
    const pairs = valids.flatMap((version, index) => [...valids.slice(index + 1, index + 4), ...pivots].map((other) => [version, other] as const));
    const disagreements = pairs.filter(([a, b]) => {
      const ours = compareVersions('rubygems', a, b);
      return !ours.ok || ours.order !== oracleOrder(a, b);
    });
    expect(pairs.length).toBeGreaterThan(3000);
    expect(disagreements).toEqual([]);
  });

  it('compares letter segments by bytes, as Ruby does (the port would use the locale)', () => {
    expect(compareVersions('rubygems', '2.A', '2.a')).toEqual({ ok: true, order: -1 });
  });
});
