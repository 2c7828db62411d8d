import type { AtVersions } from '../../cache/at-versions';
import type { CacheBudget } from '../../cache/cache-budget';
import { VersionedCache, entryBytes } from '../../cache/versioned-cache';
import type { JsonFragment } from '../../shared/json-fragments';
import { SHARED_KINDS, type AlertFragments, type AlertJson, type AlertJsonParts, type BuiltAlertJson, type SharedFragmentRef, type SharedFragments, type SharedIds, type SharedKind } from './alerts.serializers';

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
 * An alert's parts as kept: its own bytes, and in place of each fragment it shares with other
 * alerts (its advisory's, its repository's, its users') what that fragment shows, spliced in
 * again at each page from the caches that hold them. An advisory's JSON (3.7 KB on average in
 * the benchmark's world) and a repository's (4.2 KB) dwarf an alert's own (0.6 KB): kept in
 * each alert they held the cache at a fifth of the alerts its budget allows, or past its
 * budget when counted as shared (test/bench/README.md, 2026-12-06). Numbers, not objects,
 * for the layout: per alert kept, a view per part and an object per fragment cost more heap
 * than the alert's bytes.
 */
interface KeptAlert {
  /** Its own bytes, the pieces between fragments one after the other. */
  own: Buffer;
  /** Per fragment: where the own bytes before it end in `own`, its kind (SHARED_KINDS), id and index; last, `own`'s length. */
  layout: number[];
}

const KIND_CODE = new Map<SharedKind, number>(SHARED_KINDS.map((kind, code) => [kind, code]));

function keptForm(alert: BuiltAlertJson): KeptAlert {
  const pieces: Buffer[] = [];
  const layout: number[] = [];
  let end = 0;
  for (const [i, part] of alert.parts.entries()) {
    const ref = alert.shared.get(i);
    if (ref === undefined) {
      pieces.push(part);
      end += part.length;
    } else layout.push(end, KIND_CODE.get(ref.kind)!, ref.id, ref.index);
  }
  layout.push(end);
  return { own: ownBytes(pieces, end), layout };
}

/** One allocation of its own (json-fragments.ts: a slice of a shared slab would hold the slab). */
function ownBytes(parts: readonly Buffer[], length: number): Buffer {
  const own = Buffer.allocUnsafeSlow(length);
  let offset = 0;
  for (const part of parts) offset += part.copy(own, offset);
  return own;
}

function addIds({ layout }: KeptAlert, ids: SharedIds): void {
  for (let i = 1; i < layout.length; i += 4) {
    const kind = SHARED_KINDS[layout[i]!]!;
    ids[kind === 'vulnerability' ? 'advisory' : kind].add(layout[i + 1]!);
  }
}

/** The alert's parts with the fragments found spliced in; undefined where one is gone (changed since: built again). */
function spliced({ own, layout }: KeptAlert, found: (ref: SharedFragmentRef) => Buffer | undefined): Buffer[] | undefined {
  const parts: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < layout.length; i += 4) {
    const end = layout[i]!;
    if (end > start) parts.push(own.subarray(start, end));
    start = end;
    if (i + 1 >= layout.length) break;
    const bytes = found({ kind: SHARED_KINDS[layout[i + 1]!]!, id: layout[i + 2]!, index: layout[i + 3]! });
    if (bytes === undefined) return undefined;
    parts.push(bytes);
  }
  return parts;
}

/**
 * Each alert's parts kept per version of the alert (its row and assignees: see the
 * 20261127110000 migration) and of the records it refers to (`reference`): a write to one
 * alert leaves every other alert's parts in place, and only the alerts not kept are loaded
 * (their rows among them) and written. Counted at every byte they keep alive: their own.
 */
export function cachedAlertJson(jsonAt: AtVersions<AlertJson<BuiltAlertJson>>, sharedAt: AtVersions<SharedFragments>, budget: CacheBudget): AtVersions<AlertJson> {
  const cache = new VersionedCache<KeptAlert>({
    // Measured in RSS (Node 20, 100,000 alike): a Buffer of its own costs ~560 bytes besides its bytes (its object and
    // native backing store), the layout 8 a number, the entry's object and the LRU's slots ~240.
    maxSize: budget.maxBytes, sizeOf: (kept, key) => 800 + kept.own.length + 8 * kept.layout.length + entryBytes(key), report: budget.report,
  });
  return (versions) => {
    const json = jsonAt(versions);
    const version = versions?.reference;
    if (version === undefined) return json;
    const shared = sharedAt(versions);
    return async (db, base, keys, options) => {
      if (db.isTransaction) return json(db, base, keys, options);
      const keyOf = (id: number, alertVersion: number) => `${base}\n${options.withRepository}\n${id}\n${alertVersion}`;
      const kept = keys.map(({ id, version: alertVersion }) => cache.get(version, keyOf(id, alertVersion)));
      const ids: SharedIds = { advisory: new Set(), repository: new Set(), user: new Set() };
      for (const alert of kept) if (alert !== undefined) addIds(alert, ids);
      const found = kept.every((alert) => alert === undefined) ? undefined : await shared(db, base, ids);
      const hits = keys.map(({ id, version: alertVersion }, i): AlertJsonParts | undefined => {
        const alert = kept[i];
        const parts = alert === undefined || found === undefined ? undefined : spliced(alert, found);
        return parts === undefined ? undefined : { id, version: alertVersion, parts };
      });
      const missing = keys.filter((_key, i) => hits[i] === undefined);
      if (missing.length === 0) return hits as AlertJsonParts[];
      const built = new Map((await json(db, base, missing, options)).map((alert) => [alert.id, alert]));
      return keys.flatMap(({ id }, i) => {
        const hit = hits[i];
        if (hit !== undefined) return [hit];
        const fresh = built.get(id);
        if (fresh === undefined) return []; // deleted since the list was read
        // Kept at the version it was written from (newer than the list's, if it changed meanwhile).
        cache.set(version, keyOf(fresh.id, fresh.version), keptForm(fresh));
        return [fresh];
      });
    };
  };
}
