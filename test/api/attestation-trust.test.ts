import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AttestationTrust } from '../../src/modules/attestations/attestation-trust';
import { readTrustedRootsFile } from '../../src/modules/attestations/trusted-roots';
import { gql } from '../helpers/graphql';
import { hashTables } from '../helpers/table-hash';
import { A, PRIVATE, PUBLIC, attestationsWorld } from '../helpers/attestations-world';
import { TEST_OIDC_ISSUER, TEST_SAN, createTestAuthority, type TestAuthority } from '../helpers/sigstore-test-ca';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// #21 with ATTESTATION_VERIFICATION=full and =signature, through real HTTP, on every database:
// what does not verify against the trusted roots is refused in full mode with the failed check
// named and nothing stored; in both modes the verdict is stored and GraphQL shows it.

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const real = () => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'sigstore-bundle-v0.3-provenance.verifiable.json'), 'utf8')) as Record<string, any>;
const damagedCheckpoint = () => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'sigstore-bundle-v0.3-provenance.json'), 'utf8')) as Record<string, any>;
const REAL_DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';
const TEST_DIGEST = '730bd230879254963c0799c8afe4ea39aab65520e308399bd120f4763ac475c7';

const REAL_SIGNER = {
  certificate_issuer: 'https://token.actions.githubusercontent.com',
  subject_alternative_name: 'https://github.com/cli/cli/.github/workflows/deployment.yml@refs/heads/trunk',
  source_repository_uri: 'https://github.com/cli/cli',
  source_repository_owner_uri: 'https://github.com/cli',
  runner_environment: 'github-hosted',
  workflow_ref: 'refs/heads/trunk',
};

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-trust-api-'));
let authority: TestAuthority;
/** One app per mode: full without the test root, full with it, signature. */
let full: TestApp;
let fullWithRoot: TestApp;
let signature: TestApp;

beforeAll(async () => {
  authority = await createTestAuthority();
  const file = path.join(tmp, 'roots.jsonl');
  fs.writeFileSync(file, `${JSON.stringify(authority.trustedRoot)}\n`);
  const read = readTrustedRootsFile(file);
  if (!('roots' in read)) throw new Error(read.problem);
  full = await createTestApp({ attestationTrust: new AttestationTrust('full') });
  fullWithRoot = await createTestApp({ attestationTrust: new AttestationTrust('full', read.roots) });
  signature = await createTestApp();
  for (const t of [full, fullWithRoot, signature]) await t.load(attestationsWorld());
});
afterAll(async () => {
  for (const t of [full, fullWithRoot, signature]) await t?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const owner = bearer(A.owner);
const create = (t: TestApp, bundle: unknown, repo = PRIVATE) => t.http().post(`/repos/${repo}/attestations`).set(owner).send({ bundle });

/** The verdicts GraphQL shows for a digest's attestations, newest first. */
async function verifications(t: TestApp, digest: string, repo = PRIVATE) {
  const [login, name] = repo.split('/');
  const res = await gql(t, `{ repository(owner: "${login}", name: "${name}") { attestations(subjectDigest: "${digest}", first: 10) { edges { node {
    databaseId verification { verified reason signer { certificate_issuer subject_alternative_name source_repository_uri source_repository_owner_uri runner_environment workflow_ref } }
  } } } } }`, { token: A.owner });
  expect(res.errors).toBeUndefined();
  return (res.data.repository.attestations.edges as Array<{ node: { databaseId: number; verification: { verified: boolean; reason: string | null; signer: Record<string, string | null> | null } } }>).map((e) => e.node);
}

/** One byte of a base64 field flipped in its decoded bytes. */
function flip(bundle: Record<string, any>, holder: (b: Record<string, any>) => Record<string, any>, key: string, index: number) {
  const target = holder(bundle);
  const bytes = Buffer.from(target[key] as string, 'base64');
  bytes[index] = bytes[index]! ^ 0x01;
  target[key] = bytes.toString('base64');
  return bundle;
}
const tlog = (b: Record<string, any>) => b.verificationMaterial.tlogEntries[0];

describe('ATTESTATION_VERIFICATION=full', () => {
  it('accepts the real public-good bundle and shows it verified, with its signer', async () => {
    const res = await create(full, real());
    expect(res.status).toBe(201);
    expect(await verifications(full, REAL_DIGEST)).toEqual([{ databaseId: res.body.id, verification: { verified: true, reason: null, signer: REAL_SIGNER } }]);
    const row = await full.db.knex('attestations').where('id', res.body.id).first('verified', 'verification_reason', 'verification_roots');
    expect([Boolean(row.verified), row.verification_reason, row.verification_roots]).toEqual([true, null, new AttestationTrust('full').fingerprint]);
  });

  const refusals: Array<[string, () => Record<string, any>, string]> = [
    ['a byte of the certificate', () => flip(real(), (b) => b.verificationMaterial.certificate, 'rawBytes', 300), 'the certificate chain check failed: '],
    ['a byte of the signed entry timestamp', () => flip(real(), (b) => tlog(b).inclusionPromise, 'signedEntryTimestamp', 20), 'the signed entry timestamp check failed: '],
    ['a byte of an inclusion proof hash', () => flip(real(), (b) => tlog(b).inclusionProof.hashes, '0', 9), 'the inclusion proof check failed: '],
    ['the checkpoint as the API example shows it', damagedCheckpoint, 'the checkpoint check failed: missing checkpoint separator'],
    ['the log entry kind version', () => { const b = real(); tlog(b).kindVersion.version = '0.0.2'; return b; }, 'the entry body check failed: '],
  ];
  for (const [what, bundle, message] of refusals) {
    it(`refuses the real bundle with ${what} changed: 422 naming the check, nothing stored`, async () => {
      const before = await hashTables(full.db.knex);
      const res = await create(full, bundle());
      expect(res.status).toBe(422);
      expect(res.body.message).toMatch(/^Invalid bundle: the /);
      expect(res.body.errors).toEqual([{ resource: 'Attestation', field: 'bundle', code: 'custom', message: expect.stringContaining(message) }]);
      expect(await hashTables(full.db.knex)).toEqual(before);
    });
  }

  it('refuses the real bundle with a byte of its payload or signature changed by the signature check, as in signature mode', async () => {
    for (const key of ['payload', 'sig'] as const) {
      const bundle = key === 'payload' ? flip(real(), (b) => b.dsseEnvelope, 'payload', 100) : flip(real(), (b) => b.dsseEnvelope.signatures[0], 'sig', 30);
      const res = await create(full, bundle);
      expect([res.status, res.body.errors[0].message]).toEqual([422, 'the DSSE signature does not verify against the certificate\'s public key']);
    }
  });

  it('refuses a test CA\'s bundle while its root is not trusted, and accepts it once ATTESTATION_TRUSTED_ROOTS lists it', async () => {
    const bundle = await authority.bundle({ digest: TEST_DIGEST });
    const refused = await create(full, bundle);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].message).toBe('the trusted root check failed: no trusted root for certificates issued by "orgsec test CA"');
    const accepted = await create(fullWithRoot, bundle);
    expect(accepted.status).toBe(201);
    expect(await verifications(fullWithRoot, `sha256:${TEST_DIGEST}`)).toEqual([{
      databaseId: accepted.body.id,
      verification: {
        verified: true, reason: null,
        signer: {
          certificate_issuer: TEST_OIDC_ISSUER, subject_alternative_name: TEST_SAN, source_repository_uri: 'https://github.com/trust-org/trust-app',
          source_repository_owner_uri: null, runner_environment: null, workflow_ref: null,
        },
      },
    }]);
  });

  it('refuses a test CA\'s bundle whose log entry is for another envelope, naming the entry body check', async () => {
    const res = await create(fullWithRoot, await authority.bundle({ logOtherPayload: true }));
    expect([res.status, res.body.errors[0].message]).toEqual([422, 'the entry body check failed: DSSE payload hash mismatch against ATTESTATION_TRUSTED_ROOTS line 1']);
  });

  it('answers the same through GraphQL createAttestation: an error naming the check, never a 500', async () => {
    const res = await gql(full, 'mutation($b: JSON!) { createAttestation(input: {owner: "att-org", repository: "open-app", bundle: $b}) { attestation { databaseId } } }', {
      token: A.owner, variables: { b: damagedCheckpoint() },
    });
    expect(res.status).toBe(200);
    expect(res.errors?.[0]?.message).toBe('Invalid bundle: the checkpoint check failed: missing checkpoint separator against the bundled public-good root');
  });
});

