import type { Knex } from 'knex';
import { repoPermissionAtLeast, type AccessStore } from '../../auth/access.store';
import type { Principal } from '../../auth/principal';
import { CachedBatch } from '../../cache/cached-batch';
import type { DataVersions } from '../../database/data-version';
import type { KeysetPage } from '../../database/keyset';
import { withTransaction, type Executor } from '../../database/transaction';
import { ConflictError, NotFoundError, ValidationError } from '../../errors/domain';
import { nowTimestamp } from '../../shared/time';
import type { AccountsStore } from '../accounts/accounts.store';
import type { RepositoryRecord, UserRecord } from '../accounts/accounts.types';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import type { AdvisoriesStore } from './advisories.store';
import type { AlertChanges, AlertsStore } from './alerts.store';
import type { AdvisoryRecord, AdvisoryVulnerability, AlertListRequest, AlertRecord, AlertScope, AlertVisibility } from './alerts.types';
import type { UpdateBody } from './alerts.schemas';

/** An alert with everything its answer shows. */
export interface AlertView {
  alert: AlertRecord;
  advisory: AdvisoryRecord;
  vulnerability: AdvisoryVulnerability | null;
  assignees: UserRecord[];
  dismissedBy: UserRecord | null;
  repository: RepositoryRecord;
}

export interface AlertPage extends KeysetPage<AlertView> {
  /** The size of the whole list, when asked for. */
  total: number | undefined;
}

export interface AlertsDeps {
  db: Knex;
  lookups: AuthorizedLookups;
  alerts: AlertsStore;
  advisories: AdvisoriesStore;
  accounts: AccountsStore;
  access: AccessStore;
}

const RESOURCE = 'DependencyAlert';

/** A fine-grained or installation token sees only its selected repositories. */
function visibilityOf(principal: Principal, publicOnly: boolean): AlertVisibility {
  const grant = principal.kind === 'anonymous' ? undefined : principal.grant;
  return { publicOnly, repositoryIds: grant?.kind === 'permissions' ? grant.repositories : 'all' };
}

/** Spec §4.4: dependency alerts of an enterprise, an organization or a repository. */
export class DependencyAlertsService {
  // What alerts refer to, kept per reference version (src/database/data-version.ts).
  private readonly advisoryCache: CachedBatch<Executor, AdvisoryRecord>;
  private readonly repositoryCache: CachedBatch<Executor, RepositoryRecord>;
  private readonly userCache: CachedBatch<Executor, UserRecord>;
  // Alert rows and assignee lists, kept per data version (any write empties them).
  private readonly alertCache: CachedBatch<Executor, AlertRecord>;
  private readonly assigneeCache: CachedBatch<Executor, number[]>;

  constructor(private readonly deps: AlertsDeps) {
    this.advisoryCache = new CachedBatch((db, ids) => deps.advisories.findByIds(db, ids), 5_000);
    this.repositoryCache = new CachedBatch((db, ids) => deps.accounts.findRepositoriesByIds(db, ids), 20_000);
    this.userCache = new CachedBatch(async (db, ids) => new Map((await deps.accounts.findAccountsByIds(db, ids)).map((u) => [u.id, u])), 20_000);
    this.alertCache = new CachedBatch((db, ids) => deps.alerts.findByIds(db, ids), 20_000);
    this.assigneeCache = new CachedBatch((db, ids) => deps.alerts.assigneeIds(db, ids), 20_000);
  }

  // Lists take the data versions the request read first, when it did: references then come
  // from memory. Without them every reference is loaded.

  /** #23: only organizations where the caller is an owner or security manager. */
  async listForEnterprise(principal: Principal, slug: string, request: AlertListRequest, at?: DataVersions): Promise<AlertPage> {
    const { db, lookups, access } = this.deps;
    const enterprise = await lookups.enterprise(db, principal, 'listEnterpriseDependencyAlerts', slug);
    const orgIds = principal.kind === 'user' ? await access.alertManagedOrgIds(db, enterprise.id, principal.userId) : [];
    if (orgIds.length === 0) return { items: [], next: undefined, prev: undefined, total: 0 };
    return this.page({ kind: 'owners', ownerIds: orgIds }, visibilityOf(principal, false), request, at);
  }

  /** #24: owners and security managers; a public_repo-only token sees public repositories. */
  async listForOrg(principal: Principal, login: string, request: AlertListRequest, at?: DataVersions): Promise<AlertPage> {
    const org = await this.deps.lookups.org(this.deps.db, principal, 'listOrgDependencyAlerts', login, at?.data);
    return this.page({ kind: 'owners', ownerIds: [org.id] }, visibilityOf(principal, org.decision.publicOnly), request, at);
  }

  /** #25 */
  async listForRepo(principal: Principal, owner: string, name: string, request: AlertListRequest, at?: DataVersions): Promise<AlertPage> {
    const repo = await this.deps.lookups.repo(this.deps.db, principal, 'listRepoDependencyAlerts', owner, name, at?.data);
    return this.page({ kind: 'repo', repoId: repo.id }, { publicOnly: false, repositoryIds: 'all' }, request, at);
  }

  /** #26 */
  async get(principal: Principal, owner: string, name: string, number: number): Promise<AlertView> {
    const { db, lookups, alerts } = this.deps;
    const repo = await lookups.repo(db, principal, 'getDependencyAlert', owner, name);
    const alert = await alerts.findByNumber(db, repo.id, number);
    if (!alert) throw new NotFoundError();
    return (await this.hydrate(db, [alert]))[0]!;
  }

