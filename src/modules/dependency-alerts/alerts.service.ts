import type { Knex } from 'knex';
import { repoPermissionAtLeast, type AccessStore } from '../../auth/access.store';
import type { Principal } from '../../auth/principal';
import type { KeysetPage } from '../../database/keyset';
import { withTransaction, type Executor } from '../../database/transaction';
import { NotFoundError, ValidationError } from '../../errors/domain';
import { nowTimestamp } from '../../shared/time';
import type { AccountsStore } from '../accounts/accounts.store';
import type { OrganizationRecord, RepositoryRecord } from '../accounts/accounts.types';
import type { OperationName } from '../../operations';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import type { AlertEvent, AlertEvents } from './alert-events';
import { requestedTransition, transitionChanges, type RequestedTransition } from './alert-lifecycle';
import { readAlertHistory, type AlertHistory } from './alert-history';
import { alertViews } from './alert-views';
import type { AdvisoryLookupStore } from '../advisories/advisories.lookup-store';
import type { AdvisoryRecord } from '../advisories/advisories.types';
import type { AlertsStore } from './alerts.store';
import type { BatchLookup } from '../../cache/cached-batch';
import type { MatchableRange } from '../advisories/affects-matching';
import { currentDependencies } from '../dependency-graph/current-dependencies';
import type { CurrentDependency } from '../dependency-graph/dependency-graph.types';
import type { DependencySnapshotsStore } from '../dependency-graph/dependency-snapshots.store';
import { alertDependencyPaths, type DependencyPath, type PathSources } from '../dependency-paths/alert-paths';
import { actorOf } from '../audit-log/audit-actors';
import type { AlertEventScope, AlertFilters, AlertKey, AlertRecord, AlertListRequest, AlertPatch, AlertRef, AlertReferences, AlertScope, AlertState, AlertView, AlertVisibility } from './alerts.types';

/**
 * How alerts are shown, from their keys, in the order given (an alert deleted since left
 * out): views for GraphQL, JSON for REST (alerts.serializers.ts), each loading in `db` what
 * it needs (REST: only for the alerts whose JSON is not kept at that version).
 */
export type AlertShape<T> = (db: Executor, keys: readonly AlertKey[]) => Promise<T[]>;

export interface AlertPage<T = AlertView> extends KeysetPage<T> {
  /** The size of the whole list, when asked for. */
  total: number | undefined;
}

/** The references as the stores answer them. */
export function storeReferences(stores: { alerts: AlertsStore; advisories: AdvisoryLookupStore; accounts: AccountsStore }): AlertReferences {
  return {
    assigneesAt: (db, keys) => stores.alerts.assigneesAt(db, keys.map((key) => key.id)),
    advisoriesByIds: (db, ids) => stores.advisories.findByIds(db, ids),
    advisoryJsonByIds: (db, ids) => stores.advisories.alertJsonByIds(db, ids),
    repositoriesByIds: (db, ids) => stores.accounts.findRepositoriesByIds(db, ids),
    usersByIds: async (db, ids) => new Map((await stores.accounts.findAccountsByIds(db, ids)).map((u) => [u.id, u])),
  };
}

/** What the alert engine does after a person reopened an alert (src/modules/alert-engine). */
export interface ReopeningEvaluation {
  afterReopening(trx: Knex.Transaction, repoId: number, alertId: number, now: string): Promise<void>;
}

export interface AlertsDeps {
  db: Knex;
  /** Writes the events of people's transitions, in their transaction. */
  events: AlertEvents;
  engine: ReopeningEvaluation;
  lookups: AuthorizedLookups;
  alerts: AlertsStore;
  accounts: AccountsStore;
  access: AccessStore;
  references: AlertReferences;
  /** The repositories' current dependencies, and vulnerability rows' compiled ranges (#71's paths). */
  snapshots: Pick<DependencySnapshotsStore, 'currentContributions' | 'currentContributionsByRepoIds'>;
  rangesByIds: BatchLookup<MatchableRange>;
}

const RESOURCE = 'DependencyAlert';

/** Alerts an export reads at once: a batch's views are what memory holds. */
const EXPORT_BATCH = 200;

/** What an export covers, and its alerts in batches (DependencyAlertsService.exportable). */
export interface AlertExport {
  subject: { kind: 'repo'; repo: RepositoryRecord } | { kind: 'org'; org: OrganizationRecord };
  batches: AsyncIterable<AlertView[]>;
}

