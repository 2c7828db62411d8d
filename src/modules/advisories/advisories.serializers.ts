import { serializeAdvisory, serializeVulnerability } from '../dependency-alerts/alerts.serializers';
import type { GlobalAdvisory, GlobalVulnerability } from './advisories.types';

// The global advisory's REST shape (advisories.responses.ts): spec §2.9 as alerts show it, with
// the global list's `first_patched_version` as a string, and its own fields.

/** The advisory's own URLs, under the base the request used. */
export function advisoryUrls(base: string, svcsaId: string) {
  return { url: `${base}/advisories/${svcsaId}`, html_url: `${base}/advisories/${svcsaId}/view` };
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
