import type { Knex } from 'knex';
import type { Executor } from '../../database/transaction';
import { nowTimestamp } from '../../shared/time';
import type { AdvisoryReevaluation } from '../alert-engine/alert-reevaluation';
import type { AdvisoryEventAction, AdvisoryEvents } from './advisory-events';
import type { AdvisoryAlertJsonStore } from './advisories.alert-json-store';
import type { EpssScore, ImportedAdvisory } from './osv';
import { vulnerabilityColumns, type StoredVulnerability } from './stored-vulnerabilities';
import { chunksOf } from '../../shared/chunks';

// Writes imported advisories (interfaces.md "Advisory database"). The caller owns the
// transaction: one per file. The data_versions triggers move the counters the caches read
// (`reference` covers advisories and their vulnerabilities), so nothing here bumps them by hand.
// Every write re-evaluates, in its transaction, the alerts and findings of the advisories it
// wrote (the alert engine finds the repositories concerned).

export type UpsertOutcome = 'imported' | 'updated' | 'unchanged';

/** What keeps the alerts' copies of advisory facts in step with a write (the alerts store). */
export interface AlertCopies {
  refreshAdvisoryFacts(db: Executor, advisoryIds: readonly number[]): Promise<void>;
  /** Percentages by advisory id: only advisories with alerts are written. */
  refreshEpss(db: Executor, percentages: ReadonlyMap<number, number | null>): Promise<void>;
}

/** The stored form of a time: seconds, UTC (the advisories table's timestamps). */
function seconds(timestamp: string): string {
  return `${new Date(timestamp).toISOString().slice(0, 19)}Z`;
}

/** The stored form of `modified`: milliseconds at fixed width, so comparing texts compares times. */
export function modifiedKey(timestamp: string): string {
  return new Date(timestamp).toISOString();
}

function advisoryColumns(a: ImportedAdvisory) {
  return {
    cve_id: a.cveId,
    type: a.type,
    classification: a.classification,
    summary: a.summary,
    description: a.description,
    severity: a.severity,
    cvss_vector_string: a.cvss.vector_string,
    cvss_score: a.cvss.vector_string === null ? null : a.cvss.score,
    cvss_severities: JSON.stringify(a.cvssSeverities),
    cwes: JSON.stringify(a.cwes),
    identifiers: JSON.stringify(a.identifiers),
    references: JSON.stringify(a.references),
    published_at: seconds(a.publishedAt),
    updated_at: seconds(a.updatedAt),
    withdrawn_at: a.withdrawnAt === null ? null : seconds(a.withdrawnAt),
    reviewed_at: a.reviewedAt === null ? null : seconds(a.reviewedAt),
    nvd_published_at: a.nvdPublishedAt === null ? null : seconds(a.nvdPublishedAt),
    source_code_location: a.sourceCodeLocation,
    credits: JSON.stringify(a.credits),
    modified: modifiedKey(a.updatedAt),
  };
}

// The widths of the columns these values go to: PostgreSQL refuses longer text, SQLite would keep it.
const LIMITS: ReadonlyArray<readonly [string, number, (a: ImportedAdvisory, rows: readonly StoredVulnerability[]) => Array<string | null>]> = [
  ['id', 64, (a) => [a.svcsaId]],
  ['CVE alias', 64, (a) => [a.cveId]],
  ['CVSS v3 vector', 255, (a) => [a.cvss.vector_string]],
  ['package name', 255, (_a, rows) => rows.flatMap((v) => [v.packageName, v.packageKey])],
  ['version range', 255, (_a, rows) => rows.map((v) => v.vulnerableVersionRange)],
  ['patched version', 255, (_a, rows) => rows.map((v) => v.firstPatchedVersion)],
];

/** Why an advisory cannot be stored as it is (a value wider than its column), or null. */
export function unstorableReason(advisory: ImportedAdvisory, rows: readonly StoredVulnerability[]): string | null {
  for (const [what, limit, valuesOf] of LIMITS) {
    const long = valuesOf(advisory, rows).find((value) => value !== null && value.length > limit);
    if (long !== undefined && long !== null) return `its ${what} is longer than ${limit} characters (${long.slice(0, 40)}…)`;
  }
  return null;
}

// Rows per statement, far below either dialect's parameter limit (SQLite 32,766, PostgreSQL 65,535).
const ADVISORY_CHUNK = 50; // 22 columns
const VULNERABILITY_CHUNK = 200; // 10 columns