/** A fine-grained or installation token sees only its selected repositories. */
function visibilityOf(principal: Principal, publicOnly: boolean): AlertVisibility {
  const grant = principal.kind === 'anonymous' ? undefined : principal.grant;
  return { publicOnly, repositoryIds: grant?.kind === 'permissions' ? grant.repositories : 'all' };
}

/** Spec §4.4: dependency alerts of an enterprise, an organization or a repository. */
export class DependencyAlertsService {
  constructor(private readonly deps: AlertsDeps) {}

  /** Alerts as views, with their advisories' records (GraphQL's shape). */
  readonly views: AlertShape<AlertView> = async (db, keys) => alertViews(db, this.deps.references, await this.deps.alerts.rowsAt(db, keys));

  /** Views with each alert's recorded changes (an alert's page), read under the same look-up. */
  readonly viewsWithHistory: AlertShape<{ view: AlertView; history: AlertHistory }> = async (db, keys) => {
    const views = await this.views(db, keys);
    return Promise.all(views.map(async (view, i) => ({ view, history: await readAlertHistory(db, keys[i]!.id) })));
  };

  /** #23: only organizations where the caller is an owner or security manager. */
  async listForEnterprise<T>(principal: Principal, slug: string, request: AlertListRequest, shape: AlertShape<T>): Promise<AlertPage<T>> {
    const { db, lookups, access } = this.deps;
    const enterprise = await lookups.enterprise(db, principal, 'listEnterpriseDependencyAlerts', slug);
    const orgIds = principal.kind === 'user' ? await access.alertManagedOrgIds(db, enterprise.id, principal.userId) : [];
    if (orgIds.length === 0) return { items: [], next: undefined, prev: undefined, total: 0 };
    return this.page({ kind: 'owners', ownerIds: orgIds }, visibilityOf(principal, false), request, shape);
  }

  /** #24: owners and security managers; a public_repo-only token sees public repositories. */
  async listForOrg<T>(principal: Principal, login: string, request: AlertListRequest, shape: AlertShape<T>): Promise<AlertPage<T>> {
    const org = await this.deps.lookups.org(this.deps.db, principal, 'listOrgDependencyAlerts', login);
    return this.page({ kind: 'owners', ownerIds: [org.id] }, visibilityOf(principal, org.decision.publicOnly), request, shape);
  }

  /** #25 */
  async listForRepo<T>(principal: Principal, owner: string, name: string, request: AlertListRequest, shape: AlertShape<T>): Promise<AlertPage<T>> {
    const repo = await this.deps.lookups.repo(this.deps.db, principal, 'listRepoDependencyAlerts', owner, name);
    return this.page({ kind: 'repo', repoId: repo.id }, { publicOnly: false, repositoryIds: 'all' }, request, shape);
  }

  /**
   * Whose alert events a caller may follow now, as #24 (an organization) or #25 (a repository)
   * would list them: throws as they would (404 for what the caller may not see), else names the
   * organization or repository (its id) and tells, repository by repository, whether the list
   * would show its alerts.
   */
  async followable(principal: Principal, scope: AlertEventScope): Promise<{ targetId: number; follows: (repo: RepositoryRecord) => boolean }> {
    const { db, lookups } = this.deps;
    if (scope.kind === 'repo') {
      const followed = await lookups.repo(db, principal, 'listRepoDependencyAlerts', scope.owner, scope.name);
      return { targetId: followed.id, follows: (repo) => repo.id === followed.id };
    }
    const org = await lookups.org(db, principal, 'listOrgDependencyAlerts', scope.login);
    const { publicOnly, repositoryIds } = visibilityOf(principal, org.decision.publicOnly);
    return {
      targetId: org.id,
      follows: (repo) => repo.ownerId === org.id && !(publicOnly && repo.isPrivate) && (repositoryIds === 'all' || repositoryIds.has(repo.id)),
    };
  }

