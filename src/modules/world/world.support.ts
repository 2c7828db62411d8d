import type { Knex } from 'knex';
import { canonicalJson } from '../../shared/canonical-json';
import { chunksOf, VALUES_PER_IN_LIST } from '../../shared/chunks';
import { nameKey, type AccountsStore } from '../accounts/accounts.store';
import { normalizeTimestamp } from '../../shared/time';
import type { OrganizationRecord, RepositoryRecord, UserRecord } from '../accounts/accounts.types';

/** A world file that cannot be loaded; the message names the entry. Nothing was written. */
export class WorldError extends Error {}

export function fail(entry: string, message: string): never {
  throw new WorldError(`${entry}: ${message}`);
}

/** Drops undefined values, so an update touches only the keys a world file gives. */
export function defined<T extends Record<string, unknown>>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * Makes the rows of `table` within `scope` exactly `rows`, comparing on `columns`.
 * Rewrites nothing when they are already equal, so reloading a file changes nothing.
 */
export async function replaceSet(
  trx: Knex.Transaction,
  table: string,
  scope: Record<string, unknown>,
  rows: Array<Record<string, unknown>>,
  columns: string[],
): Promise<void> {
  const [[scopeColumn, scopeValue]] = Object.entries(scope) as [[string, string | number]];
  await replaceSets(trx, table, scopeColumn, new Map([[scopeValue, rows]]), columns);
}

/**
 * `replaceSet` for many scopes of one column at once (a batch of advisories' vulnerabilities):
 * one read of what they hold, one delete of the sets that differ, their rows inserted in chunks.
 */
export async function replaceSets(
  trx: Knex.Transaction,
  table: string,
  scopeColumn: string,
  sets: ReadonlyMap<string | number, Array<Record<string, unknown>>>,
  columns: string[],
): Promise<void> {
  const project = (r: Record<string, unknown>) => canonicalJson(columns.map((c) => (r[c] === undefined ? null : r[c])));
  const have = new Map<string, string[]>();
  for (const chunk of chunksOf([...sets.keys()], VALUES_PER_IN_LIST)) {
    for (const row of await trx(table).whereIn(scopeColumn, chunk).select(columns)) {
      const key = String(row[scopeColumn]);
      let stored = have.get(key);
      if (stored === undefined) have.set(key, (stored = []));
      stored.push(project(normalizeRow(row)));
    }
  }
  const differing = [...sets].filter(([scope, rows]) => {
    const want = rows.map((r) => project({ [scopeColumn]: scope, ...r })).sort();
    const stored = (have.get(String(scope)) ?? []).sort();
    return want.length !== stored.length || want.some((w, i) => w !== stored[i]);
  });
  for (const chunk of chunksOf(differing.map(([scope]) => scope), VALUES_PER_IN_LIST)) await trx(table).whereIn(scopeColumn, chunk).delete();
  const inserts = differing.flatMap(([scope, rows]) => rows.map((r) => ({ [scopeColumn]: scope, ...r })));
  // Not knex's batchInsert: it waits a 1 ms timer and opens a savepoint per call (20,000 advisories: 20 s idle).
  for (const chunk of chunksOf(inserts, ROWS_PER_INSERT)) await trx(table).insert(chunk);
}

// Under both dialects' bound-parameter limits for the widest table a world replaces (10 columns).
const ROWS_PER_INSERT = 500;

/** SQLite answers booleans as 0/1 and numbers as numbers; PostgreSQL as booleans. */
function normalizeRow(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? 1 : 0) : v]));
}

const STORED_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** A declared time in the stored form; null when the file gives none (validated: always parsable). */
export function storedTimestamp(value: string | null | undefined): string | null {
  if (!value) return null;
  // Most files give times in the stored form already: a million of them need no Date.
  return STORED_FORM.test(value) ? value : normalizeTimestamp(value)!;
}

export function booleanColumn(value: boolean | undefined): number | undefined {
  return value === undefined ? undefined : value ? 1 : 0;
}

/** Resolves world references (to rows in the file or already in the database), with caches. */
export class References {
  private readonly users = new Map<string, UserRecord | undefined>();
  private readonly orgs = new Map<string, OrganizationRecord | undefined>();
  private readonly repos = new Map<string, RepositoryRecord | undefined>();

  constructor(private readonly trx: Knex.Transaction, private readonly accounts: AccountsStore) {}

  async user(entry: string, login: string): Promise<UserRecord> {
    const key = nameKey(login);
    if (!this.users.has(key)) this.users.set(key, await this.accounts.findUserByLogin(this.trx, login));
    return this.users.get(key) ?? fail(entry, `user "${login}" does not exist`);
  }

  async org(entry: string, login: string): Promise<OrganizationRecord> {
    const key = nameKey(login);
    if (!this.orgs.has(key)) this.orgs.set(key, await this.accounts.findOrganizationByLogin(this.trx, login));
    return this.orgs.get(key) ?? fail(entry, `organization "${login}" does not exist`);
  }

  async repo(entry: string, ref: string): Promise<RepositoryRecord> {
    const key = nameKey(ref);
    if (!this.repos.has(key)) {
      const [owner, name] = ref.split('/') as [string, string];
      this.repos.set(key, await this.accounts.findRepository(this.trx, owner, name));
    }
    return this.repos.get(key) ?? fail(entry, `repository "${ref}" does not exist`);
  }

  /** Forget cached look-ups after the rows they describe were written. */
  clear(): void {
    this.users.clear();
    this.orgs.clear();
    this.repos.clear();
  }
}
