import fs from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../../src/errors/domain';
import { checkBundle } from '../../src/modules/attestations/attestation-bundle';
import { createSigner, signedBundle, statement, type Signer } from '../helpers/signed-bundles';

const FIXTURE = path.join(__dirname, '..', 'fixtures', 'sigstore-bundle-v0.3-provenance.json');
const fixture = () => JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as Record<string, any>;

let signer: Signer;
let otherSigner: Signer;
beforeAll(async () => {
  signer = await createSigner();
  otherSigner = await createSigner();
});

/** The reason a bundle is refused (its errors entry), or undefined when it is accepted. */
function reason(bundle: unknown): string | undefined {
  try {
    checkBundle(bundle);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    const e = error as ValidationError;
    expect(e.errors).toEqual([expect.objectContaining({ resource: 'Attestation', field: 'bundle', code: 'custom' })]);
    return e.errors[0]!.message;
  }
}

describe('the real public bundle', () => {
  it('is accepted, with its subject digest and predicate type', () => {
    expect(checkBundle(fixture())).toEqual({
      subjects: [{ digest: 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548', name: 'gh_2.50.0_windows_arm64.zip' }],
      predicateType: 'https://slsa.dev/provenance/v1',
    });
  });

  it.each([0, 100, 500, 900])('with one byte of its payload changed (at %i), is refused: the signature does not verify', (at) => {
    const bundle = fixture();
    const payload = Buffer.from(bundle.dsseEnvelope.payload, 'base64');
    payload[at] = payload[at]! ^ 0x01;
    bundle.dsseEnvelope.payload = payload.toString('base64');
    expect(reason(bundle)).toMatch(/signature does not verify/);
  });

  it('with its signature replaced, is refused', () => {
    const bundle = fixture();
    bundle.dsseEnvelope.signatures[0].sig = Buffer.alloc(70, 1).toString('base64');
    expect(reason(bundle)).toMatch(/signature does not verify/);
  });
});

describe('bundles signed here', () => {
  it.each([
    'application/vnd.dev.sigstore.bundle.v0.3+json',
    'application/vnd.dev.sigstore.bundle+json;version=0.3',
    'application/vnd.dev.sigstore.bundle+json;version=0.2',
    'application/vnd.dev.sigstore.bundle+json;version=0.1',
  ])('are accepted with media type %s', (mediaType) => {
    expect(reason(signedBundle(signer, statement(), { mediaType }))).toBeUndefined();
  });

  it('are accepted with an empty keyid, as signing clients write it', () => {
    const bundle = signedBundle(signer) as { dsseEnvelope: { signatures: Array<Record<string, string>> } };
    expect(bundle.dsseEnvelope.signatures[0]!.keyid).toBe('');
    expect(reason(bundle)).toBeUndefined();
  });

  it('are refused with a field a Sigstore bundle does not have, at any depth', () => {
    expect(reason({ ...fixture(), junk: 'x' })).toMatch(/fields that are not part of a Sigstore bundle/);
    const nested = fixture();
    nested.verificationMaterial.extra = { a: 1 };
    expect(reason(nested)).toMatch(/fields that are not part of a Sigstore bundle/);
  });

  it('are refused with more subjects than the limit', () => {
    const subjects = Array.from({ length: 1001 }, (_, i) => ({ digest: { sha256: i.toString(16).padStart(64, '0') } }));
    expect(reason(signedBundle(signer, statement({ subjects })))).toMatch(/more than 1000 subjects/);
  });

  it('are accepted with an in-toto Statement v0.1', () => {
    expect(reason(signedBundle(signer, statement({ type: 'https://in-toto.io/Statement/v0.1' })))).toBeUndefined();
  });

  it('index only sha256 subjects, lower-cased', () => {
    const checked = checkBundle(signedBundle(signer, statement({
      subjects: [{ name: 'a', digest: { sha256: 'AB'.repeat(32) } }, { name: 'b', digest: { sha512: 'c'.repeat(128) } }],
    })));
    expect(checked.subjects).toEqual([{ digest: `sha256:${'ab'.repeat(32)}`, name: 'a' }]);
  });
});

describe('a bundle is refused, each for its own reason, when', () => {
  const cases: Array<[string, () => unknown, RegExp]> = [
    ['it is not an object', () => 'bundle', /mediaType must be one of/],
    ['its media type is unknown', () => signedBundle(signer, statement(), { mediaType: 'application/vnd.dev.sigstore.bundle+json;version=0.9' }), /mediaType must be one of/],
    ['it lacks verification material', () => ({ ...signedBundle(signer), verificationMaterial: undefined }), /not a well-formed Sigstore bundle/],
    ['it holds a message signature instead of a DSSE envelope', () => {
      const b = signedBundle(signer);
      return { mediaType: b.mediaType, verificationMaterial: b.verificationMaterial, messageSignature: { messageDigest: { algorithm: 'SHA2_256', digest: Buffer.alloc(32).toString('base64') }, signature: 'c2ln' } };
    }, /no DSSE envelope/],
    ['its envelope has no signature', () => {
      const b = signedBundle(signer) as { dsseEnvelope: { signatures: unknown[] } };
      b.dsseEnvelope.signatures = [];
      return b;
    }, /not a well-formed Sigstore bundle/],
    ['its payload type is not in-toto', () => signedBundle(signer, statement(), { payloadType: 'text/plain' }), /payloadType must be application\/vnd\.in-toto\+json/],
    ['its signature was made by another key', () => {
      const b = signedBundle(otherSigner) as { verificationMaterial: { certificate: { rawBytes: string } } };
      b.verificationMaterial.certificate.rawBytes = signer.certificateDer.toString('base64');
      return b;
    }, /signature does not verify/],
    ['its signature covers other bytes than the pre-authentication encoding', () => signedBundle(signer, statement(), { signOver: Buffer.from('something else') }), /signature does not verify/],
    ['its certificate is not a certificate', () => {
      const b = signedBundle(signer) as { verificationMaterial: { certificate: { rawBytes: string } } };
      b.verificationMaterial.certificate.rawBytes = Buffer.from('not a certificate').toString('base64');
      return b;
    }, /certificate in the verification material cannot be parsed/],
    ['its payload is not JSON', () => signedBundle(signer, statement(), { payload: Buffer.from('not json') }), /payload is not JSON/],
    ['its payload is not an in-toto Statement', () => signedBundle(signer, { _type: 'https://example.com/NotAStatement', subject: [], predicateType: 'x' }), /not an in-toto Statement/],
    ['its statement has no subject', () => signedBundle(signer, statement({ subjects: [] })), /no subject/],
    ['no subject carries a sha256 digest', () => signedBundle(signer, statement({ subjects: [{ name: 'a', digest: { sha512: 'c'.repeat(128) } }] })), /no subject carries a sha256 digest/],
    ['a sha256 digest is not 64 hex digits', () => signedBundle(signer, statement({ subjects: [{ digest: { sha256: 'abc' } }] })), /64 hexadecimal/],
    ['its statement has duplicate subjects', () => signedBundle(signer, statement({ subjects: [{ digest: { sha256: 'a'.repeat(64) } }, { digest: { sha256: 'A'.repeat(64) } }] })), /duplicate subjects/],
    ['its statement has no predicate type', () => signedBundle(signer, { _type: 'https://in-toto.io/Statement/v1', subject: [{ digest: { sha256: 'a'.repeat(64) } }] }), /predicateType/],
  ];
  it.each(cases)('%s', (_name, build, expected) => {
    expect(reason(build())).toMatch(expected);
  });
});