  /**
   * Every alert #24 (an organization) or #25 (a repository) would list to the caller, with
   * `filters`, for a document of them all (VEX): the operation authorizes as those lists do
   * and throws as they would; the alerts come as views, one repository's at a time.
   */
  async exportable(principal: Principal, operation: OperationName, target: AlertEventScope, filters: AlertFilters): Promise<AlertExport> {
    const { db, lookups, alerts } = this.deps;
    const { scope, visibility, subject } = target.kind === 'repo'
      ? await lookups.repo(db, principal, operation, target.owner, target.name).then((repo) => ({
        scope: { kind: 'repo', repoId: repo.id } as AlertScope, visibility: { publicOnly: false, repositoryIds: 'all' } as AlertVisibility, subject: { kind: 'repo', repo } as const,
      }))
      : await lookups.org(db, principal, operation, target.login).then((org) => ({
        scope: { kind: 'owners', ownerIds: [org.id] } as AlertScope, visibility: visibilityOf(principal, org.decision.publicOnly), subject: { kind: 'org', org } as const,
      }));
    const views = this.views;
    async function* batches(): AsyncGenerator<AlertView[]> {
      for await (const { keys } of alerts.keyBatches(db, scope, visibility, filters, EXPORT_BATCH)) yield views(db, keys);
    }
    return { subject, batches: batches() };
  }

  /** #26 */
  async get<T>(principal: Principal, owner: string, name: string, number: number, shape: AlertShape<T>): Promise<T> {
    const { db, lookups, alerts } = this.deps;
    const repo = await lookups.repo(db, principal, 'getDependencyAlert', owner, name);
    const alert = await alerts.findByNumber(db, repo.id, number);
    if (!alert) throw new NotFoundError();
    return (await shape(db, [alert]))[0]!;
  }

  /** #71: paths from direct dependencies of the alert's manifest to its package, shortest first, at most `limit` (dependency-paths/). */
  async dependencyPaths(principal: Principal, ref: AlertRef, limit: number): Promise<DependencyPath[]> {
    const { db, lookups, alerts } = this.deps;
    const repo = await lookups.repo(db, principal, 'listDependencyAlertPaths', ref.owner, ref.repo);
    const alert = await alerts.findByNumber(db, repo.id, ref.number);
    if (!alert) throw new NotFoundError();
    return this.pathsOf(alert, limit, this.storeSources);
  }

  /**
   * #71 for an alert the caller has read already (GraphQL's DependencyAlert.dependencyPaths),
   * authorized as #71; what it reads comes from `sources` (the request's loaders).
   */
  async dependencyPathsOf(principal: Principal, view: Pick<AlertView, 'alert' | 'repository'>, limit: number, sources: PathSources): Promise<DependencyPath[]> {
    await this.deps.lookups.repo(this.deps.db, principal, 'listDependencyAlertPaths', view.repository.ownerLogin, view.repository.name);
    return this.pathsOf(view.alert, limit, sources);
  }

  /** Current dependencies by repository, for alerts already authorized (GraphQL's loader); none for a repository without snapshots. */
  async currentDependenciesByRepoIds(_principal: Principal, repoIds: readonly number[]): Promise<Map<number, CurrentDependency[]>> {
    const contributions = await this.deps.snapshots.currentContributionsByRepoIds(this.deps.db, repoIds);
    return new Map(repoIds.map((id) => [id, currentDependencies(contributions.get(id) ?? [])]));
  }

  /** Vulnerability rows' ranges by id: public reference data (GraphQL's loader). */
  async vulnerableRangesByIds(_principal: Principal, ids: readonly number[]): Promise<Map<number, MatchableRange>> {
    return this.deps.rangesByIds(this.deps.db, ids);
  }

  /** What #71 reads, from the stores: one repository's dependencies, one row's range. */
  private readonly storeSources: PathSources = {
    currentDependencies: async (repoId) => currentDependencies(await this.deps.snapshots.currentContributions(this.deps.db, repoId)),
    vulnerableRange: async (id) => (await this.deps.rangesByIds(this.deps.db, [id])).get(id),
  };

  private async pathsOf(alert: AlertRecord, limit: number, sources: PathSources): Promise<DependencyPath[]> {
    const dependencies = await sources.currentDependencies(alert.repoId);
    const range = alert.vulnerabilityId === null ? undefined : await sources.vulnerableRange(alert.vulnerabilityId);
    return alertDependencyPaths(alert, range, dependencies, limit);
  }

