import 'reflect-metadata'; // @peculiar/x509 needs the polyfill
import crypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { dsse, json } from '@sigstore/core';
import { statement } from './signed-bundles';

// A certificate authority and a transparency log of the test's own, and bundles they vouch
// for, built the way Fulcio and Rekor build theirs: a leaf certificate with the Fulcio
// extensions, a DSSE envelope signed with its key, a Rekor dsse v0.0.1 entry of that envelope
// with a signed entry timestamp, and a one-leaf inclusion proof under a signed checkpoint.
// Its trusted root (the JSON `gh attestation trusted-root` prints) is what
// ATTESTATION_TRUSTED_ROOTS takes. Each option breaks one thing, so each check fails alone.

x509.cryptoProvider.set(crypto.webcrypto as never);

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const LOG_URL = 'https://log.orgsec.test';
const ISSUER_OID = '1.3.6.1.4.1.57264.1.8';
const SOURCE_REPOSITORY_URI_OID = '1.3.6.1.4.1.57264.1.12';

export const TEST_OIDC_ISSUER = 'https://token.actions.githubusercontent.com';
export const TEST_SAN = 'https://github.com/trust-org/trust-app/.github/workflows/release.yml@refs/heads/main';

async function ecKeys(): Promise<crypto.webcrypto.CryptoKeyPair> {
  return (await crypto.webcrypto.subtle.generateKey(EC, true, ['sign', 'verify'])) as crypto.webcrypto.CryptoKeyPair;
}

const keyObject = (key: crypto.webcrypto.CryptoKey) => crypto.KeyObject.from(key as never);

/** A DER UTF8String, as Fulcio writes its extensions from 1.3.6.1.4.1.57264.1.8 on. */
function utf8String(value: string): Buffer {
  const bytes = Buffer.from(value, 'utf8');
  return Buffer.concat([Buffer.from([0x0c, bytes.length]), bytes]);
}

export interface TestAuthority {
  /** The organization its leaf certificates name as issuer (how a root is chosen). */
  organization: string;
  /** One JSON line of ATTESTATION_TRUSTED_ROOTS. */
  trustedRoot: Record<string, unknown>;
  bundle(options?: TestBundleOptions): Promise<Record<string, unknown>>;
}

export interface TestBundleOptions {
  /** The statement's subject digest (sha256 hex). */
  digest?: string;
  san?: string;
  /** Leave out the signed entry timestamp (the bundle then carries no timestamp). */
  withoutSet?: boolean;
  /** Log an entry for another payload than the envelope's. */
  logOtherPayload?: boolean;
  /** Sign something else than the envelope (the log records that signature). */
  signOther?: boolean;
  /** Seconds after the leaf's notAfter at which the log integrated the entry. */
  integratedAfterExpiry?: number;
}

