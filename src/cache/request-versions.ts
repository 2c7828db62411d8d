import { AsyncLocalStorage } from 'node:async_hooks';
import type { DataVersions } from '../database/data-version';
import type { Executor } from '../database/transaction';

// The data versions the current request read first, where the caches wrapped around stores
// (built in composition.ts) can see them without any service passing them along: services
// take (principal, input) and nothing else. AsyncLocalStorage rather than per-request
// service objects: the caches are shared and long-lived, the request's versions are one
// value, and a wrapper that finds none (outside a request, or a context a callback lost)
// simply reads the database: never a stale answer, at worst a slower one.

interface RequestVersions {
  versions: DataVersions | undefined;
}

const storage = new AsyncLocalStorage<RequestVersions>();

/** Runs `work` (and everything it awaits) with the request's versions; undefined: none. */
export function withDataVersions<T>(versions: DataVersions | undefined, work: () => T): T {
  return storage.run({ versions }, work);
}

/**
 * The versions what `db` reads may be cached under: none inside a write transaction (it
 * sees its own writes) or once the request has begun writing.
 */
export function cacheableVersions(db?: Executor): DataVersions | undefined {
  if (db?.isTransaction) return undefined;
  return storage.getStore()?.versions;
}

/** From here on the request reads the database: what it writes must show in what it reads back (GraphQL mutations). */
export function stopCachedReads(): void {
  const scope = storage.getStore();
  if (scope) scope.versions = undefined;
}
