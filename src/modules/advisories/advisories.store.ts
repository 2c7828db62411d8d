import type { Knex } from 'knex';
import { isPostgres } from '../../database/dialect';
import { fetchKeysetPage, type KeysetPage } from '../../database/keyset';
import type { Executor } from '../../database/transaction';
import { parseJsonColumn } from '../../shared/json';
import { advisoryListName, advisoryOrder, sortValuesOf } from './advisories.cursors';
import type { AdvisoryFilters, AdvisoryListRequest, EpssFilter, TimeRange } from './advisories.types';
import type { OsvRange } from './osv';
import { chunksOf } from '../../shared/chunks';

type Row = Record<string, any>;

/** What matching a package needs of one stored vulnerability row. */
export interface StoredVulnerableRange {
  id: number;
  advisoryId: number;
  ecosystem: string;
  packageKey: string;
  vulnerableVersionRange: string;
  /** OSV ranges and versions; ranges null for rows of world files (their range text is parsed). */
  affected: { ranges: readonly OsvRange[] | null; versions: readonly string[] };
}

/** A vulnerability row of a package, as the package index gives it. */
export interface PackageRow {
  id: number;
  ecosystem: string;
  packageKey: string;
}

/** Keys per statement of a package look-up: well under every dialect's bound-parameter limit. */
const LOOKUP_BATCH = 500;

/** What the keyset order reads of a row (the sort keys of advisoriesWithSortKeys). */
const PAGE_COLUMNS = ['a.id', 'a.published_at', 'a.updated_at', 'a.epss_percentage_sort', 'a.epss_percentile_sort'];

/** A page of the list as advisory ids, with the whole list's size when asked for. */
export type AdvisoryIdPage = KeysetPage<number> & { total: number | undefined };

/**
 * The global advisory list's reads (the rows the importer and world files write): which
 * advisories, by id. Whole advisories come from advisories.lookup-store.ts, as alerts' do (the
 * service's `advisoriesByIds`, cached per reference version in composition.ts).
 */
export class GlobalAdvisoriesStore {
  /** The id of the advisory with this svcsa_id, if any. */
  async idBySvcsaId(db: Executor, svcsaId: string): Promise<number | undefined> {
    // Identifiers are matched as written by the source, case aside (GHSA ids are lower-case after the prefix).
    const row = await db('advisories').whereRaw('lower(svcsa_id) = ?', [svcsaId.toLowerCase()]).first('id');
    return row ? Number(row.id) : undefined;
  }

  /**
   * The vulnerability rows of these packages, by (ecosystem, normalized name): the `affects`
   * candidates. Only what the (ecosystem, package_key) index holds is read: their ranges come
   * by id (rangesByIds), which composition.ts caches.
   */
  async rowsOfPackages(db: Executor, keys: ReadonlyMap<string, readonly string[]>): Promise<PackageRow[]> {
    const found: PackageRow[] = [];
    for (const [ecosystem, packageKeys] of keys) {
      for (const chunk of chunksOf(packageKeys, LOOKUP_BATCH)) {
        // One ecosystem per statement: an equality and an IN list, which the index serves alone.
        const rows = await db('advisory_vulnerabilities')
          .where('ecosystem', ecosystem)
          .whereIn('package_key', chunk)
          .select('id', 'package_key');
        for (const r of rows) found.push({ id: Number(r.id), ecosystem, packageKey: r.package_key });
      }
    }
    return found;
  }

  /** What matching needs of vulnerability rows, by id. */
  async rangesByIds(db: Executor, ids: readonly number[]): Promise<Map<number, StoredVulnerableRange>> {
    const found = new Map<number, StoredVulnerableRange>();
    for (const chunk of chunksOf(ids, LOOKUP_BATCH)) {
      const rows = await db('advisory_vulnerabilities').whereIn('id', chunk)
        .select('id', 'advisory_id', 'ecosystem', 'package_key', 'vulnerable_version_range', 'ranges', 'versions');
      for (const r of rows) {
        found.set(Number(r.id), {
          id: Number(r.id), advisoryId: Number(r.advisory_id), ecosystem: r.ecosystem, packageKey: r.package_key, vulnerableVersionRange: r.vulnerable_version_range,
          affected: { ranges: parseJsonColumn(r.ranges, null), versions: parseJsonColumn(r.versions, []) },
        });
      }
    }
    return found;
  }

