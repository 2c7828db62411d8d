import type { Knex } from 'knex';
import { lockForUpdate } from '../../database/dialect';
import { fetchKeysetPage, type KeysetPage } from '../../database/keyset';
import type { Executor } from '../../database/transaction';
import { chunksOf, VALUES_PER_IN_LIST } from '../../shared/chunks';
import { SORT_COLUMN, alertListName, alertOrder } from './alerts.cursors';
import { advisoryPackageKey, type AdvisoryLookupStore, type AdvisoryPackage } from '../advisories/advisories.lookup-store';
import { ALERT_STATES, type AlertAssignees, type AlertFilters, type AlertKey, type AlertListRequest, type AlertRecord, type AlertScope, type AlertState, type AlertVisibility, type AutoDismissal, type DismissedReason } from './alerts.types';

// The benchmark's world facts name alert lists through the store.
export { alertListName } from './alerts.cursors';

type Row = Record<string, any>;

const ALERT_COLUMNS = [
  'a.id', 'a.repo_id', 'a.number', 'a.advisory_id', 'a.ecosystem', 'a.package_name', 'a.manifest_path', 'a.scope', 'a.relationship',
  'a.state', 'a.created_at', 'a.updated_at', 'a.fixed_at', 'a.auto_dismissed_at', 'a.dismissed_at', 'a.dismissed_by_id',
  'a.dismissed_reason', 'a.dismissed_comment', 'a.epss_sort', 'a.version', 'a.vulnerability_id', 'a.auto_dismissed_by',
];


function toAlert(r: Row): AlertRecord {
  return {
    id: Number(r.id), repoId: Number(r.repo_id), number: Number(r.number), advisoryId: Number(r.advisory_id),
    ecosystem: r.ecosystem, packageName: r.package_name, manifestPath: r.manifest_path, scope: r.scope, relationship: r.relationship,
    state: r.state, createdAt: r.created_at, updatedAt: r.updated_at, fixedAt: r.fixed_at ?? null, autoDismissedAt: r.auto_dismissed_at ?? null,
    dismissedAt: r.dismissed_at ?? null, dismissedById: r.dismissed_by_id === null ? null : Number(r.dismissed_by_id),
    dismissedReason: r.dismissed_reason ?? null, dismissedComment: r.dismissed_comment ?? null,
    epssSort: Number(r.epss_sort), version: Number(r.version),
    vulnerabilityId: r.vulnerability_id === null || r.vulnerability_id === undefined ? null : Number(r.vulnerability_id), autoDismissedBy: r.auto_dismissed_by ?? null,
  };
}

/** What an alert row copies from its advisory (see the migration). */
export interface AdvisoryFacts {
  severity: string;
  classification: string;
  epss_percentage: number | null;
  epss_sort: number;
  has_patch: boolean;
}

/** The columns a transition writes (alert-lifecycle.ts says which). */
export type AlertChanges = Partial<{
  state: AlertState; updated_at: string; fixed_at: string | null; auto_dismissed_at: string | null; auto_dismissed_by: AutoDismissal | null; dismissed_at: string | null;
  dismissed_by_id: number | null; dismissed_reason: DismissedReason | null; dismissed_comment: string | null;
}>;

/** An alert row as a world file declares it, with the copies the store keeps. */
export interface WorldAlert extends AdvisoryFacts {
  repo_id: number;
  owner_id: number;
  number: number | undefined;
  advisory_id: number;
  ecosystem: string;
  package_name: string;
  manifest_path: string;
  scope: string;
  relationship: string;
  state: string;
  created_at: string | undefined;
  updated_at: string | undefined;
  fixed_at: string | null;
  auto_dismissed_at: string | null;
  dismissed_at: string | null;
  dismissed_by_id: number | null;
  dismissed_reason: string | null;
  dismissed_comment: string | null;
}

export class AlertsStore {
  /** The advisories' look-ups: what alerts copy of their advisory comes from there. */
  constructor(private readonly deps: { advisories: Pick<AdvisoryLookupStore, 'packageFactsOf'> }) {}

