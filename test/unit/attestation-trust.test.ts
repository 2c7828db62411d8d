import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AttestationTrust, type Verdict } from '../../src/modules/attestations/attestation-trust';
import { checkBundle } from '../../src/modules/attestations/attestation-bundle';
import { publicGoodRoot, readTrustedRootsFile, type TrustRoot } from '../../src/modules/attestations/trusted-roots';
import { TEST_OIDC_ISSUER, TEST_SAN, createTestAuthority, type TestAuthority } from '../helpers/sigstore-test-ca';

// Full verification with Sigstore's libraries against the bundled public-good root and roots of
// the test's own: the real bundle verifies offline; one byte changed in any part of it is
// refused under the check that part belongs to; a test CA's bundles verify once its root is trusted.

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const real = () => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'sigstore-bundle-v0.3-provenance.verifiable.json'), 'utf8')) as Record<string, any>;
const damagedCheckpoint = () => JSON.parse(fs.readFileSync(path.join(FIXTURES, 'sigstore-bundle-v0.3-provenance.json'), 'utf8')) as Record<string, any>;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-trust-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const REAL_SIGNER = {
  certificateIssuer: 'https://token.actions.githubusercontent.com',
  subjectAlternativeName: 'https://github.com/cli/cli/.github/workflows/deployment.yml@refs/heads/trunk',
  sourceRepositoryUri: 'https://github.com/cli/cli',
  sourceRepositoryOwnerUri: 'https://github.com/cli',
  runnerEnvironment: 'github-hosted',
  workflowRef: 'refs/heads/trunk',
};

/** One byte of a base64 field flipped in its decoded bytes (the text stays canonical base64). */
function flipped(bundle: Record<string, any>, at: (b: Record<string, any>) => [Record<string, any>, string], index: number): Record<string, any> {
  const copy = structuredClone(bundle);
  const [holder, key] = at(copy);
  const bytes = Buffer.from(holder[key] as string, 'base64');
  bytes[index] = bytes[index]! ^ 0x01;
  holder[key] = bytes.toString('base64');
  return copy;
}

/** Roots written to a file of JSON lines, read as ATTESTATION_TRUSTED_ROOTS is. */
function rootsFile(lines: string[]): TrustRoot[] {
  const file = path.join(tmp, `roots-${Math.random().toString(36).slice(2)}.jsonl`);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  const read = readTrustedRootsFile(file);
  if (!('roots' in read)) throw new Error(read.problem);
  return read.roots;
}

const tlog = (b: Record<string, any>) => b.verificationMaterial.tlogEntries[0];
const checkOf = (verdict: Verdict) => [verdict.verified, verdict.check];

