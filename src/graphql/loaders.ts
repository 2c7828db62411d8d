import DataLoader from 'dataloader';
import type { Services } from '../composition';
import type { OrganizationRecord, RepositoryRecord, TeamRecord, UserRecord } from '../modules/accounts/accounts.types';

const MAX_BATCH = 500;

/** Per-request loaders (never shared between callers), batching look-ups of related rows. */
export function createLoaders(services: Services) {
  const { accounts, attestations } = services.stores;
  const db = services.database.knex;
  return {
    accountById: new DataLoader<number, UserRecord | null>(async (ids) => {
      const found = new Map((await accounts.findAccountsByIds(db, ids)).map((a) => [a.id, a]));
      return ids.map((id) => found.get(id) ?? null);
    }, { maxBatchSize: MAX_BATCH }),
    organizationById: new DataLoader<number, OrganizationRecord | null>(async (ids) => {
      const found = new Map((await accounts.findOrganizationsByIds(db, ids)).map((o) => [o.id, o]));
      return ids.map((id) => found.get(id) ?? null);
    }, { maxBatchSize: MAX_BATCH }),
    teamById: new DataLoader<number, TeamRecord | null>(async (ids) => {
      const found = new Map((await accounts.findTeamsByIds(db, ids)).map((t) => [t.id, t]));
      return ids.map((id) => found.get(id) ?? null);
    }, { maxBatchSize: MAX_BATCH }),
    attestationSubjectsById: new DataLoader<number, Array<{ digest: string; name: string | null }>>(async (ids) => {
      const found = await attestations.subjectsOf(db, ids);
      return ids.map((id) => found.get(id) ?? []);
    }, { maxBatchSize: MAX_BATCH }),
    repositoryById: new DataLoader<number, RepositoryRecord | null>(async (ids) => {
      const found = await accounts.findRepositoriesByIds(db, ids);
      return ids.map((id) => found.get(id) ?? null);
    }, { maxBatchSize: MAX_BATCH }),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
