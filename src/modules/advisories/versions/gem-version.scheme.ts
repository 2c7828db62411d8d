import { compareDigits, type VersionScheme } from './version-scheme';

// RubyGems: Gem::Version. A version is digits, then dot-separated alphanumeric parts, optionally
// a "-" suffix (read as ".pre."); it splits into numeric and letter segments ("1.0.a10" → 1, 0,
// "a", 10); a letter segment makes a pre-release, sorting before any number; trailing zeros of the
// numeric part and of the rest are ignored. Written here rather than taken from
// @renovatebot/ruby-semver: that library re-derives the segments on every comparison (about
// 80 µs each, a hundred times the other schemes: too slow to match thousands of dependencies)
// and reads segments as JavaScript numbers (equal past 2^53, where Ruby has bignums). The
// library stays as a test-only oracle (test/unit/gem-version-oracle.test.ts).

/** Canonical segments: digit strings for numbers, lower-level strings for letters. */
export type GemVersion = ReadonlyArray<{ readonly digits: string } | string>;

const GEM_VERSION = /^[0-9]+(?:\.[0-9a-zA-Z]+)*(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

function withoutTrailingZeros(segments: GemVersion): GemVersion {
  let end = segments.length;
  while (end > 0) {
    const last = segments[end - 1];
    if (typeof last === 'string' || /[^0]/.test(last!.digits)) break;
    end--;
  }
  return segments.slice(0, end);
}

function canonicalSegments(version: string): GemVersion {
  const segments: GemVersion = (version.replace(/-/g, '.pre.').match(/[0-9]+|[a-z]+/gi) ?? []).map((part) => (/^[0-9]/.test(part) ? { digits: part } : part));
  const firstLetters = segments.findIndex((segment) => typeof segment === 'string');
  if (firstLetters === -1) return withoutTrailingZeros(segments);
  return [...withoutTrailingZeros(segments.slice(0, firstLetters)), ...withoutTrailingZeros(segments.slice(firstLetters))];
}

export const gemVersionScheme: VersionScheme<GemVersion> = {
  parse(text) {
    const version = text.trim();
    return GEM_VERSION.test(version) ? canonicalSegments(version) : undefined;
  },
  compare(a, b) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const left = a[i] ?? { digits: '0' };
      const right = b[i] ?? { digits: '0' };
      if (typeof left === 'string' && typeof right === 'string') {
        if (left !== right) return left < right ? -1 : 1;
      } else if (typeof left === 'string' || typeof right === 'string') {
        return typeof left === 'string' ? -1 : 1;
      } else {
        const order = compareDigits(left.digits, right.digits);
        if (order !== 0) return order;
      }
    }
    return 0;
  },
};