  /** An alert by its id, under #26's rules (GraphQL node ids). */
  async getById(principal: Principal, alertId: number): Promise<AlertView> {
    const { db, alerts, accounts } = this.deps;
    const location = await alerts.locate(db, alertId);
    const repo = location ? (await accounts.findRepositoriesByIds(db, [location.repoId])).get(location.repoId) : undefined;
    if (!location || !repo) throw new NotFoundError();
    return this.get(principal, repo.ownerLogin, repo.name, location.number);
  }

  /** #27: state transitions of spec §3 and the assignee set, in one transaction. */
  async update(principal: Principal, owner: string, name: string, number: number, body: UpdateBody): Promise<AlertView> {
    return withTransaction(this.deps.db, async (trx) => {
      const { lookups, alerts } = this.deps;
      const repo = await lookups.repo(trx, principal, 'updateDependencyAlert', owner, name);
      const alert = await alerts.findByNumber(trx, repo.id, number, { lock: true });
      if (!alert) throw new NotFoundError();
      const assigneeIds = body.assignees === undefined ? undefined : await this.assigneeIdsFor(trx, repo, body.assignees);
      const changes = body.state === undefined ? {} : transition(alert, body, principal);
      if (Object.keys(changes).length > 0) await alerts.update(trx, alert.id, changes);
      if (assigneeIds !== undefined) {
        const current = (await alerts.assigneeIds(trx, [alert.id])).get(alert.id) ?? [];
        const same = current.length === assigneeIds.length && current.every((id) => assigneeIds.includes(id));
        if (!same) {
          await alerts.replaceAssignees(trx, alert.id, assigneeIds);
          if (Object.keys(changes).length === 0) await alerts.update(trx, alert.id, {});
        }
      }
      const updated = (await alerts.findByNumber(trx, repo.id, number))!;
      return (await this.hydrate(trx, [updated]))[0]!;
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

  private async page(scope: AlertScope, visibility: AlertVisibility, request: AlertListRequest, at: DataVersions | undefined): Promise<AlertPage> {
    const { db, alerts } = this.deps;
    const page = await alerts.listIds(db, scope, visibility, request);
    const records = await this.alertCache.get(db, at?.data, page.items);
    // An alert deleted between the two statements is simply not shown.
    const items = page.items.flatMap((id) => records.get(id) ?? []);
    const total = request.withTotal ? await alerts.count(db, scope, visibility, request.filters) : undefined;
    return { ...page, items: await this.hydrate(db, items, at), total };
  }

  /**
   * Loads what a page of alerts shows, a batch per kind (never a query per alert); with
   * the versions, what was seen under them comes from memory.
   */
  private async hydrate(db: Executor, alerts: AlertRecord[], at?: DataVersions): Promise<AlertView[]> {
    // In sequence: inside a transaction these share one connection.
    const advisoryById = await this.advisoryCache.get(db, at?.reference, alerts.map((a) => a.advisoryId));
    const assigneesByAlert = await this.assigneeCache.get(db, at?.data, alerts.map((a) => a.id));
    const repositories = await this.repositoryCache.get(db, at?.reference, alerts.map((a) => a.repoId));
    const userIds = [...new Set([...[...assigneesByAlert.values()].flat(), ...alerts.flatMap((a) => (a.dismissedById === null ? [] : [a.dismissedById]))])];
    const users = await this.userCache.get(db, at?.reference, userIds);
    return alerts.map((alert) => {
      const advisory = advisoryById.get(alert.advisoryId)!;
      return {
        alert,
        advisory,
        vulnerability: advisory.vulnerabilities.find((v) => v.ecosystem === alert.ecosystem && v.packageName === alert.packageName) ?? null,
        assignees: (assigneesByAlert.get(alert.id) ?? []).flatMap((id) => users.get(id) ?? []),
        dismissedBy: alert.dismissedById === null ? null : users.get(alert.dismissedById) ?? null,
        repository: repositories.get(alert.repoId)!,
      };
    });
  }
}

/** The changes a requested state makes (spec §3, reference.md), or a 409. */
function transition(alert: AlertRecord, body: UpdateBody, principal: Principal): AlertChanges {
  const now = nowTimestamp();
  if (body.state === 'dismissed') {
    if (alert.state === 'dismissed') throw new ConflictError(`Alert ${alert.number} is already dismissed`);
    if (alert.state !== 'open') throw new ConflictError(`Alert ${alert.number} is ${alert.state.replace('_', ' ')} and cannot be dismissed`);
    return {
      state: 'dismissed',
      updated_at: now,
      dismissed_at: now,
      dismissed_by_id: principal.kind === 'user' ? principal.userId : null,
      dismissed_reason: body.dismissed_reason ?? null,
      dismissed_comment: body.dismissed_comment ?? null,
    };
  }
  if (alert.state === 'fixed') throw new ConflictError(`Alert ${alert.number} is fixed and cannot be reopened`);
  if (alert.state === 'open') return {};
  return { state: 'open', updated_at: now, dismissed_at: null, dismissed_by_id: null, dismissed_reason: null, dismissed_comment: null, auto_dismissed_at: null };
}
