import type { Bundle } from '@sigstore/bundle';
import type { X509Certificate } from '@sigstore/core';
import type { SignedEntity, VerificationError } from '@sigstore/verify';
import { sigstore } from './sigstore-libraries';
import { fingerprintOf, organizationsOf, publicGoodRoot, type TrustRoot } from './trusted-roots';

// Full verification of a Sigstore bundle against the trusted roots (interfaces.md Part 2
// "Attestation trust"), by @sigstore/verify's Verifier: the certificate chain to a trusted
// authority at the signing time, the SCTs, the transparency-log entry (signed entry timestamp,
// checkpoint and inclusion proof, its body against the envelope), RFC 3161 timestamps, and the
// DSSE signature. orgsec adds only the choice of root and what that root requires, and names
// the check that failed. No cryptography here.

export type VerificationMode = 'signature' | 'full';

/** The checks a verdict can name, in the words the 422 and the CLI use. */
export type TrustCheck =
  | 'trusted root' | 'certificate chain' | 'SCT' | 'transparency log entry' | 'signed entry timestamp'
  | 'checkpoint' | 'inclusion proof' | 'entry body' | 'timestamps' | 'signature';

/** What a failed check means to someone deciding whether to trust the attestation, in a sentence's words. */
const CHECK_MEANINGS: Readonly<Record<TrustCheck, string>> = {
  'trusted root': 'it was not signed under a Sigstore root you trust (add that instance\'s roots with ATTESTATION_TRUSTED_ROOTS)',
  'certificate chain': 'its signing certificate does not chain to a root you trust, or was not valid when it signed',
  'SCT': 'its signing certificate was not logged by a certificate transparency log you trust',
  'transparency log entry': 'it is not recorded in a transparency log you trust',
  'signed entry timestamp': 'the transparency log\'s promise that it recorded the bundle does not check out: the bundle was altered, or comes from another log',
  'checkpoint': 'the transparency log\'s checkpoint in the bundle does not check out: the bundle was altered after the log issued it, or comes from another log',
  'inclusion proof': 'the proof that the transparency log holds the bundle does not check out: the bundle was altered, or comes from another log',
  'entry body': 'the transparency log\'s record is of another signature or content than the bundle\'s',
  'timestamps': 'no trusted time shows it was signed while its certificate was valid',
  'signature': 'its signature does not match its content: the attestation was altered',
};

/** Why an attestation is not trusted, as a person reads it: what the failed check means, then the verifier's own words. */
export function untrustedBecause(verdict: Pick<Verdict, 'check' | 'reason'>): string {
  return verdict.check === null ? verdict.reason ?? 'not verified' : `${CHECK_MEANINGS[verdict.check]} (${verdict.reason})`;
}

/** Who signed, as the verified leaf certificate says (Fulcio's extensions). */
export interface SignerIdentity {
  certificateIssuer: string | null;
  subjectAlternativeName: string | null;
  sourceRepositoryUri: string | null;
  sourceRepositoryOwnerUri: string | null;
  runnerEnvironment: string | null;
  workflowRef: string | null;
}

export interface Verdict {
  verified: boolean;
  /** The failed check and why; null when verified. */
  reason: string | null;
  check: TrustCheck | null;
  /** The signer, when verified (an identity is only worth showing once its certificate chains to a trusted root). */
  signer: SignerIdentity | null;
}

/** Bumped when what a verdict means changes, so stored verdicts are computed again. */
const RULES_VERSION = 1;

// Fulcio certificate extensions (https://github.com/sigstore/fulcio/blob/main/docs/oid-info.md).
const OID_ISSUER_V1 = '1.3.6.1.4.1.57264.1.1'; // raw string
const OID_WORKFLOW_REF_V1 = '1.3.6.1.4.1.57264.1.6'; // raw string: the git ref the workflow ran on
const OID_ISSUER_V2 = '1.3.6.1.4.1.57264.1.8'; // DER UTF8String, as every extension from .8 on
const OID_RUNNER_ENVIRONMENT = '1.3.6.1.4.1.57264.1.11';
const OID_SOURCE_REPOSITORY_URI = '1.3.6.1.4.1.57264.1.12';
const OID_SOURCE_REPOSITORY_REF = '1.3.6.1.4.1.57264.1.14';
const OID_SOURCE_REPOSITORY_OWNER_URI = '1.3.6.1.4.1.57264.1.16';

