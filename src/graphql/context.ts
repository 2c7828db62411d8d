import type { Principal } from '../auth/principal';
import type { Services } from '../composition';
import type { DataVersions } from '../database/data-version';
import type { RateLimitCaller } from '../rate-limits/rate-limit.policy';
import type { Loaders } from './loaders';
import type { GraphQLAnswerSlot } from './answer-cache';

/** What every resolver gets: the caller (authenticated once), the services, and this request's loaders. */
export interface GraphQLContext {
  principal: Principal;
  services: Services;
  loaders: Loaders;
  /** The origin URL fields are built from, as in REST answers. */
  apiBase: string;
  /** Who this request's writes are counted against. */
  rateLimitCaller: RateLimitCaller;
  /** The data versions the request read first (src/database/data-version.ts): what is kept in memory belongs to one. */
  dataVersions: DataVersions | undefined;
  /** Where this query's answer goes for the response cache, when it may be kept. */
  answerSlot?: GraphQLAnswerSlot | undefined;
}
