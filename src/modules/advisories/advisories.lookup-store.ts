import type { Executor } from '../../database/transaction';
import { chunksOf, VALUES_PER_IN_LIST } from '../../shared/chunks';
import { parseJsonColumn } from '../../shared/json';
import { alertJsonOfColumns, isCurrentFormat, alertJsonOfRecord, type AdvisoryAlertJson } from './advisory-alert-json';
import type { AdvisoryRecord, AdvisoryTraits, VulnerabilityTraits } from './advisories.types';

type Row = Record<string, any>;

/** Keys per statement: well under every dialect's bound-parameter limit. */
const CHUNK = 500;

/** What a record is read from: every column but the stored JSON (advisory-alert-json.ts). */
const RECORD_COLUMNS = [
  'id', 'svcsa_id', 'cve_id', 'classification', 'summary', 'description', 'severity', 'cvss_vector_string', 'cvss_score', 'cvss_severities',
  'epss_percentage', 'epss_percentile', 'cwes', 'identifiers', 'references', 'published_at', 'updated_at', 'withdrawn_at', 'type',
  'reviewed_at', 'nvd_published_at', 'source_code_location', 'credits',
];

/** An advisory and one package it may name: what an alert's advisory facts are looked up by. */
export interface AdvisoryPackage {
  advisoryId: number;
  ecosystem: string;
  packageName: string;
}

export const advisoryPackageKey = (p: AdvisoryPackage): string => `${p.advisoryId}\u0000${p.ecosystem}\u0000${p.packageName}`;

/** What an advisory says of one package it may name: the facts alerts on it copy. */
export interface AdvisoryPackageFacts {
  severity: string;
  classification: string;
  epssPercentage: number | null;
  /** Its first vulnerability on the package (by id) gives a patched version. */
  hasPatch: boolean;
  /** The advisory names the package at all. */
  covered: boolean;
}

/**
 * Advisories by id for the other modules: whole records in batches (a page of alerts, a page
 * of the global list, webhook payloads), the facts alerts copy, and what the alert engine
 * evaluates. The only reads of advisories and advisory_vulnerabilities outside this module's
 * list, import and world stores.
 */