function rawExtension(certificate: X509Certificate, oid: string): string | null {
  return certificate.extension(oid)?.value.toString('utf8') ?? null;
}

function derExtension(certificate: X509Certificate, oid: string): string | null {
  try {
    return certificate.extension(oid)?.valueObj.subs[0]?.value.toString('utf8') ?? null;
  } catch {
    return null; // not the DER string Fulcio writes
  }
}

export function signerOf(certificate: X509Certificate): SignerIdentity {
  return {
    certificateIssuer: derExtension(certificate, OID_ISSUER_V2) ?? rawExtension(certificate, OID_ISSUER_V1),
    subjectAlternativeName: certificate.subjectAltName ?? null,
    sourceRepositoryUri: derExtension(certificate, OID_SOURCE_REPOSITORY_URI),
    sourceRepositoryOwnerUri: derExtension(certificate, OID_SOURCE_REPOSITORY_OWNER_URI),
    runnerEnvironment: derExtension(certificate, OID_RUNNER_ENVIRONMENT),
    workflowRef: rawExtension(certificate, OID_WORKFLOW_REF_V1) ?? derExtension(certificate, OID_SOURCE_REPOSITORY_REF),
  };
}

/** The check a Sigstore VerificationError stands for: its code, and for two codes the part that failed. */
function checkOf(error: VerificationError): TrustCheck {
  switch (error.code) {
    case 'CERTIFICATE_ERROR':
      return /\bSCTs?\b/.test(error.message) ? 'SCT' : 'certificate chain';
    case 'TLOG_ERROR':
      return 'transparency log entry';
    case 'TLOG_INCLUSION_PROMISE_ERROR':
      return 'signed entry timestamp';
    case 'TLOG_INCLUSION_PROOF_ERROR':
      return /checkpoint/.test(error.message) ? 'checkpoint' : 'inclusion proof';
    case 'TLOG_MISSING_INCLUSION_ERROR':
      return 'inclusion proof';
    case 'TLOG_BODY_ERROR':
      return 'entry body';
    case 'TIMESTAMP_ERROR':
      return 'timestamps';
    case 'SIGNATURE_ERROR':
      return 'signature';
    default:
      return 'certificate chain'; // PUBLIC_KEY_ERROR and the like: no trusted certificate
  }
}

function refused(check: TrustCheck, detail: string): Verdict {
  return { verified: false, reason: `${check}: ${detail}`, check, signer: null };
}

/** When the library throws a plain error: it parses the entry's body (JSON) as it checks it. */
function malformed(error: unknown): Verdict {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof SyntaxError) return refused('entry body', `malformed log entry body (${detail})`);
  return refused('transparency log entry', `malformed (${detail})`);
}

const DECIMAL = /^\d{1,19}$/;

/** The checkpoint's note lines (origin, tree size, root hash), as the log signed them. */
function checkpointLines(envelope: string): string[] {
  const end = envelope.indexOf('\n\n');
  return (end < 0 ? envelope : envelope.slice(0, end)).split('\n');
}

/**
 * The numbers the library reads with BigInt must be decimal (a plain error otherwise, naming no check);
 * checked before verifying, so a malformed one is refused under its own check.
 */
function malformedNumbers(bundle: Bundle): Verdict | undefined {
  for (const entry of bundle.verificationMaterial.tlogEntries) {
    const proof = entry.inclusionProof;
    if (!proof) continue;
    if (!DECIMAL.test(proof.logIndex) || !DECIMAL.test(proof.treeSize)) return refused('inclusion proof', 'the log index or tree size is not a decimal number');
    const size = checkpointLines(proof.checkpoint?.envelope ?? '')[1];
    if (size !== undefined && !DECIMAL.test(size)) return refused('checkpoint', 'the tree size is not a decimal number');
  }
  return undefined;
}

