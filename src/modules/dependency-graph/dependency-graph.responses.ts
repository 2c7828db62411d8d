import { z } from 'zod';

// Response schemas of S1 and S2 (interfaces.md Part 2).

/** S1. */
export const snapshotCreatedSchema = z.strictObject({
  id: z.int(),
  created_at: z.iso.datetime(),
  result: z.enum(['SUCCESS', 'ACCEPTED']).describe('SUCCESS: applied to the default branch\'s dependencies; ACCEPTED: stored, not applied'),
  message: z.string(),
});

/** S2: an SPDX 2.3 JSON document. */
export const sbomSchema = z.strictObject({
  sbom: z.looseObject({
    spdxVersion: z.literal('SPDX-2.3'),
    dataLicense: z.string(),
    SPDXID: z.string(),
    name: z.string(),
    documentNamespace: z.string(),
    creationInfo: z.strictObject({ creators: z.array(z.string()), created: z.iso.datetime() }),
    packages: z.array(z.looseObject({
      SPDXID: z.string(),
      name: z.string(),
      versionInfo: z.string().optional(),
      downloadLocation: z.string(),
      externalRefs: z.array(z.strictObject({ referenceCategory: z.string(), referenceType: z.string(), referenceLocator: z.string() })),
    })),
    relationships: z.array(z.strictObject({ spdxElementId: z.string(), relationshipType: z.string(), relatedSpdxElement: z.string() })),
  }),
});
