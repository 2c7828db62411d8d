import { z } from 'zod';
import { ValidationError } from '../../errors/domain';

// Reads what an attestation is indexed by: the in-toto Statement inside the bundle's
// DSSE envelope. (Issue #4 adds the Sigstore bundle and signature checks here.)

const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
const STATEMENT_TYPES = ['https://in-toto.io/Statement/v0.1', 'https://in-toto.io/Statement/v1'];

const statementSchema = z.object({
  _type: z.string().refine((t) => STATEMENT_TYPES.includes(t), 'is not an in-toto Statement v0.1 or v1'),
  subject: z.array(z.object({ name: z.string().optional(), digest: z.record(z.string(), z.string()) })).min(1),
  predicateType: z.string().min(1).max(255),
});

export interface BundleSubject {
  digest: string; // sha256:<64 lowercase hex>
  name: string | null;
}

export interface InspectedBundle {
  subjects: BundleSubject[];
  predicateType: string;
}

function reject(message: string): never {
  throw new ValidationError(`Invalid bundle: ${message}`, [{ resource: 'Attestation', field: 'bundle', code: 'custom', message }]);
}

export function inspectBundle(bundle: unknown): InspectedBundle {
  const envelope = (bundle as { dsseEnvelope?: { payload?: unknown; payloadType?: unknown } } | null)?.dsseEnvelope;
  if (!envelope || typeof envelope.payload !== 'string') reject('the bundle holds no DSSE envelope with a payload');
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE) reject(`the DSSE payloadType must be ${IN_TOTO_PAYLOAD_TYPE}`);
  let statement: unknown;
  try {
    statement = JSON.parse(Buffer.from(envelope.payload as string, 'base64').toString('utf8'));
  } catch {
    reject('the DSSE payload is not a base64-encoded JSON document');
  }
  const parsed = statementSchema.safeParse(statement);
  if (!parsed.success) reject(`the payload is not an in-toto Statement: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const subjects: BundleSubject[] = [];
  for (const subject of parsed.data.subject) {
    const hex = subject.digest.sha256?.toLowerCase();
    if (hex === undefined) continue;
    if (!/^[0-9a-f]{64}$/.test(hex)) reject('a subject sha256 digest is not 64 hexadecimal characters');
    const digest = `sha256:${hex}`;
    if (subjects.some((s) => s.digest === digest)) reject('the statement has duplicate subjects');
    subjects.push({ digest, name: subject.name ?? null });
  }
  if (subjects.length === 0) reject('no subject carries a sha256 digest');
  return { subjects, predicateType: parsed.data.predicateType };
}
