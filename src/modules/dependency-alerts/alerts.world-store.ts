import type { Knex } from 'knex';
import { deferIndexes, deferTriggers, isPostgres } from '../../database/dialect';
import { runRepeated } from '../../database/statements';
import type { Executor } from '../../database/transaction';
import type { WorldAlert } from './alerts.store';
import { chunksOf } from '../../shared/chunks';

// The batched reads and writes of `orgsec load`: a batch of declared alerts costs a handful
// of statements instead of several per alert.

type Row = Record<string, any>;

/** The key of a declared alert given with a number. */
export interface NumberKey {
  repo_id: number;
  number: number;
}

/** What makes an alert declared without a number the same alert. */
export interface IdentityKey {
  repo_id: number;
  advisory_id: number;
  ecosystem: string;
  package_name: string;
  manifest_path: string;
}

/** A stored alert with the columns a world file declares, for comparison. */
export type StoredWorldAlert = Row & { id: number; number: number };

// SQLite binds at most 32,766 parameters per statement; PostgreSQL 65,535.
const MAX_PARAMETERS = 30_000;

const WORLD_COLUMNS: Array<keyof WorldAlert> = [
  'repo_id', 'owner_id', 'advisory_id', 'ecosystem', 'package_name', 'manifest_path', 'scope', 'relationship', 'state',
  'created_at', 'updated_at', 'fixed_at', 'auto_dismissed_at', 'dismissed_at', 'dismissed_by_id', 'dismissed_reason',
  'dismissed_comment', 'severity', 'classification', 'epss_percentage', 'epss_sort', 'has_patch',
];

const IDENTITY_COLUMNS = ['repo_id', 'advisory_id', 'ecosystem', 'package_name', 'manifest_path'] as const;

export function numberKeyOf(key: NumberKey): string {
  return `${key.repo_id}#${key.number}`;
}

export function identityKeyOf(key: IdentityKey): string {
  return IDENTITY_COLUMNS.map((c) => key[c]).join('\u0000');
}

// Statements of one text per chunk size, so SQLite prepares each once (see runRepeated).
const CHUNK_ROWS = 250;

const SELECT_COLUMNS = ['id', 'number', ...WORLD_COLUMNS].join(', ');

/** Stored alerts by (repository, number), keyed by `numberKeyOf`. */
export async function findAlertsByNumber(trx: Knex.Transaction, keys: readonly NumberKey[]): Promise<Map<string, StoredWorldAlert>> {
  const found = new Map<string, StoredWorldAlert>();
  for (const chunk of chunksOf(keys, CHUNK_ROWS)) {
    const rows = await runRepeated(trx, ...byNumberQuery(trx, chunk));
    for (const row of rows) found.set(numberKeyOf({ repo_id: Number(row.repo_id), number: Number(row.number) }), row as StoredWorldAlert);
  }
  return found;
}

/**
 * Dialect branch: PostgreSQL joins two arrays of keys, which it looks up in the unique index
 * one by one (a list of row values it plans slowly, a VALUES table it hash-joins against a
 * scan of the whole table); SQLite looks each row value of a list up in the index.
 */
function byNumberQuery(trx: Knex.Transaction, keys: readonly NumberKey[]): [string, unknown[]] {
  if (isPostgres(trx)) {
    const columns = SELECT_COLUMNS.split(', ').map((c) => `a.${c}`).join(', ');
    return [
      `select ${columns} from dependency_alerts a join unnest(?::integer[], ?::integer[]) as k(repo_id, number) on a.repo_id = k.repo_id and a.number = k.number`,
      [keys.map((k) => k.repo_id), keys.map((k) => k.number)],
    ];
  }
  return [
    `select ${SELECT_COLUMNS} from dependency_alerts where (repo_id, number) in (${keys.map(() => '(?, ?)').join(', ')})`,
    keys.flatMap((k) => [k.repo_id, k.number]),
  ];
}

