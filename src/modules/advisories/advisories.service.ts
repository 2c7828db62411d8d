import type { Knex } from 'knex';
import type { Authorizer } from '../../auth/authorizer';
import type { Principal } from '../../auth/principal';
import type { KeysetPage } from '../../database/keyset';
import { NotFoundError } from '../../errors/domain';
import type { BatchLookup } from '../../cache/cached-batch';
import { affectsQuery, lookupKeys, matchingAdvisoryIds, type MatchableRange } from './affects-matching';
import type { GlobalAdvisoriesStore } from './advisories.store';
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
    if (affects === undefined) return advisories.page(db, request);
    const query = affectsQuery(affects, ecosystem);
    const rows = await advisories.rowsOfPackages(db, lookupKeys(query));
    const ranges = await this.deps.matchableRangesByIds(db, rows.map((row) => row.id));
    const ids = matchingAdvisoryIds(query, rows, ranges);
    if (ids.length === 0) return { items: [], next: undefined, prev: undefined, total: request.withTotal ? 0 : undefined };
    return advisories.page(db, request, ids);
  }

  /** One advisory by its svcsa_id; unknown: 404. */
  async get(principal: Principal, svcsaId: string): Promise<GlobalAdvisory> {
    await this.deps.authorizer.assertAllowed(this.deps.db, principal, 'getGlobalAdvisory', null);
    const advisory = await this.deps.advisories.findBySvcsaId(this.deps.db, svcsaId);
    if (!advisory) throw new NotFoundError();
    return advisory;
  }
}
