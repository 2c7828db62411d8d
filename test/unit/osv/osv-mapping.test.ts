import { mapOsvAdvisory, type OsvMapping, type RenderRange } from '../../../src/modules/advisories/osv';
import { renderSimpleRange } from '../../helpers/osv-range-text';

const NPM_AFFECTED = { package: { ecosystem: 'npm', name: 'left-pad' }, ranges: [{ type: 'SEMVER', events: [{ introduced: '0' }, { fixed: '1.3.0' }] }] };

function osv(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: 'GHSA-aaaa-bbbb-cccc', modified: '2024-01-02T03:04:05Z', published: '2024-01-01T00:00:00Z', affected: [NPM_AFFECTED], ...fields };
}

function mapped(result: OsvMapping) {
  if (result.kind !== 'mapped') throw new Error(`expected a mapped advisory, got ${JSON.stringify(result)}`);
  return result;
}

describe('mapOsvAdvisory: malformed advisories give a reason, never throw', () => {
  it.each<[string, unknown, string | null, string]>([
    ['an array', [], null, 'The input must be an object'],
    ['no modified', { id: 'GHSA-x', affected: [] }, 'GHSA-x', '"modified"'],
    ['a modified that is no date', osv({ modified: 'yesterday' }), 'GHSA-aaaa-bbbb-cccc', 'must be an RFC 3339 timestamp'],
    ['an event with no known key', osv({ affected: [{ ...NPM_AFFECTED, ranges: [{ type: 'SEMVER', events: [{ removed: '1' }] }] }] }), 'GHSA-aaaa-bbbb-cccc', '"affected[0].ranges[0].events[0]"'],
    ['a package without a name', osv({ affected: [{ package: { ecosystem: 'npm' } }] }), 'GHSA-aaaa-bbbb-cccc', '"affected[0].package.name"'],
    ['a range type OSV does not define', osv({ affected: [{ ...NPM_AFFECTED, ranges: [{ type: 'DATE', events: [{ introduced: '0' }] }] }] }), 'GHSA-aaaa-bbbb-cccc', '"affected[0].ranges[0].type"'],
  ])('%s → malformed', (_what, document, id, reasonPart) => {
    const result = mapOsvAdvisory(document, renderSimpleRange);
    expect(result).toEqual({ kind: 'malformed', id, reason: expect.stringContaining(reasonPart) });
  });
});

describe('mapOsvAdvisory: ecosystems', () => {
  it('skips an advisory whose every package is in an ecosystem orgsec does not know, and says which', () => {
    const document = osv({ affected: [{ package: { ecosystem: 'Debian:11', name: 'openssl' } }] });
    expect(mapOsvAdvisory(document, renderSimpleRange)).toEqual({
      kind: 'skipped',
      id: 'GHSA-aaaa-bbbb-cccc',
      reason: 'no affected package in an ecosystem orgsec knows (Debian:11)',
      notes: [{ kind: 'unknown-ecosystem', ecosystem: 'Debian:11', package: 'openssl' }],
    });
  });

  it('keeps the known packages of a mixed advisory and notes each unknown one', () => {
    const result = mapped(mapOsvAdvisory(osv({ affected: [{ package: { ecosystem: 'Hex', name: 'plug' } }, NPM_AFFECTED] }), renderSimpleRange));
    expect(result.advisory.vulnerabilities.map((v) => v.package)).toEqual([{ ecosystem: 'npm', name: 'left-pad' }]);
    expect(result.notes).toEqual([{ kind: 'unknown-ecosystem', ecosystem: 'Hex', package: 'plug' }]);
  });
});

describe('mapOsvAdvisory: ranges', () => {
  it('drops a range the version engine cannot read, with its reason, and keeps the others', () => {
    const refuse: RenderRange = (ecosystem, events, type) =>
      events.some((e) => 'fixed' in e && e.fixed === 'not.a.version') ? { ok: false, reason: 'fixed "not.a.version" is not a version' } : renderSimpleRange(ecosystem, events, type);
    const ranges = [
      { type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: 'not.a.version' }] },
      { type: 'ECOSYSTEM', events: [{ introduced: '2.0.0' }, { fixed: '2.1.0' }] },
    ];
    const result = mapped(mapOsvAdvisory(osv({ affected: [{ ...NPM_AFFECTED, ranges }] }), refuse));
    expect(result.advisory.vulnerabilities[0]).toMatchObject({ vulnerableVersionRange: '>= 2.0.0, < 2.1.0', firstPatchedVersion: '2.1.0', ranges: [ranges[1]] });
    expect(result.notes).toEqual([{ kind: 'range-skipped', ecosystem: 'npm', package: 'left-pad', reason: 'fixed "not.a.version" is not a version' }]);
  });

  it('skips the advisory when no range of any package can be read', () => {
    const result = mapOsvAdvisory(osv(), () => ({ ok: false, reason: 'unreadable' }));
    expect(result).toMatchObject({ kind: 'skipped', reason: 'no affected package with a range orgsec can read (ecosystems: npm)' });
  });

  it('joins several ranges of one package as alternatives, stores GIT ranges unrendered, and takes the first fixed version', () => {
    const git = { type: 'GIT', repo: 'https://github.com/a/b', events: [{ introduced: '0' }, { fixed: 'abc123' }] };
    const ranges = [git, { type: 'SEMVER', events: [{ introduced: '1.0.0' }, { fixed: '1.0.5' }] }, { type: 'SEMVER', events: [{ introduced: '2.0.0' }, { last_affected: '2.0.3' }] }];
    const [vulnerability] = mapped(mapOsvAdvisory(osv({ affected: [{ ...NPM_AFFECTED, ranges }] }), renderSimpleRange)).advisory.vulnerabilities;
    expect(vulnerability).toEqual({
      package: { ecosystem: 'npm', name: 'left-pad' },
      vulnerableVersionRange: '>= 1.0.0, < 1.0.5 || >= 2.0.0, <= 2.0.3',
      firstPatchedVersion: '1.0.5',
      vulnerableFunctions: [],
      ranges,
      versions: [],
    });
  });

  it('renders an explicit versions list when there is no version range', () => {
    const affected = { package: { ecosystem: 'PyPI', name: 'Django' }, versions: ['1.0', '1.1'] };
    const [vulnerability] = mapped(mapOsvAdvisory(osv({ affected: [affected] }), renderSimpleRange)).advisory.vulnerabilities;
    expect(vulnerability).toMatchObject({ package: { ecosystem: 'pip', name: 'Django' }, vulnerableVersionRange: '= 1.0 || = 1.1', firstPatchedVersion: null, ranges: [], versions: ['1.0', '1.1'] });
  });

  it('reads vulnerable functions where the Go and RustSec databases put them', () => {
    const go = { package: { ecosystem: 'Go', name: 'golang.org/x/net' }, ecosystem_specific: { imports: [{ path: 'golang.org/x/net/html', symbols: ['Parse', 'ParseFragment'] }] } };
    const rust = { package: { ecosystem: 'crates.io', name: 'smallvec' }, ecosystem_specific: { affects: { functions: ['smallvec::SmallVec::insert_many'] } } };
    const result = mapped(mapOsvAdvisory(osv({ id: 'GO-2024-0001', affected: [go, rust] }), renderSimpleRange));
    expect(result.advisory.vulnerabilities.map((v) => v.vulnerableFunctions)).toEqual([
      ['golang.org/x/net/html.Parse', 'golang.org/x/net/html.ParseFragment'],
      ['smallvec::SmallVec::insert_many'],
    ]);
  });
});