describe('the real public-good bundle, offline against the bundled root', () => {
  const trust = new AttestationTrust('full');

  it('verifies, with its signer identity', () => {
    expect(trust.verify(real())).toEqual({ verified: true, reason: null, check: null, signer: REAL_SIGNER });
  });

  it('with the checkpoint as the API example shows it (escaped newlines), is refused at the checkpoint', () => {
    expect(trust.verify(damagedCheckpoint())).toEqual({
      verified: false, check: 'checkpoint', signer: null, reason: 'checkpoint: missing checkpoint separator against the bundled public-good root',
    });
  });

  const flips: Array<[string, (b: Record<string, any>) => [Record<string, any>, string], number, string]> = [
    ['the certificate (its signed part)', (b) => [b.verificationMaterial.certificate, 'rawBytes'], 300, 'certificate chain'],
    ['the certificate (the CA\'s signature)', (b) => [b.verificationMaterial.certificate, 'rawBytes'], 1660, 'certificate chain'],
    ['the signed entry timestamp', (b) => [tlog(b).inclusionPromise, 'signedEntryTimestamp'], 20, 'signed entry timestamp'],
    ['the log entry\'s body', (b) => [tlog(b), 'canonicalizedBody'], 40, 'signed entry timestamp'],
    ['a hash of the inclusion proof', (b) => [tlog(b).inclusionProof.hashes, '3'], 7, 'inclusion proof'],
    ['the inclusion proof\'s root hash', (b) => [tlog(b).inclusionProof, 'rootHash'], 5, 'inclusion proof'],
    ['the log id', (b) => [tlog(b).logId, 'keyId'], 2, 'signed entry timestamp'],
    ['the payload', (b) => [b.dsseEnvelope, 'payload'], 200, 'entry body'],
    ['the signature', (b) => [b.dsseEnvelope.signatures[0], 'sig'], 30, 'entry body'],
  ];
  for (const [part, at, index, check] of flips) {
    it(`with one byte of ${part} changed, is refused by the ${check} check`, () => {
      expect(checkOf(trust.verify(flipped(real(), at, index)))).toEqual([false, check]);
    });
  }

  it('with one character of the checkpoint changed (its root hash, or its signature), is refused at the checkpoint', () => {
    const envelope: string = tlog(real()).inclusionProof.checkpoint.envelope;
    for (const at of [envelope.indexOf('\n', envelope.indexOf('\n') + 1) + 3, envelope.length - 10]) {
      const bundle = real();
      tlog(bundle).inclusionProof.checkpoint.envelope = envelope.slice(0, at) + (envelope[at] === 'A' ? 'B' : 'A') + envelope.slice(at + 1);
      expect(checkOf(trust.verify(bundle))).toEqual([false, 'checkpoint']);
    }
  });

  it('with a number of the log entry changed, is refused by the check that reads it', () => {
    const changed = (edit: (b: Record<string, any>) => void) => {
      const bundle = real();
      edit(bundle);
      return checkOf(trust.verify(bundle));
    };
    expect(changed((b) => { tlog(b).inclusionProof.treeSize = '93750552'; })).toEqual([false, 'inclusion proof']);
    expect(changed((b) => { tlog(b).inclusionProof.logIndex = '93750548'; })).toEqual([false, 'inclusion proof']);
    expect(changed((b) => { tlog(b).inclusionProof.logIndex = '9375054x'; })).toEqual([false, 'inclusion proof']);
    expect(changed((b) => { tlog(b).logIndex = '97913981'; })).toEqual([false, 'signed entry timestamp']);
    // The log's time moves outside the certificate's ten minutes: it does not chain at that time.
    expect(changed((b) => { tlog(b).integratedTime = '1716999992'; })).toEqual([false, 'certificate chain']);
    expect(changed((b) => { tlog(b).kindVersion.version = '0.0.2'; })).toEqual([false, 'entry body']);
  });

  it('with one byte of the payload or signature changed, is refused by #21\'s own signature check before any of these', () => {
    for (const at of [(b: Record<string, any>): [Record<string, any>, string] => [b.dsseEnvelope, 'payload'], (b: Record<string, any>): [Record<string, any>, string] => [b.dsseEnvelope.signatures[0], 'sig']]) {
      expect(() => checkBundle(flipped(real(), at, 30))).toThrow('the DSSE signature does not verify against the certificate\'s public key');
    }
  });

  it('is refused by the SCT check under a root whose CT log has another key', async () => {
    const other = await createTestAuthority();
    const root = JSON.parse(publicGoodRoot().text);
    const otherKey = (other.trustedRoot.tlogs as Array<{ publicKey: { rawBytes: string } }>)[0]!.publicKey.rawBytes;
    for (const ctlog of root.ctlogs) ctlog.publicKey.rawBytes = otherKey;
    const verdict = new AttestationTrust('full', rootsFile([JSON.stringify(root)])).verify(real());
    expect(verdict).toMatchObject({ verified: false, check: 'SCT', reason: 'SCT: SCT verification failed against ATTESTATION_TRUSTED_ROOTS line 1' });
  });
});