describe('ATTESTATION_VERIFICATION=signature (the default)', () => {
  it('stores a bundle that does not verify fully, and shows why', async () => {
    const res = await create(signature, damagedCheckpoint(), PUBLIC);
    expect(res.status).toBe(201);
    expect(await verifications(signature, REAL_DIGEST, PUBLIC)).toEqual([{
      databaseId: res.body.id,
      verification: { verified: false, reason: 'checkpoint: missing checkpoint separator against the bundled public-good root', signer: null },
    }]);
  });

  it('shows attestations stored without a verdict (world files, before the migration) verified against the roots in force when read', async () => {
    await signature.load({ ...attestationsWorld(), attestations: [{ repository: PRIVATE, bundle: real() }] });
    const stored = await signature.db.knex('attestations as a').join('repositories as r', 'r.id', 'a.repo_id').where('r.name', 'secret-app').first('a.id', 'a.verified', 'a.verification_roots');
    expect([stored.verified, stored.verification_roots]).toEqual([null, null]);
    expect(await verifications(signature, REAL_DIGEST)).toEqual([{ databaseId: Number(stored.id), verification: { verified: true, reason: null, signer: REAL_SIGNER } }]);
  });

  it('shows a verdict stored against other roots computed again against the roots in force', async () => {
    const bundle = await authority.bundle({ digest: TEST_DIGEST });
    const res = await create(fullWithRoot, bundle, PUBLIC);
    expect(res.status).toBe(201);
    // The same database read under the default roots: the stored "verified" was reached with the test root.
    await fullWithRoot.db.knex('attestations').where('id', res.body.id).update({ verification_roots: '9b2e4f7a1c8d3e6b0f5a2c9d4e7b1a8f3c6e0d5b2a9f4c7e1d8b3a6f0c5e2d9b' });
    const [shown] = await verifications(fullWithRoot, `sha256:${TEST_DIGEST}`, PUBLIC);
    expect(shown?.verification.verified).toBe(true);
    const other = new AttestationTrust('signature');
    expect(other.verify(bundle)).toMatchObject({ verified: false, check: 'trusted root' });
  });
});
