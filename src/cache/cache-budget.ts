/**
 * The memory caches of an instance, each bounded in bytes by its share of one setting
 * (CACHE_MB; the response cache has RESPONSE_CACHE_MB of its own): so what an instance holds
 * is set by its settings, not by the size of its world. Each cache registers what it holds,
 * which /metrics reports (orgsec_cache_bytes, orgsec_cache_limit_bytes).
 */
export interface CacheBudget {
  /** The most the cache holds, in bytes (approximate-bytes.ts for values that are not bytes already). */
  maxBytes: number;
  /** Called once by the cache with a reading of what it holds now. */
  report?(bytes: () => number): void;
}

/** A cache's share of CACHE_MB, in hundredths. The list is the documentation (README, Memory). */
export const CACHE_SHARES = {
  'alert json': 30,
  'advisory json': 17,
  'json fragments': 3,
  'alert assignees': 2,
  // A GraphQL page of 100 alerts looks its advisories up more than once: at 3% they did not
  // all stay, and the page took two statements more than one of 30 (bench, 2026-12-04).
  advisories: 6,
  repositories: 4,
  users: 2,
  'advisory ranges': 4,
  'engine advisory traits': 4,
  'engine vulnerability rows': 8,
  'engine package rows': 10,
  'engine ranges': 6,
  tokens: 1,
  'authorization decisions': 2,
  'oidc claim sources': 1,
} as const satisfies Record<string, number>;

export type CacheName = keyof typeof CACHE_SHARES;

export interface CacheReading {
  name: string;
  maxBytes: number;
  bytes: number;
}

/** The budgets of one instance's caches, and what each holds. */
export class CacheBudgets {
  private readonly readings = new Map<string, { maxBytes: number; bytes: () => number }>();

  constructor(private readonly totalBytes: number) {}

  /** The budget of one cache: its share of the total. */
  of(name: CacheName): CacheBudget {
    const maxBytes = Math.floor((this.totalBytes * CACHE_SHARES[name]) / 100);
    return { maxBytes, report: (bytes) => this.track(name, maxBytes, bytes) };
  }

  /** A cache with a budget of its own (the response cache). */
  track(name: string, maxBytes: number, bytes: () => number): void {
    this.readings.set(name, { maxBytes, bytes });
  }

  read(): CacheReading[] {
    return [...this.readings].map(([name, r]) => ({ name, maxBytes: r.maxBytes, bytes: r.bytes() }));
  }
}
