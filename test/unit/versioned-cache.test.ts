import { VersionedCache } from '../../src/cache/versioned-cache';

// A full cache keeps a new entry only when its key comes again (a doorkeeper): one-off misses
// do not evict what is asked for again (issue 35, memory set by settings).

const VERSION = 1;
/** Holds three entries of one unit each. */
const cacheOf = (doorkeeper?: boolean) => new VersionedCache<string>({ maxSize: 3, sizeOf: () => 1, ...(doorkeeper === undefined ? {} : { doorkeeper }) });

it('keeps every entry while it has room', () => {
  const cache = cacheOf();
  expect(['a', 'b', 'c'].map((key) => cache.set(VERSION, key, key))).toEqual([true, true, true]);
  expect(['a', 'b', 'c'].map((key) => cache.get(VERSION, key))).toEqual(['a', 'b', 'c']);
});

it('once full, refuses a new key the first time and keeps it the second, evicting the least recent', () => {
  const cache = cacheOf();
  for (const key of ['a', 'b', 'c']) cache.set(VERSION, key, key);
  expect(cache.set(VERSION, 'd', 'd')).toBe(false);
  expect(['a', 'b', 'c', 'd'].map((key) => cache.get(VERSION, key))).toEqual(['a', 'b', 'c', undefined]);
  expect(cache.set(VERSION, 'd', 'd')).toBe(true);
  expect(['a', 'b', 'c', 'd'].map((key) => cache.get(VERSION, key))).toEqual([undefined, 'b', 'c', 'd']);
});

it('replaces a value it holds without asking twice', () => {
  const cache = cacheOf();
  for (const key of ['a', 'b', 'c']) cache.set(VERSION, key, key);
  expect(cache.set(VERSION, 'b', 'B')).toBe(true);
  expect(cache.get(VERSION, 'b')).toBe('B');
});

it('forgets the refused keys with the version they were refused under', () => {
  const cache = cacheOf();
  for (const key of ['a', 'b', 'c']) cache.set(VERSION, key, key);
  expect(cache.set(VERSION, 'd', 'd')).toBe(false);
  for (const key of ['a', 'b', 'c']) cache.set(VERSION + 1, key, key);
  expect(cache.set(VERSION + 1, 'd', 'd')).toBe(false);
});

it('without a doorkeeper, keeps every entry, evicting as an LRU does', () => {
  const cache = cacheOf(false);
  for (const key of ['a', 'b', 'c']) cache.set(VERSION, key, key);
  expect(cache.set(VERSION, 'd', 'd')).toBe(true);
  expect(['a', 'd'].map((key) => cache.get(VERSION, key))).toEqual([undefined, 'd']);
});
