import { eq, gt, valid } from '@renovatebot/ruby-semver';
import type { VersionScheme } from './version-scheme';

// RubyGems: Gem::Version (segments split on dots and letter/digit boundaries, a letter segment
// marks a pre-release, trailing zeros ignored). "1beta" is not a Gem::Version and is refused.
export const gemVersionScheme: VersionScheme<string> = {
  parse: (text) => (valid(text) === null ? undefined : text),
  compare: (a, b) => (eq(a, b) ? 0 : gt(a, b) ? 1 : -1),
};