export class AdvisoryLookupStore {
  async findByIds(db: Executor, ids: readonly number[]): Promise<Map<number, AdvisoryRecord>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    // In sequence: in a transaction both run on one connection, which takes one query at a time.
    const rows = await db('advisories').whereIn('id', unique).select(RECORD_COLUMNS);
    const vulnerabilities = await db('advisory_vulnerabilities').whereIn('advisory_id', unique).orderBy('id').select('*');
    const byAdvisory = new Map<number, Row[]>();
    for (const v of vulnerabilities) {
      const list = byAdvisory.get(Number(v.advisory_id)) ?? [];
      list.push(v);
      byAdvisory.set(Number(v.advisory_id), list);
    }
    return new Map(rows.map((r: Row) => [Number(r.id), toAdvisory(r, byAdvisory.get(Number(r.id)) ?? [])]));
  }

  /**
   * Advisories as alerts embed them, from their stored JSON (one statement); an advisory whose
   * copy is missing or stale (another format, or rows written since) is built from its rows.
   */
  async alertJsonByIds(db: Executor, ids: readonly number[]): Promise<Map<number, AdvisoryAlertJson>> {
    const unique = [...new Set(ids)];
    const out = new Map<number, AdvisoryAlertJson>();
    if (unique.length === 0) return out;
    const rows: Row[] = await db('advisories').whereIn('id', unique).select('id', 'alert_json', 'alert_json_vulnerabilities', 'alert_json_format');
    const stale: number[] = [];
    for (const row of rows) {
      if (!isCurrentFormat(row.alert_json_format)) stale.push(Number(row.id));
      else out.set(Number(row.id), alertJsonOfColumns(row as { alert_json: string; alert_json_vulnerabilities: string }));
    }
    for (const [id, record] of await this.findByIds(db, stale)) out.set(id, alertJsonOfRecord(record));
    return out;
  }

  /**
   * The facts of these advisories on these packages, by `advisoryPackageKey` (two statements
   * per chunk of advisories); packages of advisories that do not exist are left out.
   */
  async packageFactsOf(db: Executor, packages: readonly AdvisoryPackage[]): Promise<Map<string, AdvisoryPackageFacts>> {
    const out = new Map<string, AdvisoryPackageFacts>();
    for (const chunk of chunksOf([...new Set(packages.map((p) => p.advisoryId))], VALUES_PER_IN_LIST)) {
      const advisories = new Map<number, Row>((await db('advisories').whereIn('id', chunk).select('id', 'severity', 'classification', 'epss_percentage')).map((a: Row) => [Number(a.id), a]));
      // An advisory's first vulnerability on a package (by id) says whether a patch exists.
      // Its key is built from the database's strings, and answered as the key: callers may keep
      // it (a world load, for the whole load), and a caller's strings may hold on to more.
      const firstPatched = new Map<string, { key: string; version: string | null }>();
      const vulnerabilities = await db('advisory_vulnerabilities').whereIn('advisory_id', chunk).orderBy('id').select('advisory_id', 'ecosystem', 'package_name', 'first_patched_version');
      for (const v of vulnerabilities) {
        const key = advisoryPackageKey({ advisoryId: Number(v.advisory_id), ecosystem: v.ecosystem, packageName: v.package_name });
        if (!firstPatched.has(key)) firstPatched.set(key, { key, version: v.first_patched_version });
      }
      for (const p of packages) {
        const advisory = advisories.get(p.advisoryId); // absent: in another chunk, or no such advisory
        if (advisory === undefined) continue;
        const key = advisoryPackageKey(p);
        const patched = firstPatched.get(key);
        out.set(patched?.key ?? key, {
          severity: advisory.severity,
          classification: advisory.classification,
          epssPercentage: advisory.epss_percentage === null ? null : Number(advisory.epss_percentage),
          hasPatch: patched !== undefined && patched.version !== null,
          covered: patched !== undefined,
        });
      }
    }
    return out;
  }

  /** What the alert engine evaluates of these advisories. */
  async traitsByIds(db: Executor, ids: readonly number[]): Promise<Map<number, AdvisoryTraits>> {
    const found = new Map<number, AdvisoryTraits>();
    for (const chunk of chunksOf([...new Set(ids)], CHUNK)) {
      const rows = await db('advisories').whereIn('id', chunk)
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
  async vulnerabilityTraitsOf(db: Executor, advisoryIds: readonly number[]): Promise<VulnerabilityTraits[]> {
    const found: VulnerabilityTraits[] = [];
    for (const chunk of chunksOf([...new Set(advisoryIds)], CHUNK)) {
      const rows = await db('advisory_vulnerabilities').whereIn('advisory_id', chunk).orderBy('id')
        .select('id', 'advisory_id', 'ecosystem', 'package_name', 'package_key', 'first_patched_version');
      for (const r of rows) {
        found.push({
          id: Number(r.id), advisoryId: Number(r.advisory_id), ecosystem: r.ecosystem, packageName: r.package_name, packageKey: r.package_key, hasPatch: r.first_patched_version !== null,
        });
      }
    }
    return found.sort((a, b) => a.id - b.id);
  }
}

function toAdvisory(r: Row, vulnerabilities: Row[]): AdvisoryRecord {
  return {
    id: Number(r.id),
    svcsaId: r.svcsa_id,
    cveId: r.cve_id ?? null,
    classification: r.classification,
    summary: r.summary,
    description: r.description,
    severity: r.severity,
    cvssVectorString: r.cvss_vector_string ?? null,
    cvssScore: r.cvss_score === null ? null : Number(r.cvss_score),
    cvssSeverities: parseJsonColumn(r.cvss_severities, { cvss_v3: null, cvss_v4: null }),
    epssPercentage: r.epss_percentage === null ? null : Number(r.epss_percentage),
    epssPercentile: r.epss_percentile ?? null,
    cwes: parseJsonColumn(r.cwes, []),
    identifiers: parseJsonColumn(r.identifiers, []),
    references: parseJsonColumn(r.references, []),
    publishedAt: r.published_at,
    updatedAt: r.updated_at,
    withdrawnAt: r.withdrawn_at ?? null,
    type: r.type,
    reviewedAt: r.reviewed_at ?? null,
    nvdPublishedAt: r.nvd_published_at ?? null,
    sourceCodeLocation: r.source_code_location ?? null,
    credits: parseJsonColumn(r.credits, []),
    vulnerabilities: vulnerabilities.map((v) => ({
      id: Number(v.id),
      ecosystem: v.ecosystem,
      packageName: v.package_name,
      severity: v.severity,
      vulnerableVersionRange: v.vulnerable_version_range,
      firstPatchedVersion: v.first_patched_version ?? null,
      vulnerableFunctions: parseJsonColumn(v.vulnerable_functions, []),
    })),
  };
}
