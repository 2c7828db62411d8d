import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { cycloneDxValidator } from '../../src/modules/sbom/cyclonedx-schema';

// orgsec checks BOMs against the CycloneDX schemas with two rules checked its own, faster way:
// `uniqueItems` (one pass, items compared whole only when their fingerprints meet) and a hash's
// content pattern (its length, then its digits). The CycloneDX library's own validator is the
// oracle: for each document, the same verdict and, when it fails, the same first problem.

const SHA512 = 'a1'.repeat(64);
const bom = (components: unknown[], extra: Record<string, unknown> = {}) => ({ bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, components, ...extra });
const component = (name: string, extra: Record<string, unknown> = {}) => ({ type: 'library', name, version: '1.0.0', 'bom-ref': name, ...extra });
const withHash = (content: string) => bom([component('a', { hashes: [{ alg: 'SHA-512', content }] })]);

/** The verdict and first problem (keyword and where), or null for a valid document. */
type Verdict = { keyword: string | undefined; instancePath: string | undefined } | null;

function orgsecVerdict(document: object): Verdict {
  const validate = cycloneDxValidator(Spec.Version.v1dot6);
  if (validate(document)) return null;
  const [first] = validate.errors ?? [];
  return { keyword: first?.keyword, instancePath: first?.instancePath };
}

const library = new Validation.JsonStrictValidator(Spec.Version.v1dot6);

async function libraryVerdict(document: object): Promise<Verdict> {
  const errors = await library.validate(JSON.stringify(document)) as Array<{ keyword?: string; instancePath?: string }> | null;
  return errors === null ? null : { keyword: errors[0]?.keyword, instancePath: errors[0]?.instancePath };
}

describe('a hash\'s content', () => {
  it.each([
    ['32 hexadecimal digits (MD5)', 'a'.repeat(32), true],
    ['40 (SHA-1)', 'b'.repeat(40), true],
    ['64 (SHA-256)', 'c'.repeat(64), true],
    ['96 (SHA-384)', 'd'.repeat(96), true],
    ['128 (SHA-512), upper case', SHA512.toUpperCase(), true],
    ['33 digits', 'a'.repeat(33), false],
    ['129 digits', `${SHA512}0`, false],
    ['none', '', false],
    ['a letter past f', `${'a'.repeat(127)}g`, false],
    ['128 digits and a line end', `${SHA512}\n`, false],
    ['31 digits and a line end (32 characters)', `${'a'.repeat(31)}\n`, false],
  ])('%s: as the library judges it', async (_name, content, isValid) => {
    const verdict = orgsecVerdict(withHash(content));
    expect(verdict).toEqual(isValid ? null : { keyword: 'pattern', instancePath: '/components/0/hashes/0/content' });
    expect(verdict).toEqual(await libraryVerdict(withHash(content)));
  });

  it('a refused one names the schema\'s own pattern', () => {
    const validate = cycloneDxValidator(Spec.Version.v1dot6);
    validate(withHash('xyz'));
    expect(validate.errors?.[0]?.message).toBe('must match pattern "^([a-fA-F0-9]{32}|[a-fA-F0-9]{40}|[a-fA-F0-9]{64}|[a-fA-F0-9]{96}|[a-fA-F0-9]{128})$"');
  });
});

describe('items that must be unique', () => {
  const nested = (content: string) => component('a', { components: [component('b', { hashes: [{ alg: 'SHA-512', content }] })] });
  it.each([
    ['two components equal but for the order of their keys', bom([component('a'), { version: '1.0.0', 'bom-ref': 'a', name: 'a', type: 'library' }]), '/components'],
    ['two components equal down to their nested ones, keys in another order there', bom([nested(SHA512), { ...nested(SHA512), components: [{ hashes: [{ content: SHA512, alg: 'SHA-512' }], 'bom-ref': 'b', version: '1.0.0', name: 'b', type: 'library' }] }]), '/components'],
    ['a dependency listed twice', bom([component('a'), component('b')], { dependencies: [{ ref: 'a', dependsOn: ['b', 'b'] }] }), '/dependencies/0/dependsOn'],
    ['two equal dependency entries', bom([component('a'), component('b')], { dependencies: [{ ref: 'a', dependsOn: ['b'] }, { dependsOn: ['b'], ref: 'a' }] }), '/dependencies'],
  ])('%s: refused, as the library refuses it', async (_name, document, instancePath) => {
    const verdict = orgsecVerdict(document);
    expect(verdict).toEqual({ keyword: 'uniqueItems', instancePath });
    expect(verdict).toEqual(await libraryVerdict(document));
  });

  it.each([
    ['components alike but for a nested component\'s hash', bom([nested(SHA512), { ...nested(SHA512), 'bom-ref': 'a2', components: [component('b2', { hashes: [{ alg: 'SHA-512', content: 'b'.repeat(128) }] })] }])],
    ['components alike at the top but for a nested hash (one fingerprint, told apart whole)', bom([{ type: 'library', name: 'x', hashes: [{ alg: 'SHA-512', content: SHA512 }] }, { type: 'library', name: 'x', hashes: [{ alg: 'SHA-512', content: 'b'.repeat(128) }] }])],
    ['dependency entries with the same children under other refs', bom([component('a'), component('b'), component('c')], { dependencies: [{ ref: 'a', dependsOn: ['c'] }, { ref: 'b', dependsOn: ['c'] }] })],
  ])('%s: accepted, as the library accepts it', async (_name, document) => {
    expect(orgsecVerdict(document)).toBeNull();
    expect(await libraryVerdict(document)).toBeNull();
  });

  it('of a component listed three times, names its first listing and the first repeat', () => {
    const validate = cycloneDxValidator(Spec.Version.v1dot6);
    expect(validate(bom([component('a'), component('b'), component('a'), component('a')]))).toBe(false);
    expect(validate.errors?.[0]).toMatchObject({ keyword: 'uniqueItems', params: { i: 0, j: 2 } });
  });
});
