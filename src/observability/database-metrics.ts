import type { Knex } from 'knex';
import { Gauge, Histogram, type Registry } from 'prom-client';
import type { Database } from '../database/connection';

interface QueryEvent { __knexQueryUid?: string }
interface PoolState { numUsed(): number; numFree(): number; numPendingAcquires(): number }

/** knex's connection pool (tarn), when the client has one; absent once destroyed. */
function poolOf(knex: Knex): PoolState | undefined {
  return (knex.client as { pool?: PoolState }).pool ?? undefined;
}

/**
 * Query durations from knex's own query events (started at 'query', observed at
 * 'query-response' or 'query-error') and from statements run past knex (the SQLite
 * data-version read), and the pool's state read at scrape time.
 */
export function instrumentDatabase({ knex, dialect, directStatementListeners }: Database, registry: Registry, buckets: number[]): void {
  const durations = new Histogram({
    name: 'orgsec_db_query_duration_seconds', help: 'Time a database query took, by dialect and outcome (success or error).',
    labelNames: ['dialect', 'outcome'] as const, buckets, registers: [registry],
  });
  const started = new Map<string, (labels: { outcome: 'success' | 'error' }) => void>();
  knex.on('query', (query: QueryEvent) => {
    if (!query.__knexQueryUid) return;
    started.set(query.__knexQueryUid, durations.startTimer({ dialect }));
    // A query whose end event never comes (its pool destroyed under it) is not kept forever.
    if (started.size > 10_000) started.delete(started.keys().next().value!);
  });
  const finish = (query: QueryEvent | undefined, outcome: 'success' | 'error') => {
    const uid = query?.__knexQueryUid;
    const end = uid === undefined ? undefined : started.get(uid);
    if (!end) return;
    started.delete(uid!);
    end({ outcome });
  };
  knex.on('query-response', (_response: unknown, query: QueryEvent) => finish(query, 'success'));
  knex.on('query-error', (_error: unknown, query: QueryEvent) => finish(query, 'error'));
  directStatementListeners.add(({ seconds, outcome }) => durations.observe({ dialect, outcome }, seconds));

  const poolGauge = (name: string, help: string, read: (pool: PoolState) => number) =>
    new Gauge({
      name, help, labelNames: ['dialect'] as const, registers: [registry],
      collect() {
        const pool = poolOf(knex);
        this.set({ dialect }, pool ? read(pool) : 0);
      },
    });
  poolGauge('orgsec_db_pool_connections_used', 'Database connections in use.', (pool) => pool.numUsed());
  poolGauge('orgsec_db_pool_connections_free', 'Idle database connections in the pool.', (pool) => pool.numFree());
  poolGauge('orgsec_db_pool_pending_acquires', 'Queries waiting for a database connection.', (pool) => pool.numPendingAcquires());
}
