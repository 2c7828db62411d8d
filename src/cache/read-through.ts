import type { VersionedCache } from './versioned-cache';

/** Answers `keys` from `cache` at `version`; the missing ones are loaded together and kept. */
export async function readThrough<K, V extends {}>(
  cache: VersionedCache<V>, version: number, keys: readonly K[], keyOf: (key: K) => string, load: (missing: K[]) => Promise<Map<K, V>>,
): Promise<Map<K, V>> {
  const found = new Map<K, V>();
  const missing: K[] = [];
  for (const key of new Set(keys)) {
    const hit = cache.get(version, keyOf(key));
    if (hit === undefined) missing.push(key);
    else found.set(key, hit);
  }
  if (missing.length > 0) {
    for (const [key, value] of await load(missing)) {
      cache.set(version, keyOf(key), value);
      found.set(key, value);
    }
  }
  return found;
}