  /** One page of the list, as advisory ids; `advisoryIds` restricts it to those (what `affects` matched). */
  async page(db: Executor, request: AdvisoryListRequest, advisoryIds?: readonly number[]): Promise<AdvisoryIdPage> {
    const { sort, direction } = request;
    const query = filtered(db, request.filters, advisoryIds).select(PAGE_COLUMNS);
    const page = await fetchKeysetPage<Row>(query, {
      list: advisoryListName(sort, direction),
      columns: advisoryOrder(sort, direction),
      valuesOf: (row) => sortValuesOf(row, sort),
      perPage: request.perPage,
      after: request.after,
      before: request.before,
      fromEnd: request.fromEnd,
    });
    const total = request.withTotal ? Number((await filtered(db, request.filters, advisoryIds).count({ n: '*' }).first())?.n ?? 0) : undefined;
    return { ...page, items: page.items.map((row) => Number(row.id)), total };
  }
}

/**
 * The advisories table as `a`, with the EPSS sort keys the keyset order needs (non-null:
 * an advisory without a score sorts as -1). `epss_percentile` is stored as the text the
 * source gives; DOUBLE PRECISION is a type name both dialects cast to a float.
 */
function advisoriesWithSortKeys(db: Executor): Knex.QueryBuilder {
  return db.queryBuilder().from(
    db('advisories').select('*',
      db.raw('coalesce(epss_percentage, -1) as epss_percentage_sort'),
      db.raw('coalesce(cast(epss_percentile as double precision), -1) as epss_percentile_sort'))
      .as('a'),
  );
}

function filtered(db: Executor, filters: AdvisoryFilters, advisoryIds: readonly number[] | undefined): Knex.QueryBuilder {
  const q = advisoriesWithSortKeys(db);
  q.whereIn('a.type', [...filters.types]);
  if (filters.svcsaId !== undefined) q.whereRaw('lower(a.svcsa_id) = ?', [filters.svcsaId.toLowerCase()]);
  if (filters.cveId !== undefined) q.where('a.cve_id', filters.cveId);
  if (filters.severity !== undefined) q.where('a.severity', filters.severity);
  if (filters.isWithdrawn !== undefined) q.where((w) => (filters.isWithdrawn ? w.whereNotNull('a.withdrawn_at') : w.whereNull('a.withdrawn_at')));
  if (filters.ecosystem !== undefined) {
    q.whereExists(db('advisory_vulnerabilities as v').whereRaw('v.advisory_id = a.id').where('v.ecosystem', filters.ecosystem).select(db.raw('1')));
  }
  // cwes is the JSON array the writers store with JSON.stringify: `"cwe_id":"CWE-79"` occurs exactly when listed.
  if (filters.cwes !== undefined) q.where((w) => { for (const cwe of filters.cwes!) w.orWhere('a.cwes', 'like', `%"cwe_id":"${cwe}"%`); });
  if (filters.published) whereIn(q, 'a.published_at', filters.published);
  if (filters.updated) whereIn(q, 'a.updated_at', filters.updated);
  if (filters.modified) q.where((w) => { whereIn(w, 'a.published_at', filters.modified!); w.orWhere((o) => whereIn(o, 'a.updated_at', filters.modified!)); });
  if (filters.epssPercentage) whereEpss(q, 'a.epss_percentage', filters.epssPercentage);
  if (filters.epssPercentile) whereEpss(q, db.raw('cast(a.epss_percentile as double precision)'), filters.epssPercentile);
  if (advisoryIds !== undefined) whereIdIn(q, advisoryIds);
  return q;
}

function whereIn(q: Knex.QueryBuilder, column: string, range: TimeRange): void {
  q.where((w) => {
    if (range.from !== undefined) w.where(column, '>=', range.from);
    if (range.until !== undefined) w.where(column, '<', range.until);
  });
}

function whereEpss(q: Knex.QueryBuilder, column: string | Knex.Raw, filter: EpssFilter): void {
  if (filter.op === 'between') q.whereBetween(column as string, [filter.from, filter.to]);
  else q.where(column as string, filter.op, filter.value);
}

/**
 * `a.id` among many ids (up to the whole table) as one bound value, not one parameter each:
 * PostgreSQL takes an array, SQLite a JSON array it reads with json_each.
 */
function whereIdIn(q: Knex.QueryBuilder, ids: readonly number[]): void {
  if (isPostgres(q)) q.whereRaw('a.id = any(?::integer[])', [ids as number[]]);
  else q.whereRaw('a.id in (select value from json_each(?))', [JSON.stringify(ids)]);
}
