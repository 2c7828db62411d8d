import type { AdvisoryRecord, AdvisoryVulnerability, GlobalAdvisory, GlobalVulnerability } from './advisories.types';
import { htmlUrls } from '../../shared/html-urls';

// The advisory's REST shapes (advisories.responses.ts): spec §2.9 as alerts and security_advisory
// events show it; the global advisory, with the global list's `first_patched_version` as a
// string, and its own fields.

export function serializeVulnerability(v: AdvisoryVulnerability) {
  return {
    package: { ecosystem: v.ecosystem, name: v.packageName },
    severity: v.severity,
    vulnerable_version_range: v.vulnerableVersionRange,
    first_patched_version: v.firstPatchedVersion === null ? null : { identifier: v.firstPatchedVersion },
  };
}

/** §2.9 security advisory. */
export function serializeAdvisory(a: AdvisoryRecord) {
  return {
    svcsa_id: a.svcsaId,
    cve_id: a.cveId,
    summary: a.summary,
    description: a.description,
    vulnerabilities: a.vulnerabilities.map(serializeVulnerability),
    severity: a.severity,
    cvss: { vector_string: a.cvssVectorString, score: a.cvssScore ?? 0 },
    cvss_severities: a.cvssSeverities,
    epss: a.epssPercentage === null ? null : { percentage: a.epssPercentage, percentile: a.epssPercentile },
    cwes: a.cwes,
    identifiers: a.identifiers,
    references: a.references,
    published_at: a.publishedAt,
    updated_at: a.updatedAt,
    withdrawn_at: a.withdrawnAt,
    classification: a.classification,
  };
}

/** The advisory's own URLs, under the base the request used. */
export function advisoryUrls(base: string, svcsaId: string) {
  return { url: `${base}/advisories/${svcsaId}`, html_url: htmlUrls.advisory(base, svcsaId) };
}

function serializeGlobalVulnerability(v: GlobalVulnerability) {
  return { ...serializeVulnerability(v), first_patched_version: v.firstPatchedVersion, vulnerable_functions: v.vulnerableFunctions };
}

export function serializeGlobalAdvisory(base: string, a: GlobalAdvisory) {
  return {
    ...serializeAdvisory(a),
    ...advisoryUrls(base, a.svcsaId),
    type: a.type,
    vulnerabilities: a.vulnerabilities.map(serializeGlobalVulnerability),
    source_code_location: a.sourceCodeLocation,
    credits: a.credits,
    reviewed_at: a.reviewedAt,
    nvd_published_at: a.nvdPublishedAt,
  };
}
