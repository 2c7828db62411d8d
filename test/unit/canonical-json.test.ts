import { canonicalJson } from '../../src/shared/canonical-json';

describe('canonicalJson', () => {
  it('when keys come in another order at the top level, gives the same text', () => {
    expect(canonicalJson({ b: 1, a: 2 })).toBe(canonicalJson({ a: 2, b: 1 }));
  });

  it('when keys come in another order at any depth, gives the same text', () => {
    const one = { z: { y: { x: { b: [{ q: 1, p: 2 }], a: null } } }, a: 'first' };
    const other = { a: 'first', z: { y: { x: { a: null, b: [{ p: 2, q: 1 }] } } } };
    expect(canonicalJson(one)).toBe(canonicalJson(other));
  });

  it('writes keys sorted at every level, without whitespace', () => {
    expect(canonicalJson({ b: { d: 1, c: [{ f: true, e: 'x' }] }, a: [3, 1, 2] })).toBe(
      '{"a":[3,1,2],"b":{"c":[{"e":"x","f":true}],"d":1}}',
    );
  });

  it('when arrays hold the same items in another order, gives different text', () => {
    expect(canonicalJson({ list: [1, 2, 3] })).not.toBe(canonicalJson({ list: [3, 2, 1] }));
    expect(canonicalJson([{ a: 1 }, { b: 2 }])).toBe('[{"a":1},{"b":2}]');
  });

  it('when values differ, gives different text even if the keys match', () => {
    expect(canonicalJson({ a: { b: 1 } })).not.toBe(canonicalJson({ a: { b: '1' } }));
  });

  it('when given a scalar or null, writes it as JSON does', () => {
    expect(canonicalJson('text')).toBe('"text"');
    expect(canonicalJson(42)).toBe('42');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(false)).toBe('false');
  });

  it('when keys differ only by case, orders them by code unit, upper case first', () => {
    expect(canonicalJson({ b: 1, B: 2, a: 3 })).toBe('{"B":2,"a":3,"b":1}');
  });
});