describe('a certificate authority of the test\'s own', () => {
  let authority: TestAuthority;
  beforeAll(async () => {
    authority = await createTestAuthority();
  });

  it('is refused until its root is trusted, then verifies with its signer', async () => {
    const bundle = await authority.bundle();
    expect(checkBundle(bundle).subjects).toHaveLength(1);
    expect(new AttestationTrust('full').verify(bundle)).toEqual({
      verified: false, check: 'trusted root', signer: null, reason: 'trusted root: no trusted root for certificates issued by "orgsec test CA"',
    });
    const trust = new AttestationTrust('full', rootsFile([JSON.stringify(authority.trustedRoot)]));
    expect(trust.verify(bundle)).toEqual({
      verified: true, reason: null, check: null,
      signer: {
        certificateIssuer: TEST_OIDC_ISSUER, subjectAlternativeName: TEST_SAN, sourceRepositoryUri: 'https://github.com/trust-org/trust-app',
        sourceRepositoryOwnerUri: null, runnerEnvironment: null, workflowRef: null,
      },
    });
    // The public-good root still decides for public-good bundles.
    expect(trust.verify(real()).verified).toBe(true);
  });

  it('a root of another authority with the same organization does not vouch for it (certificate chain)', async () => {
    const impostor = await createTestAuthority();
    const trust = new AttestationTrust('full', rootsFile([JSON.stringify(impostor.trustedRoot)]));
    expect(checkOf(trust.verify(await authority.bundle()))).toEqual([false, 'certificate chain']);
  });

  describe('with its root trusted, refuses each broken part under its own check', () => {
    let trust: AttestationTrust;
    beforeAll(() => {
      trust = new AttestationTrust('full', rootsFile([JSON.stringify(authority.trustedRoot)]));
    });

    it('a log entry for another envelope: entry body', async () => {
      expect(checkOf(trust.verify(await authority.bundle({ logOtherPayload: true })))).toEqual([false, 'entry body']);
    });

    it('a signature that does not verify, logged as it is: signature', async () => {
      expect(checkOf(trust.verify(await authority.bundle({ signOther: true })))).toEqual([false, 'signature']);
    });

    it('no signed entry timestamp, so no time the certificate can be checked at: timestamps', async () => {
      expect(trust.verify(await authority.bundle({ withoutSet: true }))).toMatchObject({ check: 'timestamps', reason: expect.stringContaining('expected 1 timestamps, got 0') });
    });

    it('logged after the certificate expired: certificate chain', async () => {
      expect(checkOf(trust.verify(await authority.bundle({ integratedAfterExpiry: 60 })))).toEqual([false, 'certificate chain']);
    });

    it('no SCT while its root lists a CT log: SCT', async () => {
      const withCt = await createTestAuthority({ withCtLog: true });
      const ctTrust = new AttestationTrust('full', rootsFile([JSON.stringify(withCt.trustedRoot)]));
      expect(ctTrust.verify(await withCt.bundle())).toMatchObject({ check: 'SCT', reason: expect.stringContaining('expected 1 SCTs, got 0') });
    });
  });

  it('the roots in force have a fingerprint that changes with them (stored verdicts are recomputed)', () => {
    const none = new AttestationTrust('full');
    const some = new AttestationTrust('signature', rootsFile([JSON.stringify(authority.trustedRoot)]));
    expect(none.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(some.fingerprint).not.toBe(none.fingerprint);
    expect(new AttestationTrust('signature').fingerprint).toBe(none.fingerprint);
  });
});

describe('a trusted-roots file', () => {
  const write = (text: string) => {
    const file = path.join(tmp, `file-${Math.random().toString(36).slice(2)}.jsonl`);
    fs.writeFileSync(file, text);
    return file;
  };

  it('skips blank lines and reads the others in order', async () => {
    const a = await createTestAuthority({ organization: 'first org' });
    const b = await createTestAuthority({ organization: 'second org' });
    const read = readTrustedRootsFile(write(`${JSON.stringify(a.trustedRoot)}\n\n${JSON.stringify(b.trustedRoot)}\n`));
    expect('roots' in read && read.roots.map((r) => [r.source, [...r.issuerOrganizations]])).toEqual([
      ['ATTESTATION_TRUSTED_ROOTS line 1', ['first org']],
      ['ATTESTATION_TRUSTED_ROOTS line 3', ['second org']],
    ]);
  });

  it('names the first line that is not a trusted root, and why', async () => {
    const good = JSON.stringify((await createTestAuthority()).trustedRoot);
    expect(readTrustedRootsFile(write(`${good}\n{"mediaType":\n`))).toEqual({ problem: 'line 2 is not a trusted root: not JSON' });
    expect(readTrustedRootsFile(write(`${good}\n[1]\n`))).toEqual({ problem: 'line 2 is not a trusted root: not a JSON object' });
    expect(readTrustedRootsFile(write('{"mediaType":"application/json"}\n'))).toEqual({ problem: 'line 1 is not a trusted root: mediaType is not application/vnd.dev.sigstore.trustedroot+json' });
    expect(readTrustedRootsFile(write('{"mediaType":"application/vnd.dev.sigstore.trustedroot+json;version=0.1"}\n'))).toEqual({ problem: 'line 1 is not a trusted root: it lists no certificate authority' });
    const badCert = JSON.parse(good);
    badCert.certificateAuthorities[0].certChain.certificates[0].rawBytes = Buffer.from('not a certificate').toString('base64');
    expect(readTrustedRootsFile(write(`\n${JSON.stringify(badCert)}\n`))).toEqual({ problem: expect.stringMatching(/^line 2 is not a trusted root: /) });
    expect(readTrustedRootsFile(path.join(tmp, 'missing.jsonl'))).toEqual({ problem: 'no such file' });
  });
});