/** Stored alerts by identity, keyed by `identityKeyOf`: the lowest-numbered one when several match. */
export async function findAlertsByIdentity(db: Executor, keys: readonly IdentityKey[]): Promise<Map<string, StoredWorldAlert>> {
  const found = new Map<string, StoredWorldAlert>();
  for (const chunk of chunksOf(keys, Math.floor(MAX_PARAMETERS / IDENTITY_COLUMNS.length))) {
    const rows = await db('dependency_alerts')
      .whereIn([...IDENTITY_COLUMNS], chunk.map((k) => IDENTITY_COLUMNS.map((c) => k[c])))
      .orderBy('number')
      .select('id', 'number', ...WORLD_COLUMNS);
    for (const row of rows) {
      const key = identityKeyOf({ ...row, repo_id: Number(row.repo_id), advisory_id: Number(row.advisory_id) } as IdentityKey);
      if (!found.has(key)) found.set(key, row);
    }
  }
  return found;
}

export type NewWorldAlert = Omit<WorldAlert, 'number' | 'created_at' | 'updated_at'> & { number: number; created_at: string; updated_at: string };

const INSERT_COLUMNS = [...WORLD_COLUMNS, 'number'] as const;

// The PostgreSQL type of each inserted column, for the arrays it inserts from.
const PG_TYPES: Partial<Record<(typeof INSERT_COLUMNS)[number], string>> = {
  repo_id: 'integer', owner_id: 'integer', advisory_id: 'integer', dismissed_by_id: 'integer', number: 'integer',
  epss_percentage: 'double precision', epss_sort: 'double precision', has_patch: 'boolean',
};

/** Inserts alerts with multi-row statements; answers their ids keyed by `numberKeyOf`. */
export async function insertAlerts(trx: Knex.Transaction, rows: readonly NewWorldAlert[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const chunk of chunksOf(rows, CHUNK_ROWS)) {
    // Ids are matched back by (repo_id, number), not by position: neither dialect promises RETURNING order.
    for (const row of await runRepeated(trx, ...insertQuery(trx, chunk))) {
      ids.set(numberKeyOf({ repo_id: Number(row.repo_id), number: Number(row.number) }), Number(row.id));
    }
  }
  return ids;
}

/**
 * Dialect branch: PostgreSQL inserts from one array per column (23 parameters, whatever the
 * rows); SQLite from a VALUES list (knex would compile a compound SELECT, capped at 500 terms).
 * RETURNING exists on both (SQLite since 3.35).
 */
function insertQuery(trx: Knex.Transaction, rows: readonly NewWorldAlert[]): [string, unknown[]] {
  const into = `insert into dependency_alerts (${INSERT_COLUMNS.join(', ')})`;
  if (isPostgres(trx)) {
    const arrays = INSERT_COLUMNS.map((c) => `?::${PG_TYPES[c] ?? 'text'}[]`).join(', ');
    return [
      `${into} select * from unnest(${arrays}) returning id, repo_id, number`,
      INSERT_COLUMNS.map((c) => rows.map((row) => row[c] ?? null)),
    ];
  }
  const tuple = `(${INSERT_COLUMNS.map(() => '?').join(', ')})`;
  const bindings: unknown[] = [];
  for (const row of rows) for (const column of INSERT_COLUMNS) bindings.push(row[column] ?? null);
  return [`${into} values ${rows.map(() => tuple).join(', ')} returning id, repo_id, number`, bindings];
}

/** Rewrites a stored alert as declared and bumps its version (every change is visible to ETags). */
export async function updateAlert(db: Executor, alertId: number, values: Record<string, unknown>): Promise<void> {
  await db('dependency_alerts').where('id', alertId).update({ ...values, version: db.raw('version + 1') });
}

/** The assignees of many alerts, as sorted user ids. */
export async function assigneesOf(db: Executor, alertIds: readonly number[]): Promise<Map<number, number[]>> {
  const assignees = new Map<number, number[]>(alertIds.map((id) => [id, []]));
  for (const chunk of chunksOf(alertIds, MAX_PARAMETERS)) {
    const rows = await db('dependency_alert_assignees').whereIn('alert_id', chunk).orderBy(['alert_id', 'user_id']).select('alert_id', 'user_id');
    for (const row of rows) assignees.get(Number(row.alert_id))?.push(Number(row.user_id));
  }
  return assignees;
}

/** Makes the assignees of each given alert exactly the given users. */
export async function replaceAssignees(db: Knex.Transaction, assignees: ReadonlyMap<number, readonly number[]>): Promise<void> {
  const alertIds = [...assignees.keys()];
  for (const chunk of chunksOf(alertIds, MAX_PARAMETERS)) await db('dependency_alert_assignees').whereIn('alert_id', chunk).delete();
  await insertAssignees(db, assignees);
}

