import { explain } from '@renovatebot/pep440';
import { sign, type VersionScheme } from './version-scheme';

// PyPI: PEP 440 as pip's `packaging` orders it. @renovatebot/pep440 parses and normalizes
// (spellings such as "1.0-1", "1.0c1", "1.0.POST" included); its parse is kept once per version
// and ordered here by PEP 440's precedence (packaging's sort key), instead of the library's
// string comparison that parses both sides again at every call. Legacy (non-PEP 440) versions
// are refused, as packaging 22+ and pip refuse them.

type LocalSegment = number | string;

export interface Pep440Version {
  readonly epoch: number;
  /** Trailing zeros removed: 1.0 = 1. */
  readonly release: readonly number[];
  /** -1: a dev release of the base (before its pre-releases); 0: a pre-release; 1: none. */
  readonly preRank: -1 | 0 | 1;
  readonly pre: readonly [string, number] | null;
  readonly post: number | null;
  readonly dev: number | null;
  readonly local: readonly LocalSegment[] | null;
}

function compareNumberLists(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return sign((a[i] as number) - (b[i] as number));
  return sign(a.length - b.length);
}

// Local segments: numbers numerically and after words; words alphabetically; a shorter local first.
function compareLocal(a: readonly LocalSegment[] | null, b: readonly LocalSegment[] | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i] as LocalSegment;
    const y = b[i] as LocalSegment;
    if (x === y) continue;
    if (typeof x !== typeof y) return typeof x === 'number' ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return sign(a.length - b.length);
}

// explain() answers post and dev as numbers (its declared type says [letter, number], parse's form).
function numberOrNull(value: unknown): number | null {
  if (value === null || value === undefined) return null;
  return Number(Array.isArray(value) ? value[value.length - 1] : value);
}

function readVersion(text: string): Pep440Version | undefined {
  const parsed = explain(text.trim());
  if (!parsed) return undefined;
  const release = [...parsed.release];
  while (release.length > 0 && release[release.length - 1] === 0) release.pop();
  const pre = parsed.pre ? ([String(parsed.pre[0]), Number(parsed.pre[1])] as const) : null;
  const post = numberOrNull(parsed.post);
  const dev = numberOrNull(parsed.dev);
  return {
    epoch: parsed.epoch,
    release,
    preRank: pre ? 0 : post === null && dev !== null ? -1 : 1,
    pre,
    post,
    dev,
    local: parsed.local === null ? null : parsed.local.split('.').map((segment) => (/^\d+$/.test(segment) ? Number(segment) : segment)),
  };
}

export const pep440Scheme: VersionScheme<Pep440Version> = {
  parse: readVersion,
  compare(a, b) {
    return (
      sign(a.epoch - b.epoch) ||
      compareNumberLists(a.release, b.release) ||
      sign(a.preRank - b.preRank) ||
      (a.pre && b.pre ? (a.pre[0] === b.pre[0] ? sign(a.pre[1] - b.pre[1]) : a.pre[0] < b.pre[0] ? -1 : 1) : 0) ||
      // no post-release sorts first, no dev release last
      sign((a.post ?? -Infinity) - (b.post ?? -Infinity)) ||
      (a.dev === b.dev ? 0 : a.dev === null ? 1 : b.dev === null ? -1 : sign(a.dev - b.dev)) ||
      compareLocal(a.local, b.local)
    );
  },
};
