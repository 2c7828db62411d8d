import type { Executor } from '../../database/transaction';
import type { BatchLookup } from '../../cache/cached-batch';
import type { AlertJsonView, AlertRecord, AlertReferences, AlertView, AlertViewWith } from './alerts.types';

/**
 * The vulnerability entry an alert shows (`security_vulnerability`; the alert engine triages by
 * its patch): the row its dependency matched, else (an alert a world file declared) the
 * advisory's first entry on its package. `rows`: the advisory's rows, in id order.
 */
export function vulnerabilityOf<Row extends { id: number; ecosystem: string; packageName: string }>(
  alert: Pick<AlertRecord, 'vulnerabilityId' | 'ecosystem' | 'packageName'>, rows: readonly Row[],
): Row | undefined {
  const matched = alert.vulnerabilityId === null ? undefined : rows.find((v) => v.id === alert.vulnerabilityId);
  return matched ?? rows.find((v) => v.ecosystem === alert.ecosystem && v.packageName === alert.packageName);
}

/**
 * Loads what alerts show, a batch per kind (never a query per alert), in the order given:
 * for pages, #27's answer, and the events the alert engine writes.
 */
async function viewsOf<A>(db: Executor, references: AlertReferences, alerts: readonly AlertRecord[], advisoriesByIds: BatchLookup<A>): Promise<Array<AlertViewWith<A>>> {
  // In sequence: inside a transaction these share one connection.
  const advisoryById = await advisoriesByIds(db, alerts.map((a) => a.advisoryId));
  const assigneesByAlert = await references.assigneesAt(db, alerts);
  const repositories = await references.repositoriesByIds(db, alerts.map((a) => a.repoId));
  const userIds = [...new Set([...[...assigneesByAlert.values()].flatMap((a) => a.userIds), ...alerts.flatMap((a) => (a.dismissedById === null ? [] : [a.dismissedById]))])];
  const users = await references.usersByIds(db, userIds);
  return alerts.map((alert) => ({
    alert,
    advisory: advisoryById.get(alert.advisoryId)!,
    assignees: (assigneesByAlert.get(alert.id)?.userIds ?? []).flatMap((id) => users.get(id) ?? []),
    dismissedBy: alert.dismissedById === null ? null : users.get(alert.dismissedById) ?? null,
    repository: repositories.get(alert.repoId)!,
  }));
}

/** Alerts with their advisories' records (GraphQL). */
export async function alertViews(db: Executor, references: AlertReferences, alerts: readonly AlertRecord[]): Promise<AlertView[]> {
  const views = await viewsOf(db, references, alerts, references.advisoriesByIds);
  return views.map((view) => ({ ...view, vulnerability: vulnerabilityOf(view.alert, view.advisory.vulnerabilities) ?? null }));
}

/** Alerts with their advisories' stored JSON: what REST answers and webhook payloads are written from. */
export function alertJsonViews(db: Executor, references: AlertReferences, alerts: readonly AlertRecord[]): Promise<AlertJsonView[]> {
  return viewsOf(db, references, alerts, references.advisoryJsonByIds);
}
