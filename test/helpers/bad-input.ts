import fc from 'fast-check';
import { MAX_JSON_DEPTH } from '../../src/http/body';
import { MAX_CURSOR_LENGTH } from '../../src/http/pagination';
import { MAX_LIST_ITEMS, MAX_LIST_PARAMETER_LENGTH } from '../../src/modules/dependency-alerts/alerts.schemas';
import { fillPath, paramNames, type Operation } from './operations';

// Arbitraries for the bad-input fuzz of issue 8: a request to one of the 27 operations
// with its valid demo-world sample bent in one or more places (path, query, headers,
// body). A bent request may still be valid (an upper-cased login, a known filter value):
// the property allows the operation's documented success for those.

export interface BadRequest {
  /** The path, already percent-encoded (some parts raw on purpose). */
  path: string;
  query: ReadonlyArray<readonly [string, string]>;
  headers: Readonly<Record<string, string>>;
  /** Sent byte for byte; undefined sends no body. */
  body?: string;
}

/** Cursors gathered from real lists (other lists, other organizations) before the run. */
export interface FuzzContext {
  cursors: readonly string[];
  /** Real names of other things in the world (other organizations, repositories, users, teams). */
  otherNames: readonly string[];
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes every byte of the UTF-8 form (a lone surrogate becomes U+FFFD, as a client would send it). */
export function encodeSegment(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += byte < 0x80 && UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const base64url = (text: string | Uint8Array) => Buffer.from(text).toString('base64url');

// Characters that look like Latin ones (Cyrillic о, а, е, с, р, х; Greek ο; fullwidth hyphen).
const LOOKALIKES: Readonly<Record<string, string>> = { o: '\u043e', a: '\u0430', e: '\u0435', c: '\u0441', p: '\u0440', x: '\u0445', '-': '\uff0d' };

/** `real` with one look-alike character swapped in (or a zero-width space added when it has none). */
export function lookalike(real: string, at: number): string {
  const positions = [...real].flatMap((char, i) => (char in LOOKALIKES ? [i] : []));
  if (positions.length === 0) return `${real}\u200b`;
  const i = positions[at % positions.length]!;
  const chars = [...real];
  chars[i] = LOOKALIKES[chars[i]!]!;
  return chars.join('');
}

const printable = (maxLength: number, minLength = 0) => fc.string({ unit: 'binary-ascii', minLength, maxLength }).map((s) => s.replace(/[^\x20-\x7e]/g, '?'));
const anyText = (maxLength: number, minLength = 0) => fc.string({ unit: 'binary', minLength, maxLength });

/** Numbers in every spelling a parser might accept. */
const NUMERIC = ['99999999999999999999999', '2147483648', '9007199254740993', '1e3', '0x1', '-1', '0', '007', '+1', '1.5', ' 1', '1 ', 'NaN', 'Infinity', '١'];
/** Already percent-encoded, sent as they are: NUL, slashes, dot segments, broken escapes, overlong UTF-8. */
const RAW_SEGMENTS = ['%00', '%2F', '%2f..%2f', '%2e%2e', '..', '.', '%', '%zz', '%C0%AF', '%ED%A0%80', '%FF', 'a%00b', '%0d%0a', '%5C'];

function pathValue(real: string, context: FuzzContext): fc.Arbitrary<{ encoded: string }> {
  const encoded = (value: string) => ({ encoded: encodeSegment(value) });
  return fc.oneof(
    fc.constantFrom(...RAW_SEGMENTS).map((raw) => ({ encoded: raw })),
    fc.constantFrom(...NUMERIC).map(encoded),
    fc.nat(20).map((at) => encoded(lookalike(real, at))),
    fc.constantFrom(real.toUpperCase(), `${real}.git`, `${real} `, ` ${real}`, `${real}\u0000`, `${real}/`).map(encoded),
    fc.constantFrom(...context.otherNames).map(encoded),
    anyText(40, 1).map(encoded),
    fc.integer({ min: 256, max: 4000 }).map((n) => encoded('a'.repeat(n))),
    printable(600, 256).map(encoded),
  );
}

function forgedCursor(): fc.Arbitrary<string> {
  const values = fc.array(fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(null), fc.constant(2 ** 53), fc.jsonValue({ maxDepth: 2 })), { maxLength: 9 });
  const list = fc.oneof(fc.constantFrom('alerts:created:desc', 'alerts:updated:asc', 'attestations', ''), fc.string({ maxLength: 70 }));
  return fc.oneof(
    fc.record({ l: list, v: values }).map((cursor) => base64url(JSON.stringify(cursor))),
    fc.jsonValue({ maxDepth: 3 }).map((value) => base64url(JSON.stringify(value) ?? 'undefined')),
    fc.uint8Array({ minLength: 1, maxLength: 80 }).map(base64url),
    fc.uint8Array({ minLength: 1, maxLength: 80 }).map((bytes) => Buffer.from(bytes).toString('base64')), // with + / =
  );
}

function cursorValue(context: FuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...context.cursors),
    forgedCursor(),
    fc.integer({ min: MAX_CURSOR_LENGTH - 2, max: 4 * MAX_CURSOR_LENGTH }).map((n) => 'A'.repeat(n)), // around the cursor length limit
    fc.constantFrom(...context.cursors).map((c) => c.padEnd(MAX_CURSOR_LENGTH + 1, 'A')),
  );
}

