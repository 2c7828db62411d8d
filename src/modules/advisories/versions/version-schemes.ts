import { composerVersionScheme } from './composer-version.scheme';
import { gemVersionScheme } from './gem-version.scheme';
import { mavenVersionScheme } from './maven-version.scheme';
import { nugetVersionScheme } from './nuget-version.scheme';
import { pep440Scheme } from './pep440.scheme';
import { goScheme, pubScheme, semverScheme } from './semver.schemes';
import type { Ecosystem, ParsedVersion, VersionScheme } from './version-scheme';

const SCHEMES: { readonly [E in Ecosystem]: VersionScheme<any> } = {
  composer: composerVersionScheme,
  go: goScheme,
  maven: mavenVersionScheme,
  npm: semverScheme,
  nuget: nugetVersionScheme,
  pip: pep440Scheme,
  pub: pubScheme,
  rubygems: gemVersionScheme,
  rust: semverScheme,
};

class SchemeVersion<V> implements ParsedVersion {
  constructor(
    readonly text: string,
    private readonly scheme: VersionScheme<V>,
    private readonly value: V,
  ) {}

  compareTo(other: ParsedVersion): number {
    if (!(other instanceof SchemeVersion) || other.scheme !== this.scheme) throw new Error(`cannot order ${this.text} against ${other.text}: not the same version scheme`);
    return this.scheme.compare(this.value, (other as SchemeVersion<V>).value);
  }
}

export type VersionParser = (text: string) => ParsedVersion | undefined;

function parserOf<V>(scheme: VersionScheme<V>): VersionParser {
  return (text) => {
    const value = scheme.parse(text);
    return value === undefined ? undefined : new SchemeVersion(text, scheme, value);
  };
}

const PARSERS = Object.fromEntries(Object.entries(SCHEMES).map(([ecosystem, scheme]) => [ecosystem, parserOf(scheme)])) as Record<Ecosystem, VersionParser>;

/** OSV's SEMVER range type: SemVer 2.0 precedence whatever the ecosystem. */
export const parseSemver: VersionParser = parserOf(semverScheme);

/** Parses a version in its ecosystem's syntax; undefined when it is not one. */
export function parseVersion(ecosystem: Ecosystem, text: string): ParsedVersion | undefined {
  return PARSERS[ecosystem](text);
}

export function versionParserFor(ecosystem: Ecosystem): VersionParser {
  return PARSERS[ecosystem];
}

export type VersionComparison = { readonly ok: true; readonly order: -1 | 0 | 1 } | { readonly ok: false; readonly invalid: string; readonly reason: string };

/** Orders two versions of one ecosystem; a string that is not a version is reported, never thrown. */
export function compareVersions(ecosystem: Ecosystem, a: string, b: string): VersionComparison {
  const left = parseVersion(ecosystem, a);
  if (!left) return { ok: false, invalid: a, reason: notAVersion(ecosystem, a) };
  const right = parseVersion(ecosystem, b);
  if (!right) return { ok: false, invalid: b, reason: notAVersion(ecosystem, b) };
  const order = left.compareTo(right);
  return { ok: true, order: order < 0 ? -1 : order > 0 ? 1 : 0 };
}

/** `scheme`: an ecosystem, or "SemVer" for OSV's SEMVER ranges. */
export function notAVersion(scheme: string, text: string): string {
  return `${JSON.stringify(text)} is not a ${scheme} version`;
}