  /**
   * One page of alerts in keyset order, filtered in SQL, each named by id and version. The
   * list indexes cover the filters and the sort (test/integration/alert-list-plans.test.ts);
   * the version is read from the table for the page's rows only. Whole rows are read later,
   * by `rowsAt`, for the alerts whose answers are not kept already: 22 columns made into
   * objects cost 7 µs a row, the key 1.5 µs (better-sqlite3, measured on the bench world).
   */
  async listKeys(db: Knex, scope: AlertScope, visibility: AlertVisibility, request: AlertListRequest): Promise<KeysetPage<AlertKey>> {
    const sortColumn = SORT_COLUMN[request.sort].column;
    // Several owners (an enterprise): one index range each, merged (keyset.ts).
    const ranges = scope.kind === 'owners' && scope.ownerIds.length > 1 ? scope.ownerIds.map((ownerId): AlertScope => ({ kind: 'owners', ownerIds: [ownerId] })) : [scope];
    const queries = ranges.map((range) => filteredAlerts(db, range, visibility, request.filters).select('a.id', 'a.version', sortColumn));
    const sortKey = sortColumn.slice(2); // the row key: the column without its table alias
    const page = await fetchKeysetPage<Row>(queries, {
      list: alertListName(request.sort, request.direction),
      columns: alertOrder(request.sort, request.direction),
      valuesOf: (row) => [SORT_COLUMN[request.sort].type === 'number' ? Number(row[sortKey]) : row[sortKey], Number(row.id)],
      perPage: request.perPage,
      after: request.after,
      before: request.before,
      fromEnd: request.fromEnd,
    });
    return { ...page, items: page.items.map((row) => ({ id: Number(row.id), version: Number(row.version) })) };
  }

  /** The rows of alerts named by keys, in their order (one statement); an alert deleted since is left out. */
  async rowsAt(db: Executor, keys: ReadonlyArray<Pick<AlertKey, 'id'>>): Promise<AlertRecord[]> {
    const rows = await this.findByIds(db, keys.map((key) => key.id));
    return keys.flatMap((key) => rows.get(key.id) ?? []);
  }

  /** Alerts by id, in the order of `ids` (one statement). */
  async findByIds(db: Executor, ids: readonly number[]): Promise<Map<number, AlertRecord>> {
    if (ids.length === 0) return new Map();
    const rows = await db('dependency_alerts as a').whereIn('a.id', [...ids]).select(ALERT_COLUMNS);
    return new Map(rows.map((row: Row) => { const alert = toAlert(row); return [alert.id, alert]; }));
  }

