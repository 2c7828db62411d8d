import 'reflect-metadata'; // @peculiar/x509 needs the polyfill
import crypto from 'node:crypto';
import * as x509 from '@peculiar/x509';
import { dsse } from '@sigstore/core';

// Real, verifiable Sigstore bundles for tests: an ECDSA P-256 key, a self-signed
// certificate holding it, and a DSSE envelope signed over its pre-authentication encoding.
// Built so each check of #21 can be failed on its own while the others pass.

x509.cryptoProvider.set(crypto.webcrypto as never);

export interface Signer {
  certificateDer: Buffer;
  privateKey: crypto.KeyObject;
}

export async function createSigner(): Promise<Signer> {
  const algorithm = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
  const keys = (await crypto.webcrypto.subtle.generateKey(algorithm, true, ['sign', 'verify'])) as crypto.webcrypto.CryptoKeyPair;
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: crypto.randomBytes(8).toString('hex'),
    name: 'CN=orgsec test signer',
    notBefore: new Date('2026-01-01T00:00:00Z'),
    notAfter: new Date('2036-01-01T00:00:00Z'),
    keys: keys as never,
    signingAlgorithm: algorithm,
  });
  return {
    certificateDer: Buffer.from(certificate.rawData),
    privateKey: crypto.KeyObject.from(keys.privateKey as unknown as crypto.webcrypto.CryptoKey),
  };
}

export interface StatementOptions {
  subjects?: Array<{ name?: string; digest: Record<string, string> }>;
  predicateType?: string;
  type?: string;
  predicate?: unknown;
}

export function statement(options: StatementOptions = {}): Record<string, unknown> {
  return {
    _type: options.type ?? 'https://in-toto.io/Statement/v1',
    subject: options.subjects ?? [{ name: 'artifact.tgz', digest: { sha256: 'a'.repeat(64) } }],
    predicateType: options.predicateType ?? 'https://slsa.dev/provenance/v1',
    predicate: options.predicate ?? { buildDefinition: { buildType: 'https://example.com/build' } },
  };
}

export interface BundleOptions {
  payload?: Buffer;
  payloadType?: string;
  mediaType?: string;
  /** Sign these bytes instead of the payload's PAE (a wrong signature). */
  signOver?: Buffer;
}

const TLOG_ENTRY = {
  logIndex: '1',
  logId: { keyId: Buffer.alloc(32).toString('base64') },
  kindVersion: { kind: 'dsse', version: '0.0.1' },
  integratedTime: '1767225600',
  inclusionPromise: { signedEntryTimestamp: Buffer.from('set').toString('base64') },
  inclusionProof: {
    logIndex: '1', rootHash: Buffer.alloc(32).toString('base64'), treeSize: '2',
    hashes: [Buffer.alloc(32).toString('base64')], checkpoint: { envelope: 'checkpoint' },
  },
  canonicalizedBody: Buffer.from('{}').toString('base64'),
};

/** A bundle (v0.3 unless said otherwise) whose DSSE signature verifies with the signer's certificate. */
export function signedBundle(signer: Signer, body: Record<string, unknown> = statement(), options: BundleOptions = {}): Record<string, unknown> {
  const payloadType = options.payloadType ?? 'application/vnd.in-toto+json';
  const payload = options.payload ?? Buffer.from(JSON.stringify(body));
  const signature = crypto.sign('sha256', options.signOver ?? dsse.preAuthEncoding(payloadType, payload), signer.privateKey);
  const mediaType = options.mediaType ?? 'application/vnd.dev.sigstore.bundle.v0.3+json';
  const rawBytes = signer.certificateDer.toString('base64');
  const isV03 = mediaType.includes('v0.3') || mediaType.endsWith('version=0.3');
  return {
    mediaType,
    verificationMaterial: {
      ...(isV03 ? { certificate: { rawBytes } } : { x509CertificateChain: { certificates: [{ rawBytes }] } }),
      tlogEntries: [TLOG_ENTRY],
      timestampVerificationData: {},
    },
    dsseEnvelope: {
      payload: payload.toString('base64'),
      payloadType,
      signatures: [{ sig: signature.toString('base64'), keyid: '' }],
    },
  };
}
