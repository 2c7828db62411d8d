import type { AtVersions } from '../../cache/at-versions';
import type { CacheBudget } from '../../cache/cache-budget';
import { VersionedCache, entryBytes } from '../../cache/versioned-cache';
import type { JsonFragment } from '../../shared/json-fragments';
import type { AlertFragments, AlertJson } from './alerts.serializers';

// The caches of the REST alert JSON, wrapped around the serializer's own functions in
// composition/index.ts: the accounts a page shows are the same again and again, and a polled
// page the same alerts. Bound to no versions (a write), or inside a transaction, they build afresh.

/** Account fragments kept per reference version (the rows they come from) and API base. */
export function cachedFragments(fragments: AlertFragments, budget: CacheBudget): AtVersions<AlertFragments> {
  const cache = new VersionedCache<JsonFragment>({
    maxSize: budget.maxBytes, sizeOf: (fragment, key) => 96 + fragment.bytes.length + entryBytes(key), report: budget.report,
  });
  return (versions) => {
    const version = versions?.reference;
    if (version === undefined) return fragments;
    const cached = (key: string, serialize: () => JsonFragment): JsonFragment => {
      let fragment = cache.get(version, key);
      if (fragment === undefined) {
        fragment = serialize();
        cache.set(version, key, fragment);
      }
      return fragment;
    };
    return {
      repository: (base, repository) => cached(`r:${base}:${repository.id}`, () => fragments.repository(base, repository)),
      user: (base, user) => cached(`u:${base}:${user.id}`, () => fragments.user(base, user)),
    };
  };
}

/**
 * Each alert's parts kept per version of the alert (its row and assignees: see the
 * 20261127110000 migration) and of the records it refers to (`reference`): a write to one
 * alert leaves every other alert's parts in place, and only the alerts not kept are loaded
 * (their rows among them) and written. Counted at every byte the parts hold, the shared
 * fragments at odd positions too: a kept alert keeps its advisory's JSON alive after
 * `advisory json` drops it (counted as shared, 20 MB of alerts held 52 MB: test/bench/README.md).
 */
export function cachedAlertJson(jsonAt: AtVersions<AlertJson>, budget: CacheBudget): AtVersions<AlertJson> {
  const cache = new VersionedCache<Buffer[]>({
    maxSize: budget.maxBytes, sizeOf: (parts, key) => parts.reduce((n, p) => n + p.length + 48, 224 + entryBytes(key)),
    report: budget.report,
  });
  return (versions) => {
    const json = jsonAt(versions);
    const version = versions?.reference;
    if (version === undefined) return json;
    return async (db, base, keys, options) => {
      if (db.isTransaction) return json(db, base, keys, options);
      const keyOf = (id: number, alertVersion: number) => `${base}\n${options.withRepository}\n${id}\n${alertVersion}`;
      const kept = keys.map(({ id, version: alertVersion }) => cache.get(version, keyOf(id, alertVersion)));
      const missing = keys.filter((_key, i) => kept[i] === undefined);
      if (missing.length === 0) return keys.map(({ id, version: alertVersion }, i) => ({ id, version: alertVersion, parts: kept[i]! }));
      const built = new Map((await json(db, base, missing, options)).map((alert) => [alert.id, alert]));
      return keys.flatMap(({ id, version: alertVersion }, i) => {
        const parts = kept[i];
        if (parts !== undefined) return [{ id, version: alertVersion, parts }];
        const fresh = built.get(id);
        if (fresh === undefined) return []; // deleted since the list was read
        // Kept at the version it was written from (newer than the list's, if it changed meanwhile).
        cache.set(version, keyOf(fresh.id, fresh.version), fresh.parts);
        return [fresh];
      });
    };
  };
}