/** A CA and a log; `withCtLog` lists a CT log in the root (its leaves carry no SCT). */
export async function createTestAuthority(options: { organization?: string; withCtLog?: boolean } = {}): Promise<TestAuthority> {
  const organization = options.organization ?? 'orgsec test CA';
  const caKeys = await ecKeys();
  const caName = `CN=orgsec test intermediate, O=${organization}`;
  const ca = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: crypto.randomBytes(8).toString('hex'), name: caName,
    notBefore: new Date('2020-01-01T00:00:00Z'), notAfter: new Date('2040-01-01T00:00:00Z'),
    keys: caKeys as never, signingAlgorithm: EC,
    extensions: [new x509.BasicConstraintsExtension(true, 0, true), new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign, true)],
  });
  const logKeys = await ecKeys();
  const logSpki = Buffer.from(await crypto.webcrypto.subtle.exportKey('spki', logKeys.publicKey));
  const logId = crypto.createHash('sha256').update(logSpki).digest();
  const logKey = keyObject(logKeys.privateKey);
  const ctKeys = await ecKeys();
  const ctSpki = Buffer.from(await crypto.webcrypto.subtle.exportKey('spki', ctKeys.publicKey));
  const publicKey = (rawBytes: Buffer) => ({ rawBytes: rawBytes.toString('base64'), keyDetails: 'PKIX_ECDSA_P256_SHA_256', validFor: { start: '2020-01-01T00:00:00Z' } });

  const trustedRoot = {
    mediaType: 'application/vnd.dev.sigstore.trustedroot+json;version=0.1',
    tlogs: [{ baseUrl: LOG_URL, hashAlgorithm: 'SHA2_256', publicKey: publicKey(logSpki), logId: { keyId: logId.toString('base64') } }],
    certificateAuthorities: [{
      subject: { organization, commonName: 'orgsec test intermediate' }, uri: 'https://ca.orgsec.test',
      certChain: { certificates: [{ rawBytes: Buffer.from(ca.rawData).toString('base64') }] }, validFor: { start: '2020-01-01T00:00:00Z' },
    }],
    ctlogs: options.withCtLog
      ? [{ baseUrl: 'https://ct.orgsec.test', hashAlgorithm: 'SHA2_256', publicKey: publicKey(ctSpki), logId: { keyId: crypto.createHash('sha256').update(ctSpki).digest('base64') } }]
      : [],
    timestampAuthorities: [],
  };

  async function bundle(o: TestBundleOptions = {}): Promise<Record<string, unknown>> {
    const leafKeys = await ecKeys();
    const now = Math.floor(Date.now() / 1000);
    const notBefore = new Date((now - 60) * 1000);
    const notAfter = new Date((now + 600) * 1000);
    const leaf = await x509.X509CertificateGenerator.create({
      serialNumber: crypto.randomBytes(8).toString('hex'), subject: '', issuer: caName, notBefore, notAfter,
      publicKey: leafKeys.publicKey as never, signingKey: caKeys.privateKey as never, signingAlgorithm: EC,
      extensions: [
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
        new x509.SubjectAlternativeNameExtension([{ type: 'url', value: o.san ?? TEST_SAN }], true),
        new x509.Extension(ISSUER_OID, false, utf8String(TEST_OIDC_ISSUER)),
        new x509.Extension(SOURCE_REPOSITORY_URI_OID, false, utf8String('https://github.com/trust-org/trust-app')),
      ],
    });
    const leafDer = Buffer.from(leaf.rawData);
    const payloadType = 'application/vnd.in-toto+json';
    const payload = Buffer.from(JSON.stringify(statement(o.digest ? { subjects: [{ name: 'trust-app.tgz', digest: { sha256: o.digest } }] } : {})));
    const signed = o.signOther ? Buffer.from('something else') : dsse.preAuthEncoding(payloadType, payload);
    const signature = crypto.sign('sha256', signed, keyObject(leafKeys.privateKey));

    const loggedPayload = o.logOtherPayload ? Buffer.concat([payload, Buffer.from(' ')]) : payload;
    const body = Buffer.from(json.canonicalize({
      apiVersion: '0.0.1', kind: 'dsse',
      spec: {
        payloadHash: { algorithm: 'sha256', value: crypto.createHash('sha256').update(loggedPayload).digest('hex') },
        signatures: [{ signature: signature.toString('base64'), verifier: Buffer.from(leaf.toString('pem')).toString('base64') }],
      },
    }), 'utf8');
    const integratedTime = o.integratedAfterExpiry === undefined ? now : Math.floor(notAfter.getTime() / 1000) + o.integratedAfterExpiry;
    const set = crypto.sign('sha256', Buffer.from(json.canonicalize({
      body: body.toString('base64'), integratedTime, logIndex: 1, logID: logId.toString('hex'),
    }), 'utf8'), logKey);
    // A log of two entries, this one second (protobuf JSON leaves a 0 index out): the proof is
    // the first entry's leaf hash, the root hashes the two leaves (RFC 6962).
    const sha256 = (...parts: Buffer[]) => crypto.createHash('sha256').update(Buffer.concat(parts)).digest();
    const firstLeaf = sha256(Buffer.from([0]), Buffer.from('{"first":"entry"}'));
    const rootHash = sha256(Buffer.from([1]), firstLeaf, sha256(Buffer.from([0]), body));
    const note = `log.orgsec.test - 1\n2\n${rootHash.toString('base64')}\n`;
    const noteSignature = Buffer.concat([logId.subarray(0, 4), crypto.sign('sha256', Buffer.from(note), logKey)]);
    return {
      mediaType: 'application/vnd.dev.sigstore.bundle.v0.3+json',
      verificationMaterial: {
        certificate: { rawBytes: leafDer.toString('base64') },
        tlogEntries: [{
          logIndex: '1', logId: { keyId: logId.toString('base64') }, kindVersion: { kind: 'dsse', version: '0.0.1' },
          integratedTime: String(integratedTime),
          ...(o.withoutSet ? {} : { inclusionPromise: { signedEntryTimestamp: set.toString('base64') } }),
          inclusionProof: {
            logIndex: '1', rootHash: rootHash.toString('base64'), treeSize: '2', hashes: [firstLeaf.toString('base64')],
            checkpoint: { envelope: `${note}\n\u2014 log.orgsec.test ${noteSignature.toString('base64')}\n` },
          },
          canonicalizedBody: body.toString('base64'),
        }],
        timestampVerificationData: {},
      },
      dsseEnvelope: { payload: payload.toString('base64'), payloadType, signatures: [{ sig: signature.toString('base64') }] },
    };
  }

  return { organization, trustedRoot, bundle };
}
