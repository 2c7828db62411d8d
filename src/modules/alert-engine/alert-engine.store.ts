import type { Knex } from 'knex';
import { lockForUpdate } from '../../database/dialect';
import type { Executor } from '../../database/transaction';
import { parseJsonColumn } from '../../shared/json';
import type { AlertState, AutoDismissal } from '../dependency-alerts/alerts.types';

// The alert engine's reads and writes of alerts and advisories, in the evaluating transaction.

/** Keys per statement: well under every dialect's bound-parameter limit. */
const CHUNK = 500;

/** What an evaluation needs of an advisory. */
export interface AdvisoryTraits {
  id: number;
  svcsaId: string;
  cveId: string | null;
  severity: string;
  classification: string;
  /** reviewed | unreviewed | malware: only reviewed and malware advisories raise alerts. */
  type: string;
  withdrawn: boolean;
  epssPercentage: number | null;
  cweIds: string[];
}

/** A vulnerability row's identity and patch, for has_patch and the alert's matching entry. */
export interface VulnerabilityTraits {
  id: number;
  advisoryId: number;
  ecosystem: string;
  packageName: string;
  hasPatch: boolean;
}

/** An alert as the engine compares it. */
export interface EngineAlert {
  id: number;
  number: number;
  advisoryId: number;
  ecosystem: string;
  packageName: string;
  manifestPath: string;
  scope: string;
  relationship: string;
  state: AlertState;
  autoDismissedBy: AutoDismissal | null;
  vulnerabilityId: number | null;
  /** The copies the lists filter on (see the dependency_alerts migration). */
  copies: AlertCopies;
}

/** What an alert row copies from its repository and advisory. */
export interface AlertCopies {
  owner_id: number;
  severity: string;
  classification: string;
  epss_percentage: number | null;
  epss_sort: number;
  has_patch: boolean;
}

export type EngineAlertRow = AlertCopies & {
  repo_id: number; number: number; advisory_id: number; vulnerability_id: number; ecosystem: string; package_name: string;
  manifest_path: string; scope: string; relationship: string; state: AlertState; created_at: string; updated_at: string;
  auto_dismissed_at: string | null; auto_dismissed_by: AutoDismissal | null;
};

export class AlertEngineStore {
  /**
   * Locks the repository row until the transaction ends, so evaluations of one repository
   * (two snapshots, a snapshot and an import, two instances) run one after the other and each
   * reads what the other wrote: no duplicate alert, numbers without gaps. Answers its owner.
   */
  async lockRepository(trx: Knex.Transaction, repoId: number): Promise<{ ownerId: number } | undefined> {
    const row = await lockForUpdate(trx('repositories').where('id', repoId).first('id', 'owner_id'));
    return row === undefined ? undefined : { ownerId: Number(row.owner_id) };
  }

  async alertsOf(db: Executor, repoId: number): Promise<EngineAlert[]> {
    const rows: Array<Record<string, any>> = await db('dependency_alerts').where('repo_id', repoId).orderBy('number')
      .select('id', 'number', 'advisory_id', 'ecosystem', 'package_name', 'manifest_path', 'scope', 'relationship', 'state', 'auto_dismissed_by',
        'vulnerability_id', 'owner_id', 'severity', 'classification', 'epss_percentage', 'epss_sort', 'has_patch');
    return rows.map((r) => ({
      id: Number(r.id), number: Number(r.number), advisoryId: Number(r.advisory_id), ecosystem: r.ecosystem, packageName: r.package_name,
      manifestPath: r.manifest_path, scope: r.scope, relationship: r.relationship, state: r.state, autoDismissedBy: r.auto_dismissed_by ?? null,
      vulnerabilityId: r.vulnerability_id === null ? null : Number(r.vulnerability_id),
      copies: {
        owner_id: Number(r.owner_id), severity: r.severity, classification: r.classification,
        epss_percentage: r.epss_percentage === null ? null : Number(r.epss_percentage), epss_sort: Number(r.epss_sort), has_patch: Boolean(r.has_patch),
      },
    }));
  }

  async advisoriesByIds(db: Executor, ids: readonly number[]): Promise<Map<number, AdvisoryTraits>> {
    const found = new Map<number, AdvisoryTraits>();
    const unique = [...new Set(ids)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await db('advisories').whereIn('id', unique.slice(i, i + CHUNK))
        .select('id', 'svcsa_id', 'cve_id', 'severity', 'classification', 'type', 'withdrawn_at', 'epss_percentage', 'cwes');
      for (const r of rows) {
        found.set(Number(r.id), {
          id: Number(r.id), svcsaId: r.svcsa_id, cveId: r.cve_id ?? null, severity: r.severity, classification: r.classification, type: r.type,
          withdrawn: r.withdrawn_at !== null && r.withdrawn_at !== undefined, epssPercentage: r.epss_percentage === null ? null : Number(r.epss_percentage),
          cweIds: parseJsonColumn<Array<{ cwe_id: string }>>(r.cwes, []).map((c) => c.cwe_id),
        });
      }
    }
    return found;
  }

  /** Every vulnerability row of these advisories, in id order. */
  async vulnerabilitiesOf(db: Executor, advisoryIds: readonly number[]): Promise<VulnerabilityTraits[]> {
    const found: VulnerabilityTraits[] = [];
    const unique = [...new Set(advisoryIds)];
    for (let i = 0; i < unique.length; i += CHUNK) {
      const rows = await db('advisory_vulnerabilities').whereIn('advisory_id', unique.slice(i, i + CHUNK)).orderBy('id')
        .select('id', 'advisory_id', 'ecosystem', 'package_name', 'first_patched_version');
      for (const r of rows) {
        found.push({ id: Number(r.id), advisoryId: Number(r.advisory_id), ecosystem: r.ecosystem, packageName: r.package_name, hasPatch: r.first_patched_version !== null });
      }
    }
    return found.sort((a, b) => a.id - b.id);
  }

  async maxNumber(db: Executor, repoId: number): Promise<number> {
    const row = await db('dependency_alerts').where('repo_id', repoId).max({ max: 'number' }).first();
    return Number(row?.max ?? 0);
  }

  /** Inserts new alerts; answers their ids by number. */
  async insert(trx: Knex.Transaction, rows: readonly EngineAlertRow[]): Promise<Map<number, number>> {
    const ids = new Map<number, number>();
    for (let i = 0; i < rows.length; i += 100) {
      const inserted: Array<{ id: number; number: number }> = await trx('dependency_alerts').insert(rows.slice(i, i + 100)).returning(['id', 'number']);
      for (const row of inserted) ids.set(Number(row.number), Number(row.id));
    }
    return ids;
  }

  /** Writes changes to one alert and bumps its version (ETags and cursors see every change). */
  async update(db: Executor, alertId: number, changes: Record<string, unknown>): Promise<void> {
    await db('dependency_alerts').where('id', alertId).update({ ...changes, version: db.raw('version + 1') });
  }
}
