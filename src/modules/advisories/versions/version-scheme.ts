import type { Ecosystem } from '../ecosystems';

/** The spec's ecosystem names (npm, pip, maven, …), not OSV's (PyPI, Maven, …). */
export type { Ecosystem };

/**
 * One ecosystem's version order. `parse` answers undefined for a string that is not a version
 * of the ecosystem (reported by the callers, never thrown); `compare` orders two parsed versions
 * (negative, zero, positive).
 */
export interface VersionScheme<V> {
  parse(text: string): V | undefined;
  compare(a: V, b: V): number;
}

/** A parsed version that keeps its scheme, so that callers need not carry the type parameter. */
export interface ParsedVersion {
  readonly text: string;
  compareTo(other: ParsedVersion): number;
}

export function sign(n: number): -1 | 0 | 1 {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

/** Orders decimal digit strings of any length (versions carry numbers past 2^53). */
export function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  if (x.length !== y.length) return x.length < y.length ? -1 : 1;
  return x < y ? -1 : x > y ? 1 : 0;
}
