import { z } from 'zod';
import { integerString, pathName } from '../../http/params';
import { MAX_CURSOR_LENGTH, cursorQuery } from '../../http/pagination';
import type { InputContext } from '../../http/validate';

export const ATTESTATION_INPUT: InputContext = { resource: 'Attestation', invalidStatus: 422 };

/** Bundles can carry large predicates (SBOMs); other bodies stay at the default limit. */
export const MAX_BUNDLE_BYTES = 4 * 1024 * 1024;

export const repoPath = z.object({ owner: pathName, repo: pathName });

/** `sha256:` and 64 hexadecimal digits; upper-case hex is accepted and lower-cased. */
const subjectDigest = z
  .string()
  .regex(/^sha256:[0-9a-fA-F]{64}$/, 'must be "sha256:" followed by 64 hexadecimal digits')
  .transform((d) => d.toLowerCase());
const predicateType = z.string().min(1).max(255);
const cursor = z.string().min(1).max(MAX_CURSOR_LENGTH);

export const subjectPath = repoPath.extend({ subject_digest: subjectDigest });

export const bundlePath = repoPath.extend({ attestation_id: integerString({ min: 1 }) });

export const createBody = z.strictObject({ bundle: z.record(z.string(), z.unknown()) });

export const listQuery = cursorQuery.extend({ predicate_type: predicateType.optional() });

/** #22's subject and filters as GraphQL arguments give them: the same rules as the path and query above. */
export const attestationListChecks = z.object({
  subjectDigest,
  predicateType: predicateType.optional(),
  after: cursor.optional(),
  before: cursor.optional(),
});