const FILTER_VALUES = [
  'open', 'dismissed', 'fixed', 'auto_dismissed', 'critical', 'high', 'low', 'medium', 'npm', 'pip', 'maven', 'general', 'malware', 'direct',
  'transitive', 'patch', 'deployment', 'development', 'runtime', 'created', 'updated', 'epss_percentage', 'asc', 'desc', '*', 'none', 'bob',
  '>0.5', '<=0.1', '0.2..0.1', '0..1', '1.1', '.5', '>=', '..', 'provenance', 'sbom', 'https://slsa.dev/provenance/v1', 'left-pad',
];

function queryValue(context: FuzzContext): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...FILTER_VALUES),
    fc.array(fc.constantFrom(...FILTER_VALUES), { minLength: 2, maxLength: 6 }).map((values) => values.join(',')),
    fc.constantFrom(...NUMERIC, '', ',', ',,,', ' , ', '101', '100', '0', 'true', 'null', '[]', '{}'),
    fc.integer({ min: MAX_LIST_ITEMS - 10, max: 4 * MAX_LIST_ITEMS }).map((n) => Array.from({ length: n }, () => 'open').join(',')), // around the item limit
    fc.integer({ min: MAX_LIST_PARAMETER_LENGTH - 200, max: MAX_LIST_PARAMETER_LENGTH + 800 }).map((n) => 'x'.repeat(n)), // around the length limit
    cursorValue(context),
    anyText(30),
  );
}

function queryPairs(operation: Operation, context: FuzzContext): fc.Arbitrary<Array<readonly [string, string]>> {
  const keys = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...operation.queryKeys, 'page', 'per_page', 'before', 'after') },
    { weight: 1, arbitrary: fc.constantFrom('access_token', 'state[]', 'state[$ne]', '__proto__', 'constructor', '') },
    { weight: 1, arbitrary: printable(12) },
  );
  const pair = fc.tuple(keys, queryValue(context));
  const cursors = fc.tuple(fc.constantFrom('before', 'after'), cursorValue(context));
  const extra = fc.array(fc.oneof({ weight: 3, arbitrary: pair }, { weight: 1, arbitrary: cursors }), { minLength: 1, maxLength: 4 });
  // The sample's own pairs first, so the bent ones repeat or add to them.
  return extra.map((pairs) => [...Object.entries(operation.sample.query), ...pairs]);
}

const HEADER_CHOICES: Readonly<Record<string, readonly string[]>> = {
  Accept: ['application/json', 'application/vnd.github+json', '*/*', 'text/html', 'application/xml', 'image/png', '', 'application/json; q=0'],
  'X-Service-Api-Version': ['2026-03-10', '2022-11-28', '', '2026-03-10, 2026-03-10', 'latest', '2026-13-45'],
  'X-GitHub-Api-Version': ['2022-11-28', 'junk', ''],
  'Content-Type': [
    'application/json', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=utf-16',
    'application/json; charset=latin1', 'application/json; charset=nope', 'application/xml', '',
  ],
  'Content-Encoding': ['gzip', 'deflate', 'br', 'identity', 'x-unknown'],
  'If-None-Match': ['*', '"x"', 'W/"abc"', '""', ',', 'W/', '"unterminated'],
  'If-Modified-Since': ['yesterday', 'Thu, 01 Jan 1970 00:00:00 GMT', ''],
};

/** One or two of the headers above, bent. */
function headers(): fc.Arbitrary<Record<string, string>> {
  const value = (name: string) =>
    fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(...HEADER_CHOICES[name]!) },
      { weight: 1, arbitrary: printable(60) },
      { weight: name === 'If-None-Match' ? 1 : 0, arbitrary: fc.integer({ min: 1000, max: 3000 }).map((n) => `W/"${'f'.repeat(n)}"`) },
    );
  return fc
    .subarray(Object.keys(HEADER_CHOICES), { minLength: 1, maxLength: 2 })
    .chain((names) => fc.tuple(...names.map((name) => value(name).map((v) => [name, v] as const))))
    .map((pairs) => Object.fromEntries(pairs));
}

