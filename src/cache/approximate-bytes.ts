/**
 * About how many bytes of V8's heap a cached value holds: what the caches count against their
 * budgets (cache-budget.ts). An estimate from V8's object layout on 64-bit builds with pointer
 * compression off (headers, 8-byte slots, one byte a character: most of what orgsec caches is
 * ASCII), not a measure; unit/approximate-bytes.test.ts holds it within a factor of 1.6 of the heap measured.
 * Hidden classes and the strings shared between values are counted with each value, so a
 * cache counts high rather than low. Nesting deeper than MAX_DEPTH counts a flat 64 bytes.
 */
const OBJECT_HEADER = 24;
/** A JSArray and the header of its backing store. */
const ARRAY_HEADER = 48;
const SLOT = 8;
const HASH_TABLE_HEADER = 128;
const STRING_HEADER = 16;
const align = (bytes: number) => (bytes + 7) & ~7;
const MAX_DEPTH = 8;

export function approximateBytes(value: unknown, depth = 0): number {
  switch (typeof value) {
    case 'string': return align(STRING_HEADER + value.length);
    case 'number': return Number.isInteger(value) ? 0 : 16;
    case 'bigint': return 24;
    case 'function': return 64;
    case 'object': break;
    default: return 0;
  }
  if (value === null) return 0;
  if (depth >= MAX_DEPTH) return 64;
  if (Buffer.isBuffer(value)) return 96 + value.length;
  if (value instanceof Date) return 32;
  const next = depth + 1;
  if (Array.isArray(value)) {
    let bytes = ARRAY_HEADER + SLOT * value.length;
    for (const item of value) bytes += approximateBytes(item, next);
    return bytes;
  }
  if (value instanceof Map) {
    // The JSMap and its hash table, which holds at least four entries of three slots.
    let bytes = HASH_TABLE_HEADER + 3 * SLOT * Math.max(4, value.size);
    for (const [key, item] of value) bytes += approximateBytes(key, next) + approximateBytes(item, next);
    return bytes;
  }
  if (value instanceof Set) {
    let bytes = HASH_TABLE_HEADER + 2 * SLOT * Math.max(4, value.size);
    for (const item of value) bytes += approximateBytes(item, next);
    return bytes;
  }
  let bytes = OBJECT_HEADER;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    bytes += SLOT + approximateBytes((value as Record<string, unknown>)[key], next);
  }
  return bytes;
}
