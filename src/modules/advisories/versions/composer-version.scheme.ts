import { compareDigits, sign, type VersionScheme } from './version-scheme';

// Packagist: PHP's version_compare(), which Composer's comparator calls, after dropping a leading
// "v" (Composer's version normalization does) and lower-casing (Composer reads its modifiers
// case-insensitively; PHP itself knows "RC" and "rc" only). Numbers are compared exactly, where
// PHP would saturate at its integer limit. Written here: version_compare has no maintained
// JavaScript implementation.

/** The parts of the canonical form version_compare works on ("1.0rc1" → "1.0.rc.1"). */
export type ComposerVersion = readonly string[];

// version_compare's special forms, matched as prefixes of a part; anything else ranks below them.
const SPECIAL_FORMS: ReadonlyArray<[string, number]> = [
  ['dev', 0], ['alpha', 1], ['a', 1], ['beta', 2], ['b', 2], ['rc', 3], ['#', 4], ['pl', 5], ['p', 5],
];
const NUMBER_FORM = '#';
const UNKNOWN_FORM_RANK = -1;

function isDigit(c: string | undefined): boolean {
  return c !== undefined && c >= '0' && c <= '9';
}

function isAlphanumeric(c: string): boolean {
  return /^[0-9a-z]$/.test(c);
}

// php_canonicalize_version: "-", "_", "+" and other non-alphanumerics become ".", and a "." is
// put between a digit and a letter; the first character is kept as it is.
function canonicalize(version: string): string {
  let out = version[0] ?? '';
  for (let i = 1; i < version.length; i++) {
    const previous = version[i - 1] as string;
    const c = version[i] as string;
    const isTransition = previous !== '.' && c !== '.' && isDigit(previous) !== isDigit(c);
    if ('-_+'.includes(c) || !isAlphanumeric(c)) {
      if (!out.endsWith('.')) out += '.';
    } else {
      if (isTransition && !out.endsWith('.')) out += '.';
      out += c;
    }
  }
  return out;
}

function formRank(part: string): number {
  for (const [form, rank] of SPECIAL_FORMS) if (part.startsWith(form)) return rank;
  return UNKNOWN_FORM_RANK;
}

function comparePart(a: string, b: string): number {
  if (isDigit(a[0]) && isDigit(b[0])) return compareDigits(a.match(/^\d+/)?.[0] ?? '0', b.match(/^\d+/)?.[0] ?? '0');
  return sign(formRank(isDigit(a[0]) ? NUMBER_FORM : a) - formRank(isDigit(b[0]) ? NUMBER_FORM : b));
}

// php_version_compare over the canonical parts (never empty: parse refuses leading and trailing
// separators). The common parts decide first; then a side with parts left over is newer when the
// next one is a number, else that word is weighed against "#" (a number).
function compareCanonical(left: ComposerVersion, right: ComposerVersion): number {
  const common = Math.min(left.length, right.length);
  for (let i = 0; i < common; i++) {
    const order = comparePart(left[i] as string, right[i] as string);
    if (order !== 0) return order;
  }
  if (left.length > common) return isDigit(left[common]?.[0]) ? 1 : comparePart(left[common] as string, NUMBER_FORM);
  if (right.length > common) return isDigit(right[common]?.[0]) ? -1 : comparePart(NUMBER_FORM, right[common] as string);
  return 0;
}

export const composerVersionScheme: VersionScheme<ComposerVersion> = {
  parse(text) {
    const version = text.trim().replace(/^v/i, '').toLowerCase();
    if (version === '' || /\s/.test(version)) return undefined;
    const canonical = canonicalize(version);
    // Composer refuses a version that ends with a separator ("1.0.", "1.2.3.#"); PHP would
    // even order such a string below itself.
    return canonical.startsWith('.') || canonical.endsWith('.') ? undefined : canonical.split('.');
  },
  compare: (a, b) => compareCanonical(a, b),
};