  /** An alert by its id, under #26's rules (GraphQL node ids). */
  async getById(principal: Principal, alertId: number): Promise<AlertView> {
    const { db, alerts, accounts } = this.deps;
    const location = await alerts.locate(db, alertId);
    const repo = location ? (await accounts.findRepositoriesByIds(db, [location.repoId])).get(location.repoId) : undefined;
    if (!location || !repo) throw new NotFoundError();
    return this.get(principal, repo.ownerLogin, repo.name, location.number, this.views);
  }

  /** An advisory by id: public reference data (GraphQL node ids). */
  async findAdvisory(_principal: Principal, id: number): Promise<AdvisoryRecord | undefined> {
    return (await this.deps.references.advisoriesByIds(this.deps.db, [id])).get(id);
  }

  /** #27: state transitions of spec §3 and the assignee set, in one transaction. */
  async update<T>(principal: Principal, ref: AlertRef, patch: AlertPatch, shape: AlertShape<T>): Promise<T> {
    return withTransaction(this.deps.db, async (trx) => {
      const { lookups, alerts } = this.deps;
      const repo = await lookups.repo(trx, principal, 'updateDependencyAlert', ref.owner, ref.repo);
      const alert = await alerts.findByNumber(trx, repo.id, ref.number, { lock: true });
      if (!alert) throw new NotFoundError();
      const assigneeIds = patch.assignees === undefined ? undefined : await this.assigneeIdsFor(trx, repo, patch.assignees);
      const now = nowTimestamp();
      const senderId = principal.kind === 'user' ? principal.userId : null;
      const transition = patch.state === undefined ? null : requestedTransition(alert, { ...patch, state: patch.state }, senderId);
      const events: AlertEvent[] = [];
      if (transition !== null) {
        const { changes, event } = transitionChanges(transition, now);
        await alerts.update(trx, alert.id, changes);
        if (event !== null) events.push({ alertId: alert.id, action: event, senderId, stateBefore: alert.state });
      }
      if (assigneeIds !== undefined) {
        const current = (await alerts.assigneesAt(trx, [alert.id])).get(alert.id)?.userIds ?? [];
        const same = current.length === assigneeIds.length && current.every((id) => assigneeIds.includes(id));
        if (!same) {
          await alerts.replaceAssignees(trx, alert.id, assigneeIds); // moves the alert's version (see the migrations)
          events.push({ alertId: alert.id, action: 'assignees_changed', senderId, stateBefore: transitionState(transition) ?? alert.state });
        }
      }
      await this.deps.events.record(trx, events, now, actorOf(principal));
      // Reopened: the next evaluation applies at once (the alert may be fixed already).
      if (transition?.action === 'reopened') await this.deps.engine.afterReopening(trx, repo.id, alert.id, now);
      return (await shape(trx, [(await alerts.findByNumber(trx, repo.id, ref.number))!]))[0]!;
    });
  }

  /** Every assignee must be a user with access to the repository (422 naming the login). */
  private async assigneeIdsFor(db: Executor, repo: RepositoryRecord, logins: string[]): Promise<number[]> {
    const ids: number[] = [];
    for (const login of logins) {
      const user = await this.deps.accounts.findUserByLogin(db, login);
      const permission = user ? await this.deps.access.repoPermission(db, { id: repo.id, ownerId: repo.ownerId, ownerIsOrg: repo.ownerType === 'Organization' }, user.id) : null;
      if (!user || !repoPermissionAtLeast(permission, 'read')) {
        throw new ValidationError(`Invalid assignee: ${login} is not a user with access to ${repo.ownerLogin}/${repo.name}.`, [
          { resource: RESOURCE, field: 'assignees', code: 'invalid', message: `${login} is not a user with access to the repository.` },
        ]);
      }
      if (!ids.includes(user.id)) ids.push(user.id);
    }
    return ids;
  }

  private async page<T>(scope: AlertScope, visibility: AlertVisibility, request: AlertListRequest, shape: AlertShape<T>): Promise<AlertPage<T>> {
    const { db, alerts } = this.deps;
    const page = await alerts.listKeys(db, scope, visibility, request);
    const total = request.withTotal ? await alerts.count(db, scope, visibility, request.filters) : undefined;
    return { ...page, items: await shape(db, page.items), total };
  }
}

/** The state a person's transition leaves the alert in (undefined: none asked, or nothing changes). */
function transitionState(transition: RequestedTransition | null): AlertState | undefined {
  if (transition === null) return undefined;
  return transition.action === 'dismissed' ? 'dismissed' : 'open';
}
