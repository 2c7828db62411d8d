import type { ImportedVulnerability } from '../../src/modules/advisories/osv';
import { affectedVersionsOf, renderRangeText, storedVulnerabilitiesOf } from '../../src/modules/advisories/stored-vulnerabilities';
import { isVersionAffected } from '../../src/modules/advisories/versions';

// How an imported affected entry becomes stored vulnerabilities: one per vulnerable interval,
// each with the events it is matched by (src/modules/advisories/stored-vulnerabilities.ts).

function entry(overrides: Partial<ImportedVulnerability>): ImportedVulnerability {
  return {
    package: { ecosystem: 'pip', name: 'Some_Package' }, vulnerableVersionRange: '', firstPatchedVersion: null,
    vulnerableFunctions: ['mod.fn'], ranges: [], versions: [], ...overrides,
  };
}

const shown = (v: ImportedVulnerability) => storedVulnerabilitiesOf(v).map((s) => [s.vulnerableVersionRange, s.firstPatchedVersion, JSON.stringify(s.ranges), s.versions]);

describe('storedVulnerabilitiesOf', () => {
  it('splits a range with several intervals into one vulnerability each, keeping the range type and the package key', () => {
    const v = entry({ ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.2' }, { introduced: '2.0' }, { fixed: '2.3.1' }, { introduced: '3.0' }] }] });
    expect(shown(v)).toEqual([
      ['< 1.2', '1.2', JSON.stringify([{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: '1.2' }] }]), []],
      ['>= 2.0, < 2.3.1', '2.3.1', JSON.stringify([{ type: 'ECOSYSTEM', events: [{ introduced: '2.0' }, { fixed: '2.3.1' }] }]), []],
      ['>= 3.0', null, JSON.stringify([{ type: 'ECOSYSTEM', events: [{ introduced: '3.0' }] }]), []],
    ]);
    expect(storedVulnerabilitiesOf(v).map((s) => [s.packageKey, s.vulnerableFunctions])).toEqual([['some-package', ['mod.fn']], ['some-package', ['mod.fn']], ['some-package', ['mod.fn']]]);
  });

  it('writes the upper bound of an unfixed interval from GitHub\'s last_known_affected_version_range', () => {
    const v = entry({ ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }] }], lastKnownAffectedVersionRange: '<= 1.4' });
    expect(shown(v).map(([range]) => range)).toEqual(['>= 1.0, <= 1.4']);
  });

  it('gives listed versions no interval covers a vulnerability each, matched by the version itself', () => {
    const v = entry({ ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { fixed: '1.1' }] }], versions: ['1.0', '1.0.5', '0.9', 'weird+tag'] });
    expect(shown(v)).toEqual([
      ['>= 1.0, < 1.1', '1.1', JSON.stringify([{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { fixed: '1.1' }] }]), []],
      ['= 0.9', null, '[]', ['0.9']],
      ['= weird+tag', null, '[]', ['weird+tag']],
    ]);
  });

  it('stores GIT ranges on the first vulnerability, never matched; an entry with nothing else keeps its text', () => {
    const git = { type: 'GIT' as const, repo: 'https://example.com/r.git', events: [{ introduced: 'abc' }, { fixed: 'def' }] };
    expect(shown(entry({ ranges: [git], versions: ['1.0'] }))).toEqual([['= 1.0', null, JSON.stringify([git]), ['1.0']]]);
    expect(shown(entry({ ranges: [git], vulnerableVersionRange: '' }))).toEqual([['', null, JSON.stringify([git]), []]]);
  });
});

describe('renderRangeText (the mapping\'s RenderRange)', () => {
  it('renders every interval, or says why a range cannot be read', () => {
    expect(renderRangeText('npm', [{ introduced: '0' }, { fixed: '1.0.0' }, { introduced: '2.0.0' }], 'SEMVER')).toEqual({ ok: true, range: '< 1.0.0 || >= 2.0.0' });
    expect(renderRangeText('npm', [{ introduced: '0' }, { fixed: 'one' }], 'ECOSYSTEM')).toEqual({ ok: false, reason: expect.stringMatching(/^fixed: /) });
  });
});

describe('affectedVersionsOf', () => {
  it('parses the range text of rows written before the events were kept', () => {
    const row = { ranges: null, versions: [], vulnerableVersionRange: '>= 1.0.0, < 1.3.1' };
    const match = (version: string) => isVersionAffected('npm', affectedVersionsOf('npm', row), version);
    expect([match('0.9.0'), match('1.2.0'), match('1.3.1')]).toEqual([{ ok: true, isAffected: false }, { ok: true, isAffected: true }, { ok: true, isAffected: false }]);
    expect(affectedVersionsOf('npm', { ...row, vulnerableVersionRange: 'not a range' })).toEqual({ ranges: [], versions: [] });
  });
});
