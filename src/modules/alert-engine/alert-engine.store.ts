import type { Knex } from 'knex';
import { lockForUpdate } from '../../database/dialect';
import type { Executor } from '../../database/transaction';
import { chunksOf } from '../../shared/chunks';
import type { AlertChanges } from '../dependency-alerts/alerts.store';
import type { AlertRecord, AlertState, AutoDismissal } from '../dependency-alerts/alerts.types';

// The alert engine's reads and writes of alerts, in the evaluating transaction (it reads
// advisories through the advisories' look-ups, advisories.lookup-store.ts).

/** Keys per statement: well under every dialect's bound-parameter limit. */
const CHUNK = 500;

/** An alert as the engine compares it: the record's identity, finding and state, with the copies the lists filter on. */
export type EngineAlert = Pick<AlertRecord,
  'id' | 'repoId' | 'number' | 'advisoryId' | 'ecosystem' | 'packageName' | 'manifestPath' | 'scope' | 'relationship' | 'state' | 'autoDismissedBy' | 'vulnerabilityId'
> & {
  /** See the dependency_alerts migration. */
  copies: AlertCopies;
};

/** What an alert row copies from its repository and advisory. */
export interface AlertCopies {
  owner_id: number;
  severity: string;
  classification: string;
  epss_percentage: number | null;
  epss_sort: number;
  has_patch: boolean;
}

/** The columns of an alert an evaluation brings in line: its copies, and its dependency as now submitted. */
export type RefreshedColumns = AlertCopies & { scope: string; relationship: string; vulnerability_id: number | null };
export type AlertRefresh = Partial<RefreshedColumns>;

export type EngineAlertRow = AlertCopies & {
  repo_id: number; number: number; advisory_id: number; vulnerability_id: number; ecosystem: string; package_name: string;
  manifest_path: string; scope: string; relationship: string; state: AlertState; created_at: string; updated_at: string;
  auto_dismissed_at: string | null; auto_dismissed_by: AutoDismissal | null;
};

export class AlertEngineStore {
  /**
   * Locks the rows of these repositories until the transaction ends, in one statement per CHUNK
   * ids, in ascending id order (every evaluation locks in that order: no deadlock), so
   * evaluations of one repository (two snapshots, a snapshot and an import, two instances) run
   * one after the other and each reads what the other wrote: no duplicate alert, numbers
   * without gaps. Answers the owner of each repository found.
   */
  async lockRepositories(trx: Knex.Transaction, repoIds: readonly number[]): Promise<Map<number, { ownerId: number }>> {
    const found = new Map<number, { ownerId: number }>();
    for (const chunk of chunksOf([...new Set(repoIds)].sort((a, b) => a - b), CHUNK)) {
      const rows: Array<{ id: number; owner_id: number }> = await lockForUpdate(trx('repositories').whereIn('id', chunk).orderBy('id').select('id', 'owner_id'));
      for (const row of rows) found.set(Number(row.id), { ownerId: Number(row.owner_id) });
    }
    return found;
  }

  async alertsOf(db: Executor, repoId: number): Promise<EngineAlert[]> {
    return (await db('dependency_alerts').where('repo_id', repoId).orderBy('number').select(ENGINE_ALERT_COLUMNS)).map(engineAlertOf);
  }

  /** The repositories with alerts of these advisories. */
  async repositoriesAlertedBy(db: Executor, advisoryIds: readonly number[]): Promise<number[]> {
    const ids = new Set<number>();
    for (const chunk of chunksOf([...new Set(advisoryIds)], CHUNK)) {
      for (const row of await db('dependency_alerts').whereIn('advisory_id', chunk).distinct('repo_id')) ids.add(Number(row.repo_id));
    }
    return [...ids];
  }

  /** The alerts of these advisories, by repository then number. */
  async alertsOfAdvisories(db: Executor, advisoryIds: readonly number[]): Promise<EngineAlert[]> {
    const found: EngineAlert[] = [];
    for (const chunk of chunksOf([...new Set(advisoryIds)], CHUNK)) {
      found.push(...(await db('dependency_alerts').whereIn('advisory_id', chunk).select(ENGINE_ALERT_COLUMNS)).map(engineAlertOf));
    }
    return found.sort((a, b) => a.repoId - b.repoId || a.number - b.number);
  }

  /** The highest alert number of each repository that has alerts. */
  async maxNumbers(db: Executor, repoIds: readonly number[]): Promise<Map<number, number>> {
    const found = new Map<number, number>();
    for (const chunk of chunksOf([...new Set(repoIds)], CHUNK)) {
      const rows: Array<{ repo_id: number; max: number }> = await db('dependency_alerts').whereIn('repo_id', chunk).groupBy('repo_id').select('repo_id').max({ max: 'number' });
      for (const row of rows) found.set(Number(row.repo_id), Number(row.max));
    }
    return found;
  }

  /** Inserts new alerts; answers their ids by numberKey(repository, number). */
  async insert(trx: Knex.Transaction, rows: readonly EngineAlertRow[]): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    for (const chunk of chunksOf(rows, 100)) {
      const inserted: Array<{ id: number; repo_id: number; number: number }> = await trx('dependency_alerts').insert(chunk).returning(['id', 'repo_id', 'number']);
      for (const row of inserted) ids.set(numberKey(Number(row.repo_id), Number(row.number)), Number(row.id));
    }
    return ids;
  }

  /**
   * Writes changes to alerts and bumps their versions (ETags and cursors see every change): one
   * statement per distinct set of changes, whatever the number of alerts it applies to.
   */
  async update(db: Executor, changes: ReadonlyArray<{ alertId: number; changes: AlertChanges & AlertRefresh }>): Promise<void> {
    const groups = new Map<string, { changes: AlertChanges & AlertRefresh; ids: number[] }>();
    for (const change of changes) {
      const key = JSON.stringify(Object.entries(change.changes).sort(([a], [b]) => (a < b ? -1 : 1)));
      const group = groups.get(key) ?? { changes: change.changes, ids: [] };
      group.ids.push(change.alertId);
      groups.set(key, group);
    }
    for (const group of groups.values()) {
      for (const ids of chunksOf(group.ids, CHUNK)) await db('dependency_alerts').whereIn('id', ids).update({ ...group.changes, version: db.raw('version + 1') });
    }
  }
}

/** An alert's identity among the alerts of every repository: its repository and number. */
export function numberKey(repoId: number, number: number): string {
  return `${repoId}:${number}`;
}

const ENGINE_ALERT_COLUMNS = [
  'id', 'repo_id', 'number', 'advisory_id', 'ecosystem', 'package_name', 'manifest_path', 'scope', 'relationship', 'state', 'auto_dismissed_by',
  'vulnerability_id', 'owner_id', 'severity', 'classification', 'epss_percentage', 'epss_sort', 'has_patch',
];

function engineAlertOf(r: Record<string, any>): EngineAlert {
  return {
    id: Number(r.id), repoId: Number(r.repo_id), number: Number(r.number), advisoryId: Number(r.advisory_id), ecosystem: r.ecosystem, packageName: r.package_name,
    manifestPath: r.manifest_path, scope: r.scope, relationship: r.relationship, state: r.state, autoDismissedBy: r.auto_dismissed_by ?? null,
    vulnerabilityId: r.vulnerability_id === null ? null : Number(r.vulnerability_id),
    copies: {
      owner_id: Number(r.owner_id), severity: r.severity, classification: r.classification,
      epss_percentage: r.epss_percentage === null ? null : Number(r.epss_percentage), epss_sort: Number(r.epss_sort), has_patch: Boolean(r.has_patch),
    },
  };
}
