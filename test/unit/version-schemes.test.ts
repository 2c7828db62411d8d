import { compareVersions, normalizePackageName, parseVersion, type Ecosystem } from '../../src/modules/advisories/versions';

// The ecosystems' documented rules, one example each, beyond the published vectors.

const ORDERED: ReadonlyArray<[Ecosystem, string, string, string]> = [
  ['go', 'a pseudo-version as a pre-release of its base', '0.0.0-20210101000000-abcdef123456', '0.0.1'],
  ['go', 'pseudo-versions by their timestamp', '1.2.4-0.20210101000000-abcdef123456', '1.2.4-0.20220101000000-abcdef123456'],
  ['pip', 'a dev release before its pre-release', '1.0a1.dev1', '1.0a1'],
  ['pip', 'a pre-release before the release', '1.0rc1', '1.0'],
  ['pip', 'a release before its post-release', '1.0', '1.0.post1'],
  ['pip', 'a release before its local variant', '1.0', '1.0+ubuntu1'],
  ['pip', 'any epoch 0 version before epoch 1', '2024.1', '1!0.1'],
  ['maven', 'a snapshot before its release', '1.0-SNAPSHOT', '1.0'],
  ['maven', 'a release before its service pack', '1.0', '1.0-sp1'],
  ['nuget', 'a four-part version after its three-part prefix', '1.0.0', '1.0.0.1'],
  ['nuget', 'pre-release labels numerically', '1.0.0-beta.2', '1.0.0-beta.10'],
  ['rubygems', 'a letter segment as a pre-release', '1.0.0.pre', '1.0.0'],
  ['rubygems', 'numeric segments numerically', '1.9', '1.10'],
  ['composer', 'dev before alpha', '1.0-dev', '1.0alpha1'],
  ['composer', 'RC before the release', '2.0.0-RC1', 'v2.0.0'],
  ['composer', 'Composer-normalized modifiers case-insensitively', '1.0.0-ALPHA1', '1.0.0-beta1'],
  ['pub', 'a release before the same release with build metadata', '1.0.0', '1.0.0+1'],
  ['npm', 'pre-releases before the release', '1.0.0-rc.1', '1.0.0'],
  ['rust', 'numeric parts numerically', '0.9.0', '0.10.0'],
];

const EQUAL: ReadonlyArray<[Ecosystem, string, string, string]> = [
  ['go', 'the leading "v" dropped', 'v1.2.3', '1.2.3'],
  ['go', '+incompatible as build metadata', '2.0.0+incompatible', '2.0.0'],
  ['npm', 'build metadata ignored', '1.2.3+build.5', '1.2.3'],
  ['pip', 'missing release parts as zeros', '1.0', '1.0.0'],
  ['pip', 'spellings of one pre-release', '1.0alpha1', '1.0a1'],
  ['nuget', 'leading zeros and missing parts', '1.01', '1.1.0.0'],
  ['nuget', 'pre-release labels case-insensitively', '1.0.0-RC.1', '1.0.0-rc.1'],
  ['maven', 'the release aliases', '1.0-final', '1.0'],
  ['rubygems', 'trailing zeros', '1.0.0', '1'],
  ['composer', 'a leading "v" dropped', 'v1.2.3', '1.2.3'],
];

const NOT_VERSIONS: ReadonlyArray<[Ecosystem, string]> = [
  ['npm', '1.2'],
  ['npm', 'latest'],
  ['rust', '1.0.0.0'],
  ['go', 'master'],
  ['pub', ''],
  ['pip', '1.0-bogus-legacy'],
  ['nuget', 'v1.0.0'],
  ['nuget', '1.0.0.0.0'],
  ['rubygems', '1.0 beta'],
  ['maven', ''],
  ['composer', '1.0.'],
];

describe('version order per ecosystem', () => {
  it.each(ORDERED)('%s orders %s: %s < %s', (ecosystem, _rule, lower, higher) => {
    expect(compareVersions(ecosystem, lower, higher)).toEqual({ ok: true, order: -1 });
    expect(compareVersions(ecosystem, higher, lower)).toEqual({ ok: true, order: 1 });
  });

  it.each(EQUAL)('%s treats as equal %s: %s = %s', (ecosystem, _rule, a, b) => {
    expect(compareVersions(ecosystem, a, b)).toEqual({ ok: true, order: 0 });
  });

  it.each(NOT_VERSIONS)('%s reports %j as not a version instead of throwing', (ecosystem, text) => {
    expect(parseVersion(ecosystem, text)).toBeUndefined();
    expect(compareVersions(ecosystem, text, '1.0.0')).toEqual({ ok: false, invalid: text, reason: `${JSON.stringify(text)} is not a ${ecosystem} version` });
  });
});

describe('documented orderings', () => {
  // NuGet's "Package versioning" page lists pre-release versions newest first, labels compared
  // as strings when not numeric (so alpha10 before alpha2).
  it('orders NuGet pre-releases as NuGet documents them', () => {
    const newestFirst = ['1.0.1', '1.0.1-zzz', '1.0.1-rc', '1.0.1-open', '1.0.1-beta', '1.0.1-alpha2', '1.0.1-alpha10', '1.0.1-aaa'];
    const pairs = newestFirst.slice(1).map((older, index) => compareVersions('nuget', newestFirst[index] as string, older));
    expect(pairs).toEqual(newestFirst.slice(1).map(() => ({ ok: true, order: 1 })));
  });
});

describe('normalizePackageName', () => {
  it('normalizes pip names by PEP 503: lower case, runs of "-", "_" and "." as one "-"', () => {
    expect(normalizePackageName('pip', 'Matrix_Synapse')).toBe('matrix-synapse');
    expect(normalizePackageName('pip', 'zope.interface')).toBe('zope-interface');
    expect(normalizePackageName('pip', 'a-_.-b')).toBe('a-b');
  });

  it('ignores case for NuGet and Packagist names', () => {
    expect(normalizePackageName('nuget', 'SharpZipLib')).toBe('sharpziplib');
    expect(normalizePackageName('composer', 'GuzzleHttp/Guzzle')).toBe('guzzlehttp/guzzle');
  });

  it('keeps names of the case-sensitive ecosystems as they are', () => {
    expect(normalizePackageName('npm', 'JSONStream')).toBe('JSONStream');
    expect(normalizePackageName('maven', 'org.jenkins-ci.plugins:embeddable-build-status')).toBe('org.jenkins-ci.plugins:embeddable-build-status');
    expect(normalizePackageName('go', 'github.com/BurntSushi/toml')).toBe('github.com/BurntSushi/toml');
    expect(normalizePackageName('rubygems', 'octopoller')).toBe('octopoller');
  });
});
