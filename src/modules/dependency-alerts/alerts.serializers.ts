import { serializeRepositorySummary, serializeUserSummary } from '../accounts/accounts.serializers';
import type { AlertView } from './alerts.service';
import type { AdvisoryRecord, AdvisoryVulnerability } from './alerts.types';

// REST shapes of spec §2.8–2.10 with reference.md's additions; every field present, null when empty.

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

/** §2.8 dependency alert; `repository` only in enterprise and organization lists. */
export function serializeAlert(base: string, view: AlertView, options: { withRepository: boolean }) {
  const { alert, repository } = view;
  const repoPath = `${repository.ownerLogin}/${repository.name}`;
  const body = {
    number: alert.number,
    state: alert.state,
    dependency: {
      package: { ecosystem: alert.ecosystem, name: alert.packageName },
      manifest_path: alert.manifestPath,
      scope: alert.scope,
      relationship: alert.relationship,
    },
    security_advisory: serializeAdvisory(view.advisory),
    security_vulnerability: view.vulnerability === null ? null : serializeVulnerability(view.vulnerability),
    url: `${base}/repos/${repoPath}/dependency-bot/alerts/${alert.number}`,
    html_url: `${base}/${repoPath}/security/dependency-bot/${alert.number}`,
    created_at: alert.createdAt,
    updated_at: alert.updatedAt,
    dismissed_at: alert.dismissedAt,
    dismissed_by: view.dismissedBy === null ? null : serializeUserSummary(base, view.dismissedBy),
    dismissed_reason: alert.dismissedReason,
    dismissed_comment: alert.dismissedComment,
    fixed_at: alert.fixedAt,
    auto_dismissed_at: alert.autoDismissedAt,
    assignees: view.assignees.map((u) => serializeUserSummary(base, u)),
  };
  return options.withRepository ? { ...body, repository: serializeRepositorySummary(base, repository) } : body;
}
