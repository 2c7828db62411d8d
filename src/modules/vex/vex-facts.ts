import type { RepositoryRecord } from '../accounts/accounts.types';
import type { AdvisoryRecord } from '../advisories/advisories.types';
import { alertUrls } from '../dependency-alerts/alerts.serializers';
import type { AlertView } from '../dependency-alerts/alerts.types';
import { purlOfRepository } from '../dependency-graph/package-url';

// What both VEX formats say of an alert beyond its assessment (vex-assessments.ts): how the
// repository, the advisory and the alert are named, and the assessment in words.

/** The repository as a product: `pkg:github/owner/name`. */
export const repositoryPurl = (repo: Pick<RepositoryRecord, 'ownerLogin' | 'name'>): string => purlOfRepository(repo.ownerLogin, repo.name);

/** The advisory's URL in the API (#28's read). */
export const advisoryUrl = (apiBase: string, advisory: Pick<AdvisoryRecord, 'svcsaId'>): string => `${apiBase}/advisories/${advisory.svcsaId}`;

/** The alert's URL in the API (#26's read): a statement's IRI. */
export const alertUrl = (apiBase: string, view: Pick<AlertView, 'alert' | 'repository'>): string => alertUrls(apiBase, view).url;

/** The advisory's other identifiers (its CVE first), each once. */
export function aliasesOf(advisory: Pick<AdvisoryRecord, 'svcsaId' | 'cveId' | 'identifiers'>): string[] {
  const aliases = new Set<string>();
  if (advisory.cveId !== null) aliases.add(advisory.cveId);
  for (const { value } of advisory.identifiers) aliases.add(value);
  aliases.delete(advisory.svcsaId);
  return [...aliases];
}

const day = (timestamp: string) => timestamp.slice(0, 10);

/** Who assessed the alert, when, and their comment, in a sentence or two; undefined for an open alert. */
export function assessmentDetail({ alert, dismissedBy }: Pick<AlertView, 'alert' | 'dismissedBy'>): string | undefined {
  switch (alert.state) {
    case 'open':
      return undefined;
    case 'fixed':
      return `Fixed on ${day(alert.fixedAt ?? alert.updatedAt)}: no current dependency is in the vulnerable range.`;
    case 'auto_dismissed':
      return `Dismissed by auto-triage on ${day(alert.autoDismissedAt ?? alert.updatedAt)}${alert.autoDismissedBy === 'withdrawal' ? ': the advisory was withdrawn' : ''}.`;
    case 'dismissed': {
      const by = dismissedBy === null ? '' : ` by ${dismissedBy.login}`;
      const comment = alert.dismissedComment === null || alert.dismissedComment === '' ? '' : ` ${alert.dismissedComment}`;
      return `Dismissed as ${alert.dismissedReason ?? 'tolerable_risk'}${by} on ${day(alert.dismissedAt ?? alert.updatedAt)}.${comment}`;
    }
  }
}
