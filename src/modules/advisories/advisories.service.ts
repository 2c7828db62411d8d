import type { Knex } from 'knex';
import type { Authorizer } from '../../auth/authorizer';
import type { Principal } from '../../auth/principal';
import type { KeysetPage } from '../../database/keyset';
import { NotFoundError } from '../../errors/domain';
import type { BatchLookup } from '../../cache/cached-batch';
import { affectsQuery, lookupKeys, matchingAdvisoryIds, type MatchableRange } from './affects-matching';
import type { AdvisoryIdPage, GlobalAdvisoriesStore } from './advisories.store';
import type { AdvisoryListRequest, GlobalAdvisory } from './advisories.types';

export interface AdvisoryPage extends KeysetPage<GlobalAdvisory> {
  /** The size of the whole list, when asked for. */
  total: number | undefined;
}

export interface AdvisoriesDeps {
  db: Knex;
  /** The catalogue's requirement decides who may read (today: anyone), as for every operation. */
  authorizer: Pick<Authorizer, 'assertAllowed'>;
  advisories: GlobalAdvisoriesStore;
  /** Whole advisories by id: the alerts' look-up (cached per reference version in composition.ts). */
  advisoriesByIds: BatchLookup<GlobalAdvisory>;
  /** Vulnerability rows by id, compiled for matching (cached per reference version in composition.ts). */
  matchableRangesByIds: BatchLookup<MatchableRange>;
}

/**
 * The global advisory database as REST and GraphQL read it: public reference data (the
 * catalogue's requirement lets every caller, with or without a token, read all of it).
 */
export class AdvisoriesService {
  constructor(private readonly deps: AdvisoriesDeps) {}

  async list(principal: Principal, request: AdvisoryListRequest): Promise<AdvisoryPage> {
    const { db, advisories } = this.deps;
    await this.deps.authorizer.assertAllowed(db, principal, 'listGlobalAdvisories', null);
    const { affects, ecosystem } = request.filters;
    if (affects === undefined) return this.withAdvisories(await advisories.page(db, request));
    const query = affectsQuery(affects, ecosystem);
    const rows = await advisories.rowsOfPackages(db, lookupKeys(query));
    const ranges = await this.deps.matchableRangesByIds(db, rows.map((row) => row.id));
    const ids = matchingAdvisoryIds(query, rows, ranges);
    if (ids.length === 0) return { items: [], next: undefined, prev: undefined, total: request.withTotal ? 0 : undefined };
    return this.withAdvisories(await advisories.page(db, request, ids));
  }

  /** One advisory by its svcsa_id; unknown: 404. */
  async get(principal: Principal, svcsaId: string): Promise<GlobalAdvisory> {
    const { db, advisories, advisoriesByIds } = this.deps;
    await this.deps.authorizer.assertAllowed(db, principal, 'getGlobalAdvisory', null);
    const id = await advisories.idBySvcsaId(db, svcsaId);
    const advisory = id === undefined ? undefined : (await advisoriesByIds(db, [id])).get(id);
    if (!advisory) throw new NotFoundError();
    return advisory;
  }

  /** A page of ids as the advisories they name. */
  private async withAdvisories(page: AdvisoryIdPage): Promise<AdvisoryPage> {
    const records = await this.deps.advisoriesByIds(this.deps.db, page.items);
    return { ...page, items: page.items.map((id) => records.get(id)!) };
  }
}
