import { ResponseCache, responseCacheKey } from '../../src/http/response-cache';
import type { CachedResponse } from '../../src/http/send-response';
import type { Principal } from '../../src/auth/principal';

// The response cache's "maybe" index (what the cached-read fast path asks before authenticating)
// follows the responses actually cached: it forgets what was evicted or belongs to an older
// version, so a stream of distinct URLs cannot grow it past the cache's own bounds. A response
// is kept from the second time it is built.

const BASE = 'http://orgsec.test';
const caller = (tokenId: number): Principal => ({ kind: 'app', tokenId } as unknown as Principal);
const responseOf = (bytes: number): CachedResponse => ({ parts: [Buffer.alloc(bytes)], length: bytes, headers: [], route: null });
/** A response built twice: the second time it is kept. */
const keep = (cache: ResponseCache, version: number, token: number, url: string, bytes = 100) => {
  for (let i = 0; i < 2; i++) cache.store(version, responseCacheKey(caller(token), BASE, url), responseOf(bytes));
};

it('keeps a response from the second time it is built, and none of a stream of distinct ones', () => {
  const cache = new ResponseCache(1_000_000);
  const key = responseCacheKey(caller(1), BASE, '/again');
  cache.store(1, key, responseOf(100));
  expect(cache.get(1, key)).toBeUndefined();
  cache.store(1, key, responseOf(100));
  expect(cache.get(1, key)?.length).toBe(100);
  for (let i = 0; i < 20_000; i++) cache.store(1, responseCacheKey(caller(1), BASE, `/once-${i}`), responseOf(100));
  expect([0, 9_999, 19_999].map((i) => cache.mayHold(`${BASE}\n/once-${i}`))).toEqual([false, false, false]);
  expect(cache.get(1, key)?.length).toBe(100); // not evicted by them
});

it('knows a URL while any caller has a response cached for it', () => {
  const cache = new ResponseCache(1_000_000);
  keep(cache, 1, 1, '/a');
  keep(cache, 1, 2, '/a');
  expect(cache.mayHold(`${BASE}\n/a`)).toBe(true);
  expect(cache.mayHold(`${BASE}\n/b`)).toBe(false);
});

it('forgets URLs whose responses were evicted, and those of an older version', () => {
  const cache = new ResponseCache(10_000);
  keep(cache, 1, 1, '/first');
  for (let i = 0; i < 1_000; i++) keep(cache, 1, 1, `/distinct-${i}`);
  expect(cache.mayHold(`${BASE}\n/first`)).toBe(false);
  expect(cache.mayHold(`${BASE}\n/distinct-999`)).toBe(true);
  keep(cache, 2, 1, '/second');
  expect(cache.mayHold(`${BASE}\n/distinct-999`)).toBe(false);
  expect(cache.mayHold(`${BASE}\n/second`)).toBe(true);
});

it('does not index a response it could not keep (larger than the whole cache)', () => {
  const cache = new ResponseCache(1_000);
  keep(cache, 1, 1, '/huge', 5_000);
  expect(cache.mayHold(`${BASE}\n/huge`)).toBe(false);
});
