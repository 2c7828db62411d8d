import { cweEntry } from './cwe-catalogue';
import { scoreCvssVector, type CvssKind } from './cvss-score';
import { parseOsvAdvisory, type OsvAdvisory } from './osv.schema';
import type { AdvisorySeverity, AdvisoryType, CvssScore, ImportedAdvisory, MappingNote, OsvMapping, RenderRange } from './osv.types';
import { mapVulnerabilities } from './osv-vulnerabilities';
import { severityFromDatabase, severityFromScore } from './severity';

const NO_CVSS: CvssScore = { vector_string: null, score: 0 };

/** ISO 8601 UTC, seconds precision unless the source gives milliseconds (`2022-06-15T21:24:14Z`). */
function utc(timestamp: string): string {
  return new Date(timestamp).toISOString().replace('.000Z', 'Z');
}

function utcOrNull(timestamp: string | null | undefined): string | null {
  return timestamp ? utc(timestamp) : null;
}

/** The first `severity[]` entry of a kind, scored; a malformed vector counts as absent and is noted. */
function cvssOf(osv: OsvAdvisory, kind: CvssKind, notes: MappingNote[]): CvssScore {
  const entry = (osv.severity ?? []).find((s) => s.type === kind);
  if (!entry) return NO_CVSS;
  const scored = scoreCvssVector(kind, entry.score);
  if (scored.ok) return { vector_string: entry.score, score: scored.score };
  notes.push({ kind: 'cvss-malformed', type: kind, vector: entry.score, reason: scored.reason });
  return NO_CVSS;
}

function severityOf(osv: OsvAdvisory, v3: CvssScore, v4: CvssScore): AdvisorySeverity {
  return severityFromDatabase(osv.database_specific?.severity) ?? severityFromScore(Math.max(v3.score, v4.score));
}

/**
 * Malware: OSV `MAL-` ids (the OpenSSF malicious-packages database, which also marks its records
 * with `database_specific["malicious-packages-origins"]`), a `MAL-` alias, or a source that says
 * `database_specific.type: "malware"` (GitHub's advisory type).
 */
function isMalware(osv: OsvAdvisory): boolean {
  const specific = osv.database_specific;
  return (
    osv.id.startsWith('MAL-') ||
    (osv.aliases ?? []).some((alias) => alias.startsWith('MAL-')) ||
    specific?.type?.toLowerCase() === 'malware' ||
    (specific !== null && specific !== undefined && 'malicious-packages-origins' in specific)
  );
}

/**
 * GitHub says whether it reviewed an advisory; a GHSA without that flag is unreviewed. Other
 * schemes (PYSEC, RUSTSEC, GO, …) come from databases whose maintainers review every entry.
 */
function typeOf(osv: OsvAdvisory, malware: boolean): AdvisoryType {
  if (malware) return 'malware';
  const reviewed = osv.database_specific?.github_reviewed;
  if (typeof reviewed === 'boolean') return reviewed ? 'reviewed' : 'unreviewed';
  return osv.id.startsWith('GHSA-') ? 'unreviewed' : 'reviewed';
}

function advisoryOf(osv: OsvAdvisory, renderRange: RenderRange, notes: MappingNote[]): ImportedAdvisory {
  const cves = (osv.aliases ?? []).filter((alias) => alias.startsWith('CVE-'));
  const v3 = cvssOf(osv, 'CVSS_V3', notes);
  const v4 = cvssOf(osv, 'CVSS_V4', notes);
  const malware = isMalware(osv);
  const references = osv.references ?? [];
  return {
    svcsaId: osv.id,
    cveId: cves[0] ?? null,
    type: typeOf(osv, malware),
    classification: malware ? 'malware' : 'general',
    summary: osv.summary ?? '',
    description: osv.details ?? '',
    severity: severityOf(osv, v3, v4),
    cvss: v3,
    cvssSeverities: { cvss_v3: v3, cvss_v4: v4 },
    cwes: (osv.database_specific?.cwe_ids ?? []).map(cweEntry),
    identifiers: [{ type: 'SVCSA', value: osv.id }, ...cves.map((value) => ({ type: 'CVE' as const, value }))],
    references: references.map(({ url }) => ({ url })),
    // OSV makes `published` optional; an advisory without it was published when first modified.
    publishedAt: utc(osv.published ?? osv.modified),
    updatedAt: utc(osv.modified),
    withdrawnAt: utcOrNull(osv.withdrawn),
    reviewedAt: utcOrNull(osv.database_specific?.github_reviewed_at),
    nvdPublishedAt: utcOrNull(osv.database_specific?.nvd_published_at),
    sourceCodeLocation: references.find((reference) => reference.type === 'PACKAGE')?.url ?? null,
    credits: (osv.credits ?? []).map((credit) => ({ name: credit.name, type: credit.type?.toLowerCase() ?? null, contact: credit.contact })),
    vulnerabilities: mapVulnerabilities(osv.affected ?? [], renderRange, notes),
  };
}

function idOf(value: unknown): string | null {
  const id = typeof value === 'object' && value !== null ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' && id !== '' ? id : null;
}

/**
 * Maps one parsed OSV document (interfaces.md "Advisory database"). Pure: never throws on bad
 * input. `skipped` when every affected package is in an ecosystem orgsec does not know.
 */
export function mapOsvAdvisory(document: unknown, renderRange: RenderRange): OsvMapping {
  const parsed = parseOsvAdvisory(document);
  if (!parsed.ok) return { kind: 'malformed', id: idOf(document), reason: parsed.reason };
  const osv = parsed.advisory;
  const notes: MappingNote[] = [];
  const advisory = advisoryOf(osv, renderRange, notes);
  if ((osv.affected ?? []).length > 0 && advisory.vulnerabilities.length === 0) {
    const ecosystems = [...new Set((osv.affected ?? []).map((a) => a.package.ecosystem))].join(', ');
    const reason = notes.some((n) => n.kind === 'range-skipped')
      ? `no affected package with a range orgsec can read (ecosystems: ${ecosystems})`
      : `no affected package in an ecosystem orgsec knows (${ecosystems})`;
    return { kind: 'skipped', id: osv.id, reason, notes };
  }
  return { kind: 'mapped', advisory, notes };
}
