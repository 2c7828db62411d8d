import { compareDigits, sign, type VersionScheme } from './version-scheme';

// Maven: the "Version Order Specification" of the POM reference, which describes
// ComparableVersion. Written here because no maintained JavaScript implementation exists.
// Checked against osv-scalibr's vectors and against Maven 3.8.7's own ComparableVersion
// (test/fixtures/version-vectors/maven-comparableversion-3.8.7.txt, and its README for the
// few pairs where the reference and that Maven part).

interface MavenToken {
  /** "." or "-"; the first token counts as ".", a digit/letter transition as "-". */
  readonly prefix: '.' | '-';
  /** Lower-cased, aliases resolved ("cr" → "rc"; "ga", "final", "release" → ""). */
  readonly value: string;
  /** Set for numeric tokens, leading zeros dropped. */
  readonly digits?: string;
  /** Padding added to the shorter version when comparing. */
  readonly isNull?: boolean;
}

export type MavenVersion = readonly MavenToken[];

const QUALIFIER_ORDER = ['alpha', 'beta', 'milestone', 'rc', 'snapshot', '', 'sp'];
const SHORT_QUALIFIERS: Readonly<Record<string, string>> = { a: 'alpha', b: 'beta', m: 'milestone' };
const RELEASE_ALIASES = new Set(['ga', 'final', 'release']);

function makeToken(prefix: '.' | '-', raw: string, isFollowedByDigits: boolean): MavenToken {
  const text = raw === '' ? '0' : raw;
  if (/^\d+$/.test(text)) return { prefix, value: BigInt(text).toString(), digits: BigInt(text).toString() };
  let value = text === 'cr' ? 'rc' : RELEASE_ALIASES.has(text) ? '' : text;
  // "a1", "b2", "m3": the one-letter forms count only when a number follows directly.
  if (isFollowedByDigits) value = SHORT_QUALIFIERS[value] ?? value;
  return { prefix, value };
}

function tokenize(version: string): MavenToken[] {
  const tokens: MavenToken[] = [];
  const pieces = version.toLowerCase().split(/([.-])/);
  for (let i = 0; i < pieces.length; i += 2) {
    const piece = pieces[i] ?? '';
    const separator = i === 0 ? '.' : (pieces[i - 1] as '.' | '-');
    // A transition between digits and letters acts as a hyphen.
    const parts = piece === '' ? [''] : (piece.match(/\d+|\D+/g) ?? ['']);
    parts.forEach((part, j) => {
      tokens.push(makeToken(j === 0 ? separator : '-', part, j < parts.length - 1));
    });
  }
  return tokens;
}

function isTrimmable(token: MavenToken): boolean {
  return token.value === '0' || token.value === '';
}

// Trailing nulls (0, "", "final", "ga") go, then again before each remaining hyphen, end to start.
function trimNulls(tokens: MavenToken[]): MavenToken[] {
  let i = tokens.length - 1;
  while (i > 0) {
    const token = tokens[i] as MavenToken;
    if (isTrimmable(token)) {
      tokens.splice(i, 1);
      i--;
      continue;
    }
    while (i >= 0 && (tokens[i] as MavenToken).prefix !== '-') i--;
    i--;
  }
  return tokens;
}

function nullLike(other: MavenToken): MavenToken {
  return other.prefix === '.' ? { prefix: '.', value: '0', digits: '0', isNull: true } : { prefix: '-', value: '', isNull: true };
}

function qualifierRank(token: MavenToken): number {
  if (token.isNull) return QUALIFIER_ORDER.indexOf('');
  const rank = QUALIFIER_ORDER.indexOf(token.value);
  return rank === -1 ? QUALIFIER_ORDER.length : rank;
}

function compareQualifiers(a: MavenToken, b: MavenToken): number {
  const rankA = qualifierRank(a);
  const rankB = qualifierRank(b);
  if (rankA === QUALIFIER_ORDER.length && rankB === QUALIFIER_ORDER.length) return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  return sign(rankA - rankB);
}

function compareSamePrefix(a: MavenToken, b: MavenToken): number {
  if (a.digits !== undefined && b.digits !== undefined) return compareDigits(a.digits, b.digits);
  // Numbers sort after qualifiers, except the null padding, which against a qualifier stands
  // for the release qualifier "" (so 1 < 1.sp but 1 > 1.rc).
  if (a.digits !== undefined && !a.isNull) return 1;
  if (b.digits !== undefined && !b.isNull) return -1;
  return compareQualifiers(a, b);
}

// ".qualifier" = "-qualifier" < "-number" < ".number" (the POM reference: "1.foo" = "1-foo" < "1-1" < "1.1")
function prefixRank(token: MavenToken): number {
  if (token.digits === undefined) return 0;
  return token.prefix === '-' ? 1 : 2;
}

function compareTokens(a: MavenToken, b: MavenToken): number {
  if (a.prefix === b.prefix) return compareSamePrefix(a, b);
  if (a.digits === undefined && b.digits === undefined) return compareQualifiers(a, b);
  return sign(prefixRank(a) - prefixRank(b));
}

export const mavenVersionScheme: VersionScheme<MavenVersion> = {
  parse: (text) => (text === '' || /\s/.test(text) ? undefined : trimNulls(tokenize(text))),
  compare(a, b) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const left = a[i] ?? nullLike(b[i] as MavenToken);
      const right = b[i] ?? nullLike(a[i] as MavenToken);
      const order = left.prefix === right.prefix && left.value === right.value ? 0 : compareTokens(left, right);
      if (order !== 0) return order;
    }
    return 0;
  },
};