const INVALID_JSON = ['{', '{"a":', "{'a':1}", 'nul', '\u0000', '[1,2', '{"a":1}}', '{"a":1,}', '{"a":01}', '"\\x"', '{"a":NaN}', '\ufeff{}', '{"a":"\ud800"}'];

/** JSON nested `depth` levels. */
const deepJson = (depth: number, kind: 'array' | 'object') =>
  kind === 'array' ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

function wrongValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom(null, true, 0, -1, 1e308, '', [], {}, [null], ['bob', 'bob'], 'open', 'dismissed', 'fixed', 'provenance'),
    fc.jsonValue({ maxDepth: 3 }),
    fc.integer({ min: 250, max: 20_000 }).map((n) => 'x'.repeat(n)),
    fc.array(printable(20), { maxLength: 60 }),
    anyText(50),
  );
}

function bodyText(operation: Operation): fc.Arbitrary<string> {
  const sample = operation.sample.body ?? {};
  const keys = [...operation.bodyKeys, 'number', 'dismissed_by', 'fixed_at', 'repository', 'id'];
  const bentSample = fc
    .tuple(fc.constantFrom(...keys), wrongValue())
    .map(([key, value]) => JSON.stringify({ ...sample, [key]: value }));
  return fc.oneof(
    { weight: 4, arbitrary: bentSample },
    { weight: 1, arbitrary: fc.constant(JSON.stringify(sample).replace(/^\{/, '{"__proto__":{"admin":true},')) },
    { weight: 2, arbitrary: fc.constantFrom(...INVALID_JSON) },
    { weight: 2, arbitrary: fc.constantFrom('null', '[]', '0', '"text"', 'true', `[${JSON.stringify(sample)}]`) },
    { weight: 1, arbitrary: fc.tuple(fc.integer({ min: MAX_JSON_DEPTH - 5, max: 5 * MAX_JSON_DEPTH }), fc.constantFrom('array', 'object') as fc.Arbitrary<'array' | 'object'>).map(([d, k]) => deepJson(d, k)) },
    { weight: 2, arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...keys), printable(10)), wrongValue(), { maxKeys: 4 }).map((o) => JSON.stringify(o)) },
    { weight: 1, arbitrary: anyText(100) },
  );
}

type Part = 'path' | 'query' | 'headers' | 'body';

/** Which parts to bend: mostly one (so each reaches its own check), now and then all at once. */
const PARTS = fc.oneof(
  { weight: 3, arbitrary: fc.constant<Part[]>(['path']) },
  { weight: 3, arbitrary: fc.constant<Part[]>(['query']) },
  { weight: 2, arbitrary: fc.constant<Part[]>(['headers']) },
  { weight: 3, arbitrary: fc.constant<Part[]>(['body']) },
  { weight: 2, arbitrary: fc.subarray<Part>(['path', 'query', 'headers', 'body'], { minLength: 2 }) },
);

/** A bent version of the operation's sample request: one part or several. */
export function badRequest(operation: Operation, context: FuzzContext): fc.Arbitrary<BadRequest> {
  const names = paramNames(operation.path);
  // A path without parameters (GET /advisories) has nothing to bend there.
  const rawParams: fc.Arbitrary<Record<string, string>> = names.length === 0 ? fc.constant({}) : fc
    .subarray(names, { minLength: 1, maxLength: Math.min(2, names.length) })
    .chain((chosen) => fc.tuple(...chosen.map((name) => pathValue(operation.sample.params[name]!, context).map((v) => [name, v.encoded] as const))))
    .map((pairs) => Object.fromEntries(pairs));
  const sampleBody = operation.sample.body ? JSON.stringify(operation.sample.body) : undefined;
  const sample = { raw: {}, query: Object.entries(operation.sample.query), headers: {}, body: sampleBody };
  return PARTS.chain((parts) =>
    fc.record({
      raw: parts.includes('path') ? rawParams : fc.constant(sample.raw),
      query: parts.includes('query') ? queryPairs(operation, context) : fc.constant(sample.query),
      headers: parts.includes('headers') ? headers() : fc.constant(sample.headers),
      body: parts.includes('body') ? bodyText(operation).map((b): string | undefined => b) : fc.constant(sample.body),
    }),
  ).map(({ raw, query, headers: bent, body }) => ({
    path: fillPath(operation.path, operation.sample.params, raw),
    query,
    headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...bent },
    ...(body !== undefined ? { body } : {}),
  }));
}
