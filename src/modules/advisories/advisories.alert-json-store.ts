import type { Knex } from 'knex';
import { withTransaction, type Executor } from '../../database/transaction';
import { chunksOf, VALUES_PER_IN_LIST } from '../../shared/chunks';
import { ADVISORY_ALERT_JSON_FORMAT, alertJsonColumnsOf } from './advisory-alert-json';
import type { AdvisoryLookupStore } from './advisories.lookup-store';

// The stored JSON of advisories (advisory-alert-json.ts): written by every write of advisories
// in its own transaction (imports, EPSS scores, world files), and at start-up for copies an
// older release or another format left stale (the migration's triggers mark them).

export class AdvisoryAlertJsonStore {
  constructor(private readonly deps: { records: Pick<AdvisoryLookupStore, 'findByIds'> }) {}

  /** Writes these advisories' JSON from their rows as `trx` sees them. */
  async write(trx: Executor, advisoryIds: readonly number[]): Promise<void> {
    for (const chunk of chunksOf([...new Set(advisoryIds)], VALUES_PER_IN_LIST)) {
      for (const [id, record] of await this.deps.records.findByIds(trx, chunk)) {
        await trx('advisories').where('id', id).update(alertJsonColumnsOf(record));
      }
    }
  }

  /** Writes every missing or stale copy, a batch per transaction; answers how many. */
  async writeStale(db: Knex, batchSize = VALUES_PER_IN_LIST): Promise<number> {
    let written = 0;
    let after = 0;
    for (;;) {
      const ids = await withTransaction(db, async (trx) => {
        const rows: Array<{ id: number }> = await trx('advisories')
          .where('id', '>', after)
          .where((stale) => stale.whereNull('alert_json_format').orWhereNot('alert_json_format', ADVISORY_ALERT_JSON_FORMAT))
          .orderBy('id').limit(batchSize).select('id');
        const batch = rows.map((r) => Number(r.id));
        await this.write(trx, batch);
        return batch;
      });
      if (ids.length === 0) return written;
      written += ids.length;
      after = ids[ids.length - 1]!;
    }
  }
}