  /** How many alerts the same scope, visibility and filters cover. */
  async count(db: Knex, scope: AlertScope, visibility: AlertVisibility, filters: AlertFilters): Promise<number> {
    const row = await filteredAlerts(db, scope, visibility, filters).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  /**
   * Every alert a list of `scope` would show, repository by repository (ascending ids), each
   * repository's in number order, in batches of at most `size` that never span two
   * repositories: memory holds a batch whatever the scope's size, and an export can load
   * what it needs of a repository once. Each repository is walked through its unique
   * (repo_id, number) index.
   */
  async *keyBatches(db: Knex, scope: AlertScope, visibility: AlertVisibility, filters: AlertFilters, size: number): AsyncGenerator<{ repoId: number; keys: AlertKey[] }> {
    const repoIds = scope.kind === 'repo'
      ? [scope.repoId]
      : (await filteredAlerts(db, scope, visibility, filters).distinct('a.repo_id').orderBy('a.repo_id')).map((row: Row) => Number(row.repo_id));
    for (const repoId of repoIds) {
      let after = 0;
      for (;;) {
        const rows: Row[] = await filteredAlerts(db, { kind: 'repo', repoId }, visibility, filters)
          .where('a.number', '>', after).orderBy('a.number').limit(size).select('a.id', 'a.version', 'a.number');
        if (rows.length > 0) yield { repoId, keys: rows.map((row) => ({ id: Number(row.id), version: Number(row.version) })) };
        if (rows.length < size) break;
        after = Number(rows.at(-1)!.number);
      }
    }
  }

  /** A repository's alerts counted by state (every state, 0 for none). */
  async countByState(db: Executor, repoId: number): Promise<Record<AlertState, number>> {
    const rows: Array<{ state: AlertState; n: number | string }> = await db('dependency_alerts').where('repo_id', repoId).groupBy('state').select('state').count({ n: '*' });
    const counts = Object.fromEntries(ALERT_STATES.map((state) => [state, 0])) as Record<AlertState, number>;
    for (const row of rows) counts[row.state] = Number(row.n);
    return counts;
  }

  /** Where an alert is, by its id (GraphQL node ids carry ids, REST paths numbers). */
  async locate(db: Executor, alertId: number): Promise<{ repoId: number; number: number } | undefined> {
    const row = await db('dependency_alerts').where('id', alertId).first('repo_id', 'number');
    return row ? { repoId: Number(row.repo_id), number: Number(row.number) } : undefined;
  }

  async findByNumber(db: Executor, repoId: number, number: number, options: { lock?: boolean } = {}): Promise<AlertRecord | undefined> {
    const query = db('dependency_alerts as a').where({ 'a.repo_id': repoId, 'a.number': number }).first(ALERT_COLUMNS);
    const row = await (options.lock ? lockForUpdate(query) : query);
    return row ? toAlert(row) : undefined;
  }

  /** Applies changes and bumps the version, so every change is visible to ETags and cursors. */
  async update(db: Executor, alertId: number, changes: AlertChanges): Promise<void> {
    await db('dependency_alerts').where('id', alertId).update({ ...changes, version: db.raw('version + 1') });
  }

  /** Each alert's assignees with the version of the alert they were read at (one statement). */
  async assigneesAt(db: Executor, alertIds: readonly number[]): Promise<Map<number, AlertAssignees>> {
    const out = new Map<number, AlertAssignees>();
    if (alertIds.length === 0) return out;
    const rows = await db('dependency_alerts as a').leftJoin('dependency_alert_assignees as x', 'x.alert_id', 'a.id')
      .whereIn('a.id', [...alertIds]).orderBy(['a.id', 'x.user_id']).select('a.id', 'a.version', 'x.user_id');
    for (const r of rows) {
      const id = Number(r.id);
      let entry = out.get(id);
      if (entry === undefined) out.set(id, (entry = { version: Number(r.version), userIds: [] }));
      if (r.user_id !== null) entry.userIds.push(Number(r.user_id));
    }
    return out;
  }

  async replaceAssignees(db: Executor, alertId: number, userIds: readonly number[]): Promise<void> {
    await db('dependency_alert_assignees').where('alert_id', alertId).delete();
    if (userIds.length > 0) await db('dependency_alert_assignees').insert(userIds.map((userId) => ({ alert_id: alertId, user_id: userId })));
  }

  /**
   * The advisory facts alerts on these packages copy, by `advisoryPackageKey` (the advisories'
   * look-up, two statements per chunk of advisories). `covered` says whether the advisory names
   * the package at all (a world file may not declare an alert it does not cover).
   */
  async advisoryFactsOf(db: Executor, packages: readonly AdvisoryPackage[]): Promise<Map<string, AdvisoryFacts & { covered: boolean }>> {
    const out = new Map<string, AdvisoryFacts & { covered: boolean }>();
    for (const [key, facts] of await this.deps.advisories.packageFactsOf(db, packages)) {
      out.set(key, {
        severity: facts.severity,
        classification: facts.classification,
        epss_percentage: facts.epssPercentage,
        epss_sort: facts.epssPercentage ?? -1,
        has_patch: facts.hasPatch,
        covered: facts.covered,
      });
    }
    return out;
  }

  /**
   * The organizations with alerts of these advisories, by advisory then organization: whom an
   * advisory's security_advisory events go to.
   */
  async organizationsAlertedBy(db: Executor, advisoryIds: readonly number[]): Promise<Array<{ advisoryId: number; orgId: number }>> {
    const rows: Array<{ advisory_id: number; org_id: number }> = await db('dependency_alerts as a')
      .join('repositories as r', 'r.id', 'a.repo_id')
      .join('organizations as o', 'o.account_id', 'r.owner_id')
      .whereIn('a.advisory_id', [...advisoryIds])
      .distinct('a.advisory_id', 'o.account_id as org_id')
      .orderBy([{ column: 'a.advisory_id' }, { column: 'org_id' }]);
    return rows.map((r) => ({ advisoryId: Number(r.advisory_id), orgId: Number(r.org_id) }));
  }

  async maxNumber(db: Executor, repoId: number): Promise<number> {
    const row = await db('dependency_alerts').where('repo_id', repoId).max({ max: 'number' }).first();
    return Number(row?.max ?? 0);
  }

  /**
   * After advisories' EPSS scores changed (percentage by advisory id): their alerts' copies of
   * the percentage follow (only those: the other copies, has_patch above all, depend on the
   * vulnerability each alert matched). Only advisories with alerts are written (one look-up per batch).
   */
  async refreshEpss(db: Executor, percentages: ReadonlyMap<number, number | null>): Promise<void> {
    if (percentages.size === 0) return;
    const withAlerts: Array<{ advisory_id: number }> = await db('dependency_alerts').whereIn('advisory_id', [...percentages.keys()]).distinct('advisory_id');
    for (const { advisory_id: id } of withAlerts) {
      const percentage = percentages.get(Number(id)) ?? null;
      await db('dependency_alerts')
        .where('advisory_id', Number(id))
        .whereRaw('epss_percentage is distinct from ?', [percentage])
        .update({ epss_percentage: percentage, epss_sort: percentage ?? -1, version: db.raw('version + 1') });
    }
  }

  /** After advisories changed: their alerts' copies follow, and their versions move. */
  async refreshAdvisoryFacts(db: Executor, advisoryIds: readonly number[]): Promise<void> {
    // One statement per package the advisories' alerts are on (not per alert): a reload of a
    // world with a million alerts reads them once and writes none.
    for (const chunk of chunksOf(advisoryIds, VALUES_PER_IN_LIST)) {
      const rows = await db('dependency_alerts').whereIn('advisory_id', chunk).distinct('advisory_id', 'ecosystem', 'package_name');
      const packages = rows.map((r: Row): AdvisoryPackage => ({ advisoryId: Number(r.advisory_id), ecosystem: r.ecosystem, packageName: r.package_name }));
      const facts = await this.advisoryFactsOf(db, packages);
      for (const p of packages) {
        const found = facts.get(advisoryPackageKey(p));
        if (!found) continue;
        // Advisory-level facts always follow, even when the advisory no longer names the package.
        const { covered: _covered, ...copied } = found;
        await db('dependency_alerts')
          .where({ advisory_id: p.advisoryId, ecosystem: p.ecosystem, package_name: p.packageName })
          .where((differs) => differs
            .whereNot('severity', copied.severity)
            .orWhereNot('classification', copied.classification)
            .orWhereRaw('epss_percentage is distinct from ?', [copied.epss_percentage])
            .orWhereNot('has_patch', copied.has_patch))
          .update({ ...copied, version: db.raw('version + 1') });
      }
    }
  }
}

function filteredAlerts(db: Knex, scope: AlertScope, visibility: AlertVisibility, filters: AlertFilters): Knex.QueryBuilder {
  const query = db('dependency_alerts as a');
  if (scope.kind === 'repo') query.where('a.repo_id', scope.repoId);
  else query.whereIn('a.owner_id', scope.ownerIds);
  if (visibility.repositoryIds !== 'all') query.whereIn('a.repo_id', [...visibility.repositoryIds]);
  if (visibility.publicOnly) query.whereIn('a.repo_id', db('repositories').where('private', false).select('id'));
  applyFilters(db, query, filters);
  return query;
}

/** Every filter of spec §4.4 as SQL; values were validated by the route's schema. */
function applyFilters(db: Knex, query: Knex.QueryBuilder, f: AlertFilters): void {
  const inList = (column: string, values: string[] | undefined) => {
    if (values) query.whereIn(column, values);
  };
  inList('a.classification', f.classification);
  inList('a.state', f.state);
  inList('a.severity', f.severity);
  inList('a.ecosystem', f.ecosystem);
  inList('a.package_name', f.package);
  inList('a.manifest_path', f.manifest);
  inList('a.relationship', f.relationship);
  if (f.scope) query.where('a.scope', f.scope);
  if (f.epssPercentage) {
    if (f.epssPercentage.op === 'between') query.whereBetween('a.epss_percentage', [f.epssPercentage.from, f.epssPercentage.to]);
    else query.where('a.epss_percentage', f.epssPercentage.op, f.epssPercentage.value);
  }
  if (f.hasPatch) query.where('a.has_patch', true);
  if (f.hasDeployment) query.whereExists(db('repository_deployment_records as d').whereRaw('d.repo_id = a.repo_id').select(db.raw('1')));
  if (f.assignee) {
    const assigned = db('dependency_alert_assignees as x').whereRaw('x.alert_id = a.id').select(db.raw('1'));
    if (f.assignee.kind === 'any') query.whereExists(assigned);
    else if (f.assignee.kind === 'none') query.whereNotExists(assigned);
    else query.whereExists(assigned.join('accounts as u', 'u.id', 'x.user_id').whereIn('u.login_key', f.assignee.logins.map((l) => l.toLowerCase())));
  }
  if (f.artifactRegistryUrl || f.artifactRegistry) {
    const records = db('repository_storage_records as s').whereRaw('s.repo_id = a.repo_id').select(db.raw('1'));
    if (f.artifactRegistryUrl) records.whereIn('s.artifact_registry_url', f.artifactRegistryUrl);
    if (f.artifactRegistry) records.whereIn('s.artifact_registry', f.artifactRegistry);
    query.whereExists(records);
  }
  if (f.runtimeRisk) {
    const risks = f.runtimeRisk;
    // runtime_risks is a JSON array of enumerated names: a quoted name matches exactly one element.
    query.whereExists(
      db('repository_deployment_records as d').whereRaw('d.repo_id = a.repo_id').where((q) => {
        for (const risk of risks) q.orWhere('d.runtime_risks', 'like', `%"${risk}"%`);
      }).select(db.raw('1')),
    );
  }
}
