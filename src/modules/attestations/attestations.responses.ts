import { z } from 'zod';

// Response schemas of #21 and #22 (spec §2.7 with reference.md's additions).

/** #21. */
export const attestationCreatedSchema = z.strictObject({ id: z.int() });

/** #22 item: the stored signing bundle as it was sent. */
export const attestationSchema = z.strictObject({
  bundle: z.record(z.string(), z.unknown()).describe('The signing bundle (mediaType, verificationMaterial, dsseEnvelope)'),
  repository_id: z.int(),
  bundle_url: z.string(),
  initiator: z.string().nullable(),
});

/** #22. */
export const attestationListSchema = z.strictObject({ attestations: z.array(attestationSchema) });
