import { parseVulnerableVersionRange, renderAffected, type OsvEvent } from '../../src/modules/advisories/versions';

// The original's range syntax ("comma-separated comparator expression", spec §2.9) written from
// OSV events and read back into them.

const FORMS: ReadonlyArray<[string, OsvEvent[], string | null]> = [
  ['< 1.2.3', [{ introduced: '0' }, { fixed: '1.2.3' }], '1.2.3'],
  ['<= 1.2.3', [{ introduced: '0' }, { last_affected: '1.2.3' }], null],
  ['>= 1.0.0, < 1.2.3', [{ introduced: '1.0.0' }, { fixed: '1.2.3' }], '1.2.3'],
  ['>= 1.0.0, <= 1.2.3', [{ introduced: '1.0.0' }, { last_affected: '1.2.3' }], null],
  ['>= 1.0.0', [{ introduced: '1.0.0' }], null],
  ['>= 0', [{ introduced: '0' }], null],
  ['= 1.2.3', [{ introduced: '1.2.3' }, { last_affected: '1.2.3' }], null],
];

describe('rendering OSV events in the original syntax', () => {
  it.each(FORMS)('writes %s', (range, events, patched) => {
    expect(renderAffected('npm', { ranges: [{ type: 'ECOSYSTEM', events }] })).toEqual([{ vulnerableVersionRange: range, firstPatchedVersion: patched, events }]);
  });

  it('writes one vulnerability per introduced/fixed pair of a range, in version order', () => {
    const rendered = renderAffected('pip', { ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '3.0' }, { fixed: '3.2.5' }, { introduced: '0' }, { fixed: '1.0.2' }] }] });
    expect(rendered.map((vulnerability) => [vulnerability.vulnerableVersionRange, vulnerability.firstPatchedVersion])).toEqual([
      ['< 1.0.2', '1.0.2'],
      ['>= 3.0, < 3.2.5', '3.2.5'],
    ]);
  });

  it('writes the upper bound of an unfixed range from the export\'s last_known_affected_version_range', () => {
    const affected = { ranges: [{ type: 'ECOSYSTEM' as const, events: [{ introduced: '0' }] }] };
    expect(renderAffected('npm', affected, '< 2.0.0')[0]?.vulnerableVersionRange).toBe('< 2.0.0');
    const fromOne = { ranges: [{ type: 'ECOSYSTEM' as const, events: [{ introduced: '1.0.0' }] }] };
    expect(renderAffected('npm', fromOne, '<= 2.0.0')[0]?.vulnerableVersionRange).toBe('>= 1.0.0, <= 2.0.0');
  });

  it('writes "= A" for the export of a single version: introduced A, a fix, and versions [A]', () => {
    const affected = { ranges: [{ type: 'ECOSYSTEM' as const, events: [{ introduced: '0.2.0' }, { fixed: '0.3.0' }] }], versions: ['0.2.0'] };
    expect(renderAffected('rubygems', affected)).toEqual([{ vulnerableVersionRange: '= 0.2.0', firstPatchedVersion: '0.3.0', events: [{ introduced: '0.2.0' }, { fixed: '0.3.0' }] }]);
  });

  it('writes each version of an entry that only lists versions as "= A"', () => {
    expect(renderAffected('npm', { versions: ['1.0.0', '1.0.1'] }).map((vulnerability) => vulnerability.vulnerableVersionRange)).toEqual(['= 1.0.0', '= 1.0.1']);
  });

  it('leaves GIT ranges out', () => {
    expect(renderAffected('go', { ranges: [{ type: 'GIT', repo: 'https://github.com/o/r', events: [{ introduced: '0' }] }] })).toEqual([]);
  });
});

describe('parseVulnerableVersionRange', () => {
  it.each(FORMS)('reads %s back into its events', (range, events) => {
    expect(parseVulnerableVersionRange('npm', range)).toEqual({ ok: true, events });
  });

  it('accepts missing spaces and the bounds in either order', () => {
    expect(parseVulnerableVersionRange('npm', '<1.2.3,>=1.0.0')).toEqual({ ok: true, events: [{ introduced: '1.0.0' }, { fixed: '1.2.3' }] });
  });

  it.each([
    ['> 1.0.0', '"> 1.0.0" is not a constraint (">= V", "< V", "<= V" or "= V")'],
    ['', '"" is not a constraint (">= V", "< V", "<= V" or "= V")'],
    ['~1.2', '"~1.2" is not a constraint (">= V", "< V", "<= V" or "= V")'],
    ['< 1.0.0, <= 2.0.0', '"< 1.0.0, <= 2.0.0" has more than one upper bound'],
    ['>= 1.0.0, >= 2.0.0', '">= 1.0.0, >= 2.0.0" has more than one lower bound'],
    ['= 1.0.0, < 2.0.0', '"= 1.0.0, < 2.0.0": "=" stands alone'],
    ['< 1.2', '"1.2" is not a npm version'],
  ])('refuses %j: %s', (range, reason) => {
    expect(parseVulnerableVersionRange('npm', range)).toEqual({ ok: false, reason });
  });

  it('checks versions in the ecosystem given (1.2 is a pip version)', () => {
    expect(parseVulnerableVersionRange('pip', '< 1.2')).toEqual({ ok: true, events: [{ introduced: '0' }, { fixed: '1.2' }] });
  });
});