/** Adds assignees to alerts (each alert's version moves: see migration 20261127110000). */
async function insertAssignees(trx: Knex.Transaction, assignees: ReadonlyMap<number, readonly number[]>): Promise<void> {
  const pairs = [...assignees].flatMap(([alertId, userIds]) => userIds.map((userId) => [alertId, userId]));
  for (const chunk of chunksOf(pairs, CHUNK_ROWS)) {
    await runRepeated(trx, `insert into dependency_alert_assignees (alert_id, user_id) values ${chunk.map(() => '(?, ?)').join(', ')}`, chunk.flat());
  }
}

/**
 * Adds assignees to alerts created in this transaction, with the trigger that moves an alert's
 * version with its assignees left out meanwhile: no cache can hold a state of an alert no
 * committed transaction has shown, and on SQLite the trigger would rewrite each alert row once
 * per assignee (300,000 times in the benchmark's million-alert world).
 */
export async function insertNewAlertsAssignees(trx: Knex.Transaction, assignees: ReadonlyMap<number, readonly number[]>): Promise<void> {
  if (assignees.size === 0) return;
  const restoreTrigger = await deferTriggers(trx, 'dependency_alert_assignees', ['dependency_alert_assignees_version_insert']);
  await insertAssignees(trx, assignees);
  await restoreTrigger();
}

/** Compares stored and declared values across drivers (0/1 booleans, numeric strings). */
function normalized(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === undefined) return null;
  return value;
}

/**
 * What to write over a stored alert so that it is as declared; undefined when it already is,
 * so reloading a world changes nothing. Times the file leaves out stay as stored.
 */
export function changesFromWorld(existing: StoredWorldAlert, alert: WorldAlert): Record<string, unknown> | undefined {
  const { number: _number, ...values } = alert;
  const wanted: Record<string, unknown> = { ...values };
  if (alert.created_at === undefined) wanted.created_at = existing.created_at;
  if (alert.updated_at === undefined) wanted.updated_at = alert.created_at ?? existing.updated_at;
  const differs = Object.entries(wanted).some(([k, v]) => normalized(existing[k]) !== normalized(v));
  return differs ? wanted : undefined;
}

// The indexes the load does not read (only the lists, and deletes of advisories); loading looks alerts up by (repo_id, number).
const DEFERRED_INDEXES = [
  'dependency_alerts_owner_created_index', 'dependency_alerts_owner_updated_index', 'dependency_alerts_owner_epss_index',
  'dependency_alerts_repo_created_index', 'dependency_alerts_repo_updated_index', 'dependency_alerts_repo_epss_index',
  'dependency_alerts_advisory_id_index',
];

// SQLite's data-version triggers fire per row (PostgreSQL's per statement): a million bumps of one counter.
const SQLITE_ROW_VERSION_TRIGGERS: ReadonlyArray<[table: string, trigger: string]> = [
  ['dependency_alerts', 'data_versions_insert_dependency_alerts'],
  ['dependency_alert_assignees', 'data_versions_insert_dependency_alert_assignees'],
];

/**
 * For a bulk insert of alerts: drops the indexes the load does not read and, on SQLite, the
 * triggers that move the data version per inserted row (where that is cheap); answers how to
 * restore them, moving the data version once for all the rows. Measured on SQLite, inserting a
 * million alerts: 11.9 -> 9.0 µs a row without those (the advisory index alone 1.8).
 */
export async function deferBulkInsertWork(trx: Knex.Transaction): Promise<() => Promise<void>> {
  const restoreIndexes = await deferIndexes(trx, 'dependency_alerts', DEFERRED_INDEXES);
  const restoreTriggers: Array<() => Promise<void>> = [];
  if (!isPostgres(trx)) for (const [table, trigger] of SQLITE_ROW_VERSION_TRIGGERS) restoreTriggers.push(await deferTriggers(trx, table, [trigger]));
  return async () => {
    for (const restore of restoreTriggers) await restore();
    if (restoreTriggers.length > 0) await trx('data_versions').where('id', 1).increment('data', 1);
    await restoreIndexes();
  };
}
