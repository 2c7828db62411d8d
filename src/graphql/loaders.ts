import DataLoader from 'dataloader';
import type { MiddlewareFn } from 'type-graphql';
import type { Principal } from '../auth/principal';
import type { RequestServices } from '../composition';
import type { OrganizationRecord, RepositoryRecord, TeamRecord, UserRecord } from '../modules/accounts/accounts.types';
import type { AttestationSubjectRecord } from '../modules/attestations/attestations.types';
import type { MatchableRange } from '../modules/advisories/affects-matching';
import type { CurrentDependency } from '../modules/dependency-graph/dependency-graph.types';
import type { GraphQLContext } from './context';

const MAX_BATCH = 500;

/** A loader whose batches call a service batch read for this caller, answers aligned to the keys. */
function loaderOf<V>(principal: Principal, read: (principal: Principal, ids: readonly number[]) => Promise<Map<number, V>>, missing: V) {
  return new DataLoader<number, V>(async (ids) => {
    const found = await read(principal, ids);
    return ids.map((id) => found.get(id) ?? missing);
  }, { maxBatchSize: MAX_BATCH });
}

/** Per-request loaders, built for one caller from the services (never shared between callers). */
export function createLoaders(services: RequestServices, principal: Principal) {
  // Services are read when a batch runs: a request's services are built when first used.
  const loaders = {
    accountById: loaderOf<UserRecord | null>(principal, (p, ids) => services.accounts.usersByIds(p, ids), null),
    organizationById: loaderOf<OrganizationRecord | null>(principal, (p, ids) => services.accounts.organizationsByIds(p, ids), null),
    teamById: loaderOf<TeamRecord | null>(principal, (p, ids) => services.accounts.teamsByIds(p, ids), null),
    repositoryById: loaderOf<RepositoryRecord | null>(principal, (p, ids) => services.accounts.repositoriesByIds(p, ids), null),
    attestationSubjectsById: loaderOf<AttestationSubjectRecord[]>(principal, (p, ids) => services.attestations.subjectsByIds(p, ids), []),
    // An alert's dependency paths: each repository's current dependencies read once for all its alerts.
    currentDependenciesByRepoId: loaderOf<CurrentDependency[]>(principal, (p, ids) => services.dependencyAlerts.currentDependenciesByRepoIds(p, ids), []),
    vulnerableRangeById: loaderOf<MatchableRange | null>(principal, (p, ids) => services.dependencyAlerts.vulnerableRangesByIds(p, ids), null),
  };
  return {
    ...loaders,
    /** Forgets what was loaded: after a write, the rest of the request reads what is now there. */
    clearAll(): void {
      for (const loader of Object.values(loaders)) loader.clearAll();
    },
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

/** On a mutation resolver class: once a mutation has run, later fields load afresh. */
export const clearLoadersAfter: MiddlewareFn<GraphQLContext> = async ({ context }, next) => {
  try {
    return await next();
  } finally {
    context.loaders.clearAll();
  }
};
