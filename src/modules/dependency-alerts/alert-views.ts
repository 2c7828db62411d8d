import type { Executor } from '../../database/transaction';
import type { AlertReferences, AlertView } from './alerts.service';
import type { AdvisoryRecord, AdvisoryVulnerability } from '../advisories/advisories.types';
import type { AlertRecord } from './alerts.types';

/**
 * The vulnerability entry an alert shows as `security_vulnerability`: the row its dependency
 * matched, else (an alert a world file declared) the advisory's first entry on its package.
 */
export function vulnerabilityOf(alert: AlertRecord, advisory: AdvisoryRecord): AdvisoryVulnerability | null {
  const matched = alert.vulnerabilityId === null ? undefined : advisory.vulnerabilities.find((v) => v.id === alert.vulnerabilityId);
  return matched ?? advisory.vulnerabilities.find((v) => v.ecosystem === alert.ecosystem && v.packageName === alert.packageName) ?? null;
}

/**
 * Loads what alerts show, a batch per kind (never a query per alert): for pages, #27's answer,
 * and the events the alert engine writes.
 */
export async function alertViews(db: Executor, references: AlertReferences, alerts: readonly AlertRecord[]): Promise<AlertView[]> {
  // In sequence: inside a transaction these share one connection.
  const advisoryById = await references.advisoriesByIds(db, alerts.map((a) => a.advisoryId));
  const assigneesByAlert = await references.assigneesAt(db, alerts);
  const repositories = await references.repositoriesByIds(db, alerts.map((a) => a.repoId));
  const userIds = [...new Set([...[...assigneesByAlert.values()].flatMap((a) => a.userIds), ...alerts.flatMap((a) => (a.dismissedById === null ? [] : [a.dismissedById]))])];
  const users = await references.usersByIds(db, userIds);
  return alerts.map((alert) => {
    const advisory = advisoryById.get(alert.advisoryId)!;
    return {
      alert,
      advisory,
      vulnerability: vulnerabilityOf(alert, advisory),
      assignees: (assigneesByAlert.get(alert.id)?.userIds ?? []).flatMap((id) => users.get(id) ?? []),
      dismissedBy: alert.dismissedById === null ? null : users.get(alert.dismissedById) ?? null,
      repository: repositories.get(alert.repoId)!,
    };
  });
}
