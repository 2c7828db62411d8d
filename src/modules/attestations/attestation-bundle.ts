import { canonicalJson } from '../../shared/canonical-json';
import { z } from 'zod';
import { sigstore } from './sigstore-libraries';
import { ValidationError } from '../../errors/domain';
import { INPUT_PARSE_OPTIONS, fieldSentence } from '../../shared/input-messages';

// Checks an attestation the way the signing ecosystem does, with its own libraries:
// a well-formed Sigstore bundle (v0.1–v0.3), holding a DSSE envelope of an in-toto
// Statement, whose signature verifies against the public key of the bundle's certificate
// (DSSE pre-authentication encoding). The certificate chain and transparency-log entry
// are not checked against a trusted root here.

const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** More subjects than any real statement has; each is indexed, so the number is bounded. */
export const MAX_SUBJECTS = 1000;
const STATEMENT_TYPES = ['https://in-toto.io/Statement/v0.1', 'https://in-toto.io/Statement/v1'];

const statementSchema = z.object({
  _type: z.string().refine((t) => STATEMENT_TYPES.includes(t), 'is not an in-toto Statement v0.1 or v1'),
  subject: z.array(z.object({ name: z.string().max(1024).optional(), digest: z.record(z.string(), z.string()) })).min(1, 'has no subject'),
  predicateType: z.string().min(1).max(255),
});

export interface BundleSubject {
  digest: string; // sha256:<64 lowercase hex>
  name: string | null;
}

export interface CheckedBundle {
  subjects: BundleSubject[];
  predicateType: string;
}

function reject(message: string): never {
  throw new ValidationError(`Invalid bundle: ${message}`, [{ resource: 'Attestation', field: 'bundle', code: 'custom', message }]);
}

export function checkBundle(json: unknown): CheckedBundle {
  const { bundle: bundles, core, verify } = sigstore();
  const mediaTypes = [bundles.BUNDLE_V01_MEDIA_TYPE, bundles.BUNDLE_V02_MEDIA_TYPE, bundles.BUNDLE_V03_LEGACY_MEDIA_TYPE, bundles.BUNDLE_V03_MEDIA_TYPE];
  const mediaType = (json as { mediaType?: unknown } | null)?.mediaType;
  if (typeof mediaType !== 'string' || !mediaTypes.includes(mediaType)) {
    reject(`mediaType must be one of ${mediaTypes.join(', ')}`);
  }
  let bundle;
  try {
    bundle = bundles.bundleFromJSON(json);
  } catch (error) {
    if (error instanceof bundles.ValidationError) reject(`not a well-formed Sigstore bundle (${(error.fields ?? []).join(', ') || error.message})`);
    reject('not a well-formed Sigstore bundle');
  }
  // Exactly a Sigstore bundle: what is stored and served is what was verified, nothing more.
  // Protobuf JSON leaves out default values, so an empty string (e.g. keyid: "") may differ.
  if (canonicalJson(bundles.bundleToJSON(bundle)) !== canonicalJson(withoutEmptyStrings(json))) reject('the bundle has fields that are not part of a Sigstore bundle');
  if (!bundles.isBundleWithDsseEnvelope(bundle)) reject('the bundle holds no DSSE envelope');
  const envelope = bundle.content.dsseEnvelope;
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) reject(`the DSSE payloadType must be ${IN_TOTO_PAYLOAD_TYPE}`);

  // The libraries parse untrusted bytes here (ASN.1, keys, signatures): any failure is the bundle's.
  let entity;
  try {
    entity = verify.toSignedEntity(bundle);
  } catch {
    reject('the certificate in the verification material cannot be parsed');
  }
  if (entity.key.$case !== 'certificate') reject('the verification material holds no certificate to verify the signature with');
  let key;
  try {
    key = core.crypto.createPublicKey(entity.key.certificate.publicKey);
  } catch {
    reject('the certificate in the verification material has no usable public key');
  }
  let verified = false;
  try {
    verified = entity.signature.verifySignature(key);
  } catch {
    verified = false;
  }
  if (!verified) reject('the DSSE signature does not verify against the certificate\'s public key');

  let statement: unknown;
  try {
    statement = JSON.parse(envelope.payload.toString('utf8'));
  } catch {
    reject('the DSSE payload is not JSON');
  }
  const parsed = statementSchema.safeParse(statement, INPUT_PARSE_OPTIONS);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    reject(`the payload is not an in-toto Statement: ${issue ? fieldSentence(issue.path.join('.') || 'statement', issue) : 'invalid'}`);
  }
  if (parsed.data.subject.length > MAX_SUBJECTS) reject(`the statement has more than ${MAX_SUBJECTS} subjects`);
  const subjects: BundleSubject[] = [];
  const seen = new Set<string>();
  for (const subject of parsed.data.subject) {
    const hex = subject.digest.sha256;
    if (hex === undefined) continue;
    if (!/^[0-9a-fA-F]{64}$/.test(hex)) reject('a subject sha256 digest is not 64 hexadecimal characters');
    const digest = `sha256:${hex.toLowerCase()}`;
    if (seen.has(digest)) reject('the statement has duplicate subjects');
    seen.add(digest);
    subjects.push({ digest, name: subject.name ?? null });
  }
  if (subjects.length === 0) reject('no subject carries a sha256 digest');
  return { subjects, predicateType: parsed.data.predicateType };
}

function withoutEmptyStrings(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEmptyStrings);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== '').map(([k, v]) => [k, withoutEmptyStrings(v)]));
  }
  return value;
}
