import { compare, valid } from '@renovatebot/pep440';
import type { VersionScheme } from './version-scheme';

// PyPI: PEP 440 (epochs, pre/post/dev releases, local versions) as pip's `packaging` orders them.
// Legacy (non-PEP 440) versions are refused, as `packaging` 22+ and pip refuse them.
export const pep440Scheme: VersionScheme<string> = {
  parse: (text) => (valid(text) === null ? undefined : text),
  compare: (a, b) => compare(a, b),
};
