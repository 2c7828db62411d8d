import { MAX_JSON_DEPTH, assertJsonDepth } from '../../src/http/body';

// The depth check every JSON body passes (src/http/body.ts): objects and arrays alike, the
// deepest branch anywhere in the document, and wide documents walked whole.

/** `levels` levels of `{"a": …}` (or arrays when `arrays`), the innermost holding a string. */
function nested(levels: number, { arrays = false } = {}): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = arrays ? [value] : { a: value };
  return value;
}

it.each([false, true])('accepts nesting to the limit and refuses one level more (arrays: %s)', (arrays) => {
  expect(() => assertJsonDepth(nested(MAX_JSON_DEPTH, { arrays }))).not.toThrow();
  expect(() => assertJsonDepth(nested(MAX_JSON_DEPTH + 1, { arrays }))).toThrow(`The body is nested more than ${MAX_JSON_DEPTH} levels deep.`);
});

it('finds the deep branch of a wide document, wherever it is', () => {
  const wide: Record<string, unknown> = {};
  for (let i = 0; i < 5_000; i++) wide[`p${i}`] = { package_url: `pkg:npm/p${i}@1.0.0`, dependencies: [`pkg:npm/q${i}@1.0.0`] };
  expect(() => assertJsonDepth({ manifests: wide })).not.toThrow();
  wide.p2500 = nested(MAX_JSON_DEPTH - 1);
  expect(() => assertJsonDepth({ manifests: wide })).toThrow();
  expect(() => assertJsonDepth(['x', 1, null, true, { y: [nested(MAX_JSON_DEPTH - 2)] }])).toThrow();
});

it('counts a __proto__ key as the own key JSON.parse makes it', () => {
  expect(() => assertJsonDepth(JSON.parse(`{"__proto__": ${JSON.stringify(nested(MAX_JSON_DEPTH))}}`))).toThrow();
});
