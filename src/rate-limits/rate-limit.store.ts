import type { Executor } from '../database/transaction';

export interface WindowHit {
  bucket: string;
  windowStart: number;
  expiresAt: number;
}

/** Counters of fixed windows, shared by every instance over the database. */
export class RateLimitStore {
  /** Counts one request in its window and answers the window's count including it. */
  async hit(db: Executor, { bucket, windowStart, expiresAt }: WindowHit): Promise<number> {
    // One atomic upsert: concurrent instances never lose a count.
    const rows: Array<{ hits: number | string }> = await db('rate_limit_counters')
      .insert({ bucket, window_start: windowStart, expires_at: expiresAt, hits: 1 })
      .onConflict(['bucket', 'window_start'])
      .merge({ hits: db.raw('rate_limit_counters.hits + 1') })
      .returning('hits');
    return Number(rows[0]!.hits);
  }

  /** Removes windows that ended before `now` (unix seconds). */
  async removeExpired(db: Executor, now: number): Promise<void> {
    await db('rate_limit_counters').where('expires_at', '<', now).delete();
  }
}