/** An advisory ready to be written, with its stored vulnerabilities. */
export interface AdvisoryWrite {
  advisory: ImportedAdvisory;
  vulnerabilities: readonly StoredVulnerability[];
}

export class AdvisoryImportStore {
  constructor(private readonly deps: { alerts: AlertCopies; reevaluation: AdvisoryReevaluation; events: AdvisoryEvents; alertJson: AdvisoryAlertJsonStore }) {}

  /** The stored `modified` of each id present: null for advisories of world files. */
  async modifiedByIds(db: Executor, svcsaIds: readonly string[]): Promise<Map<string, string | null>> {
    if (svcsaIds.length === 0) return new Map();
    const rows: Array<{ svcsa_id: string; modified: string | null }> = await db('advisories').whereIn('svcsa_id', [...new Set(svcsaIds)]).select('svcsa_id', 'modified');
    return new Map(rows.map((row) => [row.svcsa_id, row.modified ?? null]));
  }

  /**
   * upsert for many advisories of distinct ids in one transaction: the new ones inserted a chunk
   * per statement (the statements, not the rows, are what an import of the public database
   * spends its time on), the others through upsert. Outcomes in the order given.
   */
  async upsertMany(trx: Knex.Transaction, writes: readonly AdvisoryWrite[]): Promise<UpsertOutcome[]> {
    const stored = await this.modifiedByIds(trx, writes.map((w) => w.advisory.svcsaId));
    const withdrawnBefore = await this.withdrawnIds(trx, writes.map((w) => w.advisory.svcsaId));
    const ids = new Map<string, number>();
    for (const chunk of chunksOf(writes.filter((w) => !stored.has(w.advisory.svcsaId)), ADVISORY_CHUNK)) {
      const rows = chunk.map(({ advisory }) => ({ svcsa_id: advisory.svcsaId, ...advisoryColumns(advisory) }));
      const inserted: Array<{ id: number; svcsa_id: string }> = await trx('advisories').insert(rows).onConflict('svcsa_id').ignore().returning(['id', 'svcsa_id']);
      for (const row of inserted) ids.set(row.svcsa_id, Number(row.id));
    }
    const vulnerabilities = writes.flatMap(({ advisory, vulnerabilities: list }) => {
      const id = ids.get(advisory.svcsaId);
      return id === undefined ? [] : list.map((v) => vulnerabilityColumns(id, advisory.severity, v));
    });
    for (const chunk of chunksOf(vulnerabilities, VULNERABILITY_CHUNK)) await trx('advisory_vulnerabilities').insert(chunk);
    const outcomes: UpsertOutcome[] = [];
    for (const { advisory, vulnerabilities: list } of writes) {
      // Stored before, or inserted by another import meanwhile: the one-advisory path decides.
      outcomes.push(ids.has(advisory.svcsaId) ? 'imported' : await this.write(trx, advisory, list));
    }
    await this.reevaluate(trx, writes.flatMap((w, i) => (outcomes[i] === 'unchanged' ? [] : [{ ...w, outcome: outcomes[i]! }])), withdrawnBefore);
    return outcomes;
  }

  /** upsert for one advisory, its alerts re-evaluated. */
  async upsert(trx: Knex.Transaction, advisory: ImportedAdvisory, vulnerabilities: readonly StoredVulnerability[]): Promise<UpsertOutcome> {
    const withdrawnBefore = await this.withdrawnIds(trx, [advisory.svcsaId]);
    const outcome = await this.write(trx, advisory, vulnerabilities);
    if (outcome !== 'unchanged') await this.reevaluate(trx, [{ advisory, vulnerabilities, outcome }], withdrawnBefore);
    return outcome;
  }

  /** The ids among these that are stored withdrawn. */
  private async withdrawnIds(db: Executor, svcsaIds: readonly string[]): Promise<Set<string>> {
    if (svcsaIds.length === 0) return new Set();
    const rows: Array<{ svcsa_id: string }> = await db('advisories').whereIn('svcsa_id', [...new Set(svcsaIds)]).whereNotNull('withdrawn_at').select('svcsa_id');
    return new Set(rows.map((r) => r.svcsa_id));
  }

