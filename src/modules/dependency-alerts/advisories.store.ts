import type { Executor } from '../../database/transaction';
import { parseJsonColumn } from '../../shared/json';
import type { AdvisoryRecord } from './alerts.types';

type Row = Record<string, any>;

/** Advisories with their vulnerabilities, loaded in batches (a page of alerts, a page of the global list). */
export class AdvisoriesStore {
  async findByIds(db: Executor, ids: readonly number[]): Promise<Map<number, AdvisoryRecord>> {
    const unique = [...new Set(ids)];
    if (unique.length === 0) return new Map();
    // In sequence: in a transaction both run on one connection, which takes one query at a time.
    const rows = await db('advisories').whereIn('id', unique).select('*');
    const vulnerabilities = await db('advisory_vulnerabilities').whereIn('advisory_id', unique).orderBy('id').select('*');
    const byAdvisory = new Map<number, Row[]>();
    for (const v of vulnerabilities) {
      const list = byAdvisory.get(Number(v.advisory_id)) ?? [];
      list.push(v);
      byAdvisory.set(Number(v.advisory_id), list);
    }
    return new Map(rows.map((r: Row) => [Number(r.id), toAdvisory(r, byAdvisory.get(Number(r.id)) ?? [])]));
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