/**
 * The library proves inclusion against the signed checkpoint's tree size and root hash; the proof's
 * own copies must be those (sigstore-go checks the same), or a byte there would change nothing.
 */
function proofMismatch(bundle: Bundle): Verdict | undefined {
  for (const entry of bundle.verificationMaterial.tlogEntries) {
    const proof = entry.inclusionProof;
    if (!proof?.checkpoint) continue;
    const [, size, rootHash] = checkpointLines(proof.checkpoint.envelope);
    if (size !== proof.treeSize) return refused('inclusion proof', 'the tree size is not the signed checkpoint\'s');
    if (rootHash !== proof.rootHash.toString('base64')) return refused('inclusion proof', 'the root hash is not the signed checkpoint\'s');
  }
  return undefined;
}

/**
 * The roots in force and the verification mode. `full` refuses (in #21) what does not verify;
 * both modes record the verdict with each attestation.
 */
export class AttestationTrust {
  #roots: readonly TrustRoot[] | undefined;
  #fingerprint: string | undefined;

  constructor(readonly mode: VerificationMode = 'signature', private readonly configured: readonly TrustRoot[] = []) {}

  /** Configured roots first (a fresher public-good root there wins), then the bundled one (read when first needed). */
  get roots(): readonly TrustRoot[] {
    return (this.#roots ??= [...this.configured, publicGoodRoot()]);
  }

  get fingerprint(): string {
    return (this.#fingerprint ??= fingerprintOf(this.roots, RULES_VERSION));
  }

  /** Full verification of a bundle (JSON as sent). Never throws: every failure is a verdict naming its check. */
  verify(json: unknown): Verdict {
    try {
      return this.verdictOf(json);
    } catch (error) {
      // Outside the Verifier, only the certificate's names and extensions are parsed.
      return refused('certificate chain', `the certificate cannot be read (${error instanceof Error ? error.message : 'malformed'})`);
    }
  }

  private verdictOf(json: unknown): Verdict {
    const { bundle: bundles, verify } = sigstore();
    let bundle: Bundle;
    let entity: SignedEntity;
    try {
      bundle = bundles.bundleFromJSON(json);
      entity = verify.toSignedEntity(bundle);
    } catch (error) {
      return refused('certificate chain', `the bundle cannot be read (${error instanceof Error ? error.message : 'malformed'})`);
    }
    if (entity.key.$case !== 'certificate') return refused('certificate chain', 'the bundle holds a public-key hint, not a certificate');
    const leaf = entity.key.certificate;
    const issuers = organizationsOf(leaf.issuer);
    if (issuers.length !== 1) return refused('trusted root', 'the certificate\'s issuer does not name exactly one organization');
    const issuer = issuers[0]!;
    // As gh attestation verify: the root is chosen by the organization that issued the leaf.
    const root = this.roots.find((r) => r.issuerOrganizations.has(issuer));
    if (!root) return refused('trusted root', `no trusted root for certificates issued by "${issuer}"`);
    // A root requires what it provides (gh's policies for the public-good, GitHub and custom roots):
    // a log entry when it lists logs, an SCT only when it lists CT logs, and one verified timestamp,
    // a log's signed entry timestamp or a timestamp authority's; a root without logs (GitHub's) can
    // only be satisfied by its timestamp authorities. Every timestamp a bundle carries must verify.
    const numbers = malformedNumbers(bundle);
    if (numbers) return numbers;
    const verifier = new verify.Verifier(root.material, {
      tlogThreshold: root.material.tlogs.length > 0 ? 1 : 0,
      ctlogThreshold: root.material.ctlogs.length > 0 ? 1 : 0,
      timestampThreshold: 1,
    });
    try {
      verifier.verify(entity);
    } catch (error) {
      if (error instanceof verify.VerificationError) {
        const cause = error.cause instanceof Error && error.cause.message !== error.message ? ` (${error.cause.message})` : '';
        return refused(checkOf(error), `${error.message}${cause} against ${root.source}`);
      }
      return malformed(error);
    }
    const mismatch = proofMismatch(bundle);
    if (mismatch) return mismatch;
    return { verified: true, reason: null, check: null, signer: signerOf(leaf) };
  }
}
