import type { Knex } from 'knex';
import type { Executor } from '../../database/transaction';
import { chunksOf, VALUES_PER_IN_LIST } from '../../shared/chunks';
import { replaceSets } from '../world/world.support';
import type { AdvisoryAlertJsonStore } from './advisories.alert-json-store';
import { VULNERABILITY_COLUMNS, vulnerabilityColumns, type StoredVulnerability } from './stored-vulnerabilities';

// The advisories of `orgsec load` (world.security.ts checks and maps a world file's entries):
// a chunk of them written in a handful of statements.

/** An advisory a world file declares: its advisories columns (all but svcsa_id) and its vulnerabilities. */
export interface WorldAdvisory {
  values: Record<string, unknown>;
  vulnerabilities: ReadonlyArray<StoredVulnerability & { severity: string }>;
}

export class AdvisoriesWorldStore {
  constructor(private readonly deps: { alertJson: AdvisoryAlertJsonStore }) {}

  /**
   * Advisory ids by svcsa_id, for those that exist. Keyed by the database's strings: a caller's
   * may be slices of a larger text (a world file's) that a kept key would hold in memory.
   */
  async idsBySvcsaIds(db: Executor, svcsaIds: readonly string[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (const chunk of chunksOf([...new Set(svcsaIds)], VALUES_PER_IN_LIST)) {
      for (const row of await db('advisories').whereIn('svcsa_id', chunk).select('id', 'svcsa_id')) ids.set(row.svcsa_id, Number(row.id));
    }
    return ids;
  }

  /**
   * Writes advisories by svcsa_id (one upsert, one read of their ids, their vulnerability sets
   * replaced together); answers their ids. An unchanged set is not rewritten.
   */
  async upsertChunk(trx: Knex.Transaction, declared: ReadonlyMap<string, WorldAdvisory>): Promise<Map<string, number>> {
    const rows = [...declared].map(([svcsaId, { values }]) => ({ svcsa_id: svcsaId, ...values }));
    if (rows.length === 0) return new Map();
    await trx('advisories').insert(rows).onConflict('svcsa_id').merge(Object.keys(rows[0]!).filter((column) => column !== 'svcsa_id'));
    const ids = await this.idsBySvcsaIds(trx, [...declared.keys()]);
    const sets = new Map([...declared].map(([svcsaId, { vulnerabilities }]) => {
      const id = ids.get(svcsaId)!;
      return [id, vulnerabilities.map(({ severity, ...v }) => vulnerabilityColumns(id, severity, v))];
    }));
    await replaceSets(trx, 'advisory_vulnerabilities', 'advisory_id', sets, VULNERABILITY_COLUMNS);
    await this.deps.alertJson.write(trx, [...ids.values()]);
    return ids;
  }
}