  /**
   * The alerts written advisories may change, and their findings, evaluated again; then their
   * security_advisory events: published (new), withdrawn (newly withdrawn), updated (the rest).
   */
  private async reevaluate(trx: Knex.Transaction, written: ReadonlyArray<AdvisoryWrite & { outcome: UpsertOutcome }>, withdrawnBefore: ReadonlySet<string>): Promise<void> {
    if (written.length === 0) return;
    const advisoryIds: Array<{ id: number; svcsa_id: string }> = await trx('advisories').whereIn('svcsa_id', written.map((w) => w.advisory.svcsaId)).select('id', 'svcsa_id');
    // Their JSON first: the re-evaluation's events embed it.
    await this.deps.alertJson.write(trx, advisoryIds.map((a) => Number(a.id)));
    await this.deps.reevaluation.advisories(trx, advisoryIds.map((a) => Number(a.id)), nowTimestamp());
    const idOf = new Map(advisoryIds.map((a) => [a.svcsa_id, Number(a.id)]));
    const actions = new Map<number, AdvisoryEventAction>();
    for (const { advisory, outcome } of written) {
      const id = idOf.get(advisory.svcsaId);
      if (id === undefined) continue;
      const isNewlyWithdrawn = advisory.withdrawnAt !== null && !withdrawnBefore.has(advisory.svcsaId);
      actions.set(id, isNewlyWithdrawn ? 'withdrawn' : outcome === 'imported' ? 'published' : 'updated');
    }
    await this.deps.events.record(trx, actions);
  }

  /**
   * Inserts a new id, replaces an advisory whose stored `modified` is older (its vulnerabilities
   * with it), and leaves the rest. Safe against another import of the same id: the insert
   * ignores a row that appeared meanwhile and the update only applies to an older revision.
   */
  private async write(trx: Executor, advisory: ImportedAdvisory, vulnerabilities: readonly StoredVulnerability[]): Promise<UpsertOutcome> {
    const values = advisoryColumns(advisory);
    const existing = await trx('advisories').where('svcsa_id', advisory.svcsaId).first('id');
    let id: number;
    if (existing === undefined) {
      const inserted = await trx('advisories').insert({ svcsa_id: advisory.svcsaId, ...values }).onConflict('svcsa_id').ignore().returning('id');
      const row = inserted[0] as { id: number } | undefined;
      if (row === undefined) return this.write(trx, advisory, vulnerabilities); // inserted by another import meanwhile
      id = Number(row.id);
    } else {
      id = Number(existing.id);
      const updated = await trx('advisories')
        .where('id', id)
        .where((older) => older.whereNull('modified').orWhere('modified', '<', values.modified))
        .update(values);
      if (updated === 0) return 'unchanged';
      await trx('advisory_vulnerabilities').where('advisory_id', id).delete();
    }
    for (const chunk of chunksOf(vulnerabilities.map((v) => vulnerabilityColumns(id, advisory.severity, v)), VULNERABILITY_CHUNK)) {
      await trx('advisory_vulnerabilities').insert(chunk);
    }
    // Alerts keep copies of the advisory's facts (severity, EPSS, patch): they follow.
    if (existing !== undefined) await this.deps.alerts.refreshAdvisoryFacts(trx, [id]);
    return existing === undefined ? 'imported' : 'updated';
  }

  /**
   * Sets the EPSS scores of the advisories with these CVEs; writes only those whose scores
   * differ. Returns how many advisories changed.
   */
  async setEpss(trx: Executor, scores: readonly EpssScore[]): Promise<number> {
    const byCve = new Map(scores.map((score) => [score.cve, score]));
    if (byCve.size === 0) return 0;
    const rows: Array<{ id: number; cve_id: string; epss_percentage: number | null; epss_percentile: string | null }> = await trx('advisories')
      .whereIn('cve_id', [...byCve.keys()])
      .select('id', 'cve_id', 'epss_percentage', 'epss_percentile');
    const changed = rows.filter((row) => {
      const score = byCve.get(row.cve_id)!;
      return row.epss_percentage === null || Number(row.epss_percentage) !== score.epss || row.epss_percentile !== String(score.percentile);
    });
    for (const row of changed) {
      const score = byCve.get(row.cve_id)!;
      await trx('advisories').where('id', row.id).update({ epss_percentage: score.epss, epss_percentile: String(score.percentile) });
    }
    await this.deps.alertJson.write(trx, changed.map((row) => Number(row.id)));
    // Alerts keep a copy of the EPSS percentage. No re-evaluation: what auto-triage looks at
    // (TriageFacts) does not include EPSS.
    await this.deps.alerts.refreshEpss(trx, new Map(changed.map((row) => [Number(row.id), byCve.get(row.cve_id)!.epss])));
    return changed.length;
  }
}
