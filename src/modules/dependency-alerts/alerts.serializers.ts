import { JsonFragment, toJsonParts } from '../../shared/json-fragments';
import { serializeRepositorySummary, serializeUserSummary } from '../accounts/accounts.serializers';
import type { RepositoryRecord, UserRecord } from '../accounts/accounts.types';
import { serializeAdvisory, serializeVulnerability } from '../advisories/advisories.serializers';
import type { AdvisoryRecord, AdvisoryVulnerability } from '../advisories/advisories.types';
import type { AlertView } from './alerts.types';

// REST shapes of spec §2.8 and §2.10 with reference.md's additions (the advisory's, §2.9, is
// advisories.serializers.ts's); every field present, null when empty. The one place that knows them: what many alerts share (advisories, vulnerabilities,
// repositories, users) comes in as fragments, serialized once and cached (composition.ts).

/** The serialized parts alerts share, spliced into each alert as they are. */
export interface AlertFragments {
  advisory(advisory: AdvisoryRecord): JsonFragment;
  vulnerability(advisoryId: number, vulnerability: AdvisoryVulnerability): JsonFragment;
  repository(base: string, repository: RepositoryRecord): JsonFragment;
  user(base: string, user: UserRecord): JsonFragment;
}

/** Every fragment serialized afresh. */
export const freshFragments: AlertFragments = {
  advisory: (advisory) => JsonFragment.of(serializeAdvisory(advisory)),
  vulnerability: (_advisoryId, vulnerability) => JsonFragment.of(serializeVulnerability(vulnerability)),
  repository: (base, repository) => JsonFragment.of(serializeRepositorySummary(base, repository)),
  user: (base, user) => JsonFragment.of(serializeUserSummary(base, user)),
};

/** An alert's own URLs. */
export function alertUrls(base: string, view: AlertView) {
  const { alert, repository } = view;
  const repoPath = `${repository.ownerLogin}/${repository.name}`;
  return {
    url: `${base}/repos/${repoPath}/dependency-bot/alerts/${alert.number}`,
    html_url: `${base}/${repoPath}/security/dependency-bot/${alert.number}`,
  };
}

/** §2.8 dependency alert; `repository` only in enterprise and organization lists. */
export function serializeAlert(base: string, view: AlertView, options: { withRepository: boolean }, fragments: AlertFragments) {
  const { alert, repository } = view;
  const body = {
    number: alert.number,
    state: alert.state,
    dependency: {
      package: { ecosystem: alert.ecosystem, name: alert.packageName },
      manifest_path: alert.manifestPath,
      scope: alert.scope,
      relationship: alert.relationship,
    },
    security_advisory: fragments.advisory(view.advisory),
    security_vulnerability: view.vulnerability === null ? null : fragments.vulnerability(alert.advisoryId, view.vulnerability),
    ...alertUrls(base, view),
    created_at: alert.createdAt,
    updated_at: alert.updatedAt,
    dismissed_at: alert.dismissedAt,
    dismissed_by: view.dismissedBy === null ? null : fragments.user(base, view.dismissedBy),
    dismissed_reason: alert.dismissedReason,
    dismissed_comment: alert.dismissedComment,
    fixed_at: alert.fixedAt,
    auto_dismissed_at: alert.autoDismissedAt,
    assignees: view.assignees.map((u) => fragments.user(base, u)),
  };
  return options.withRepository ? { ...body, repository: fragments.repository(base, repository) } : body;
}

/** One alert's JSON, in parts (json-fragments.ts): its own bytes between shared fragments. */
export type AlertJson = (base: string, view: AlertView, options: { withRepository: boolean }) => Buffer[];

/** Alerts written by `serializeAlert` with the given fragments. */
export function alertJson(fragments: AlertFragments): AlertJson {
  return (base, view, options) => toJsonParts(serializeAlert(base, view, options, fragments));
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** A page of alerts: the list of its alerts' parts, written to the socket as they are (no copy). */
export function alertPageJson(json: AlertJson, base: string, views: readonly AlertView[], options: { withRepository: boolean }): Buffer[] {
  const parts: Buffer[] = [OPEN];
  for (const [i, view] of views.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(...json(base, view, options));
  }
  parts.push(CLOSE);
  return parts;
}
