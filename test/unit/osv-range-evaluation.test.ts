import { compileAffected, isVersionAffected, matchVersion, type OsvAffectedVersions, type OsvRange } from '../../src/modules/advisories/versions';

// The OSV schema's "Evaluation" section and its examples.

function affectedSet(ecosystem: Parameters<typeof compileAffected>[0], affected: OsvAffectedVersions, versions: readonly string[]): string[] {
  const compiled = compileAffected(ecosystem, affected);
  return versions.filter((version) => {
    const match = matchVersion(compiled, version);
    if (!match.ok) throw new Error(match.reason);
    return match.isAffected;
  });
}

const semver = (events: OsvRange['events']): OsvAffectedVersions => ({ ranges: [{ type: 'SEMVER', events }] });
const ecosystem = (events: OsvRange['events']): OsvAffectedVersions => ({ ranges: [{ type: 'ECOSYSTEM', events }] });

describe('OSV range evaluation', () => {
  const versions = ['0.0.1', '0.9.0', '1.0.0-rc.1', '1.0.0', '1.0.1', '1.0.2', '2.0.0', '3.0.0', '3.2.4', '3.2.5', '4.0.0'];

  it('"introduced: 0" alone covers every version', () => {
    expect(affectedSet('npm', semver([{ introduced: '0' }]), versions)).toEqual(versions);
  });

  it('introduced 0, fixed 1.0.2: everything before 1.0.2, pre-releases included', () => {
    expect(affectedSet('npm', semver([{ introduced: '0' }, { fixed: '1.0.2' }]), versions)).toEqual(['0.0.1', '0.9.0', '1.0.0-rc.1', '1.0.0', '1.0.1']);
  });

  it('several introduced/fixed pairs in one range: [1.0.0, 1.0.2) and [3.0.0, 3.2.5)', () => {
    const events = [{ introduced: '1.0.0' }, { fixed: '1.0.2' }, { introduced: '3.0.0' }, { fixed: '3.2.5' }];
    expect(affectedSet('npm', semver(events), versions)).toEqual(['1.0.0', '1.0.1', '3.0.0', '3.2.4']);
  });

  it('walks unsorted events in the ecosystem order', () => {
    const events = [{ fixed: '3.2.5' }, { introduced: '3.0.0' }, { fixed: '1.0.2' }, { introduced: '1.0.0' }];
    expect(affectedSet('npm', semver(events), versions)).toEqual(['1.0.0', '1.0.1', '3.0.0', '3.2.4']);
  });

  it('last_affected includes its version, fixed excludes it', () => {
    expect(affectedSet('npm', ecosystem([{ introduced: '0' }, { last_affected: '2.0.0' }]), ['1.0.2', '2.0.0', '3.0.0'])).toEqual(['1.0.2', '2.0.0']);
    expect(affectedSet('npm', ecosystem([{ introduced: '0' }, { fixed: '2.0.0' }]), ['1.0.2', '2.0.0', '3.0.0'])).toEqual(['1.0.2']);
  });

  it('limit events bound the range from above; "*" is infinity', () => {
    expect(affectedSet('npm', semver([{ introduced: '1.0.0' }, { limit: '3.0.0' }]), ['0.9.0', '1.0.0', '2.0.0', '3.0.0', '4.0.0'])).toEqual(['1.0.0', '2.0.0']);
    expect(affectedSet('npm', semver([{ introduced: '1.0.0' }, { limit: '*' }]), ['0.9.0', '1.0.0', '4.0.0'])).toEqual(['1.0.0', '4.0.0']);
  });

  it('an introduced and a fixed at the same version cover nothing', () => {
    expect(affectedSet('npm', semver([{ fixed: '1.0.0' }, { introduced: '1.0.0' }]), ['0.9.0', '1.0.0', '2.0.0'])).toEqual([]);
  });

  it('orders ECOSYSTEM ranges by the ecosystem (pip: 1.0rc1 < 1.0 < 1.0.post1)', () => {
    const events = [{ introduced: '1.0rc1' }, { fixed: '1.0.post1' }];
    expect(affectedSet('pip', ecosystem(events), ['0.9', '1.0rc1', '1.0', '1.0.post1', '1.1'])).toEqual(['1.0rc1', '1.0']);
  });

  it('orders SEMVER ranges by SemVer whatever the ecosystem, a version outside SemVer falling in none', () => {
    const affected = { ranges: [{ type: 'SEMVER' as const, events: [{ introduced: '0' }, { fixed: '2.0.0' }] }] };
    expect(affectedSet('pip', affected, ['1.0.0', '1.0', '2.0.0'])).toEqual(['1.0.0']);
  });

  it('matches the explicit versions list by the ecosystem equality', () => {
    expect(affectedSet('pip', { versions: ['1.0'] }, ['1.0', '1.0.0', '1.0.1'])).toEqual(['1.0', '1.0.0']);
  });

  it('keeps GIT ranges but never matches them', () => {
    const affected: OsvAffectedVersions = { ranges: [{ type: 'GIT', repo: 'https://github.com/o/r', events: [{ introduced: '0' }, { fixed: 'a'.repeat(40) }] }] };
    expect(compileAffected('go', affected).skipped).toEqual([]);
    expect(affectedSet('go', affected, ['1.0.0'])).toEqual([]);
  });

  it('skips, with a reason, a range whose event version does not parse, and evaluates the others', () => {
    const affected: OsvAffectedVersions = {
      ranges: [
        { type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: 'not a version' }] },
        { type: 'ECOSYSTEM', events: [{ introduced: '2.0.0' }] },
      ],
    };
    const compiled = compileAffected('npm', affected);
    expect(compiled.skipped).toEqual([{ index: 0, reason: 'fixed: "not a version" is not a npm version' }]);
    expect(affectedSet('npm', affected, ['1.0.0', '2.0.0'])).toEqual(['2.0.0']);
  });

  it('skips, with a reason, a range with a malformed event or without an introduced event', () => {
    const compiled = compileAffected('npm', {
      ranges: [
        { type: 'ECOSYSTEM', events: [{ introduced: '0', fixed: '1.0.0' }] },
        { type: 'ECOSYSTEM', events: [{ fixed: '1.0.0' }] },
      ],
    });
    expect(compiled.skipped).toEqual([
      { index: 0, reason: 'an event must have exactly one of introduced, fixed, last_affected, limit; got {"introduced":"0","fixed":"1.0.0"}' },
      { index: 1, reason: 'the range has no introduced event' },
    ]);
  });

  it('reports a queried version that does not parse in its ecosystem instead of matching it', () => {
    expect(isVersionAffected('npm', semver([{ introduced: '0' }]), 'latest')).toEqual({ ok: false, reason: '"latest" is not a npm version' });
  });
});
