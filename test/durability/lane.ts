import type { Knex } from 'knex';
import type { ApiClient } from './api-client';

// A lane is one client writing one kind of thing, one write at a time, on objects no other
// lane touches. So at a crash each lane has at most one write in flight, and what each
// object must look like afterwards follows from the lane's own record.

export interface Lane {
  name: string;
  /**
   * Sends the next write and records it once acknowledged (a whole 2xx answer). Throws when
   * the answer never arrives; the write then stays in flight until `verify` settles it.
   * Returns a problem when the server answered something other than the expected success.
   */
  write(api: ApiClient): Promise<string | undefined>;
  /**
   * After a restart: checks that every acknowledged write is there and the write in flight
   * is there whole or not at all, then adopts what is there. Returns the violations.
   */
  verify(api: ApiClient, knex: Knex): Promise<string[]>;
  /** Writes acknowledged, and writes in flight at a crash (and of those, how many were applied). */
  counts(): { acknowledged: number; inFlight: number; appliedInFlight: number };
}

export type Random = () => number;

/** mulberry32: a small seeded PRNG, so a failing run can be repeated from its seed. */
export function seededRandom(seed: number): Random {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

/** A random subset, in the given order. */
export function subset<T>(random: Random, items: readonly T[]): T[] {
  return items.filter(() => random() < 0.5);
}

/** Counts shared by every lane: writes acknowledged, and writes caught in flight. */
export class LaneCounts {
  acknowledged = 0;
  inFlight = 0;
  appliedInFlight = 0;

  settle(applied: boolean): void {
    this.inFlight += 1;
    if (applied) this.appliedInFlight += 1;
  }

  snapshot() {
    return { acknowledged: this.acknowledged, inFlight: this.inFlight, appliedInFlight: this.appliedInFlight };
  }
}
