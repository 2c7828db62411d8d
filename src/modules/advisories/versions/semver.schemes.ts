import { SemVer, compareBuild, parse } from 'semver';
import type { VersionScheme } from './version-scheme';

// npm and crates.io: SemVer 2.0 precedence (§11), build metadata ignored. The `semver` package is
// npm's own implementation; like npm it tolerates a leading "v" and refuses numbers past 2^53.
export const semverScheme: VersionScheme<SemVer> = {
  parse: (text) => parse(text) ?? undefined,
  compare: (a, b) => a.compare(b),
};

// Go modules are SemVer with a mandatory "v" that OSV drops; pseudo-versions
// (v0.0.0-20210101000000-abcdef123456) are pre-releases and "+incompatible" is build metadata,
// so SemVer precedence orders both as the go command does.
export const goScheme: VersionScheme<SemVer> = semverScheme;

// pub_semver orders build metadata too (1.0.0 < 1.0.0+1 < 1.0.0+a), identifier by identifier
// like pre-release parts: `compareBuild` is exactly that rule.
export const pubScheme: VersionScheme<SemVer> = {
  parse: semverScheme.parse,
  compare: (a, b) => compareBuild(a, b),
};
