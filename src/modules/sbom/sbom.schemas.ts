import { z } from 'zod';
import { storableText } from '../../shared/storable-text';

// SBOM uploads' query and body as /openapi.json describes them: the document itself is read
// and checked by sbom-reader.ts against its own specification (a 422 names each problem by
// its JSON pointer), so the body's schema here only tells a client what to send.

/** Bytes of one document: a BOM of 5,000 components with hashes and licences fits. */
export const MAX_SBOM_BYTES = 8 * 1024 * 1024;

export const SBOM_MEDIA_TYPES = ['application/json', 'application/vnd.cyclonedx+json', 'application/spdx+json'] as const;

export const sbomUploadQuery = z.strictObject({
  manifest: storableText().min(1).max(255).optional().describe('The manifest the packages are recorded under (default: the name of what the document describes, else "sbom").'),
  ref: storableText().max(255).regex(/^refs\/\S+$/, 'must be a fully qualified Git reference starting with "refs/", such as refs/heads/main').optional()
    .describe('The Git reference the document describes (default: the repository\'s default branch).'),
  sha: z.string().regex(/^[0-9a-fA-F]{40}$/, 'must be a commit SHA: 40 hexadecimal digits').optional().describe('The commit the document describes.'),
  correlator: storableText().min(1).max(255).optional().describe('Uploads with the same correlator replace each other (default: "sbom-upload <manifest>").'),
});

export const sbomUploadBody = z.looseObject({
  bomFormat: z.literal('CycloneDX').optional().describe('CycloneDX: "CycloneDX", with specVersion 1.4, 1.5 or 1.6.'),
  specVersion: z.string().optional(),
  spdxVersion: z.literal('SPDX-2.3').optional().describe('SPDX: "SPDX-2.3".'),
}).describe('A CycloneDX 1.4–1.6 JSON BOM or an SPDX 2.3 JSON document.');

export const sbomUploadedSchema = z.strictObject({
  id: z.int().describe('The snapshot\'s id.'),
  created_at: z.iso.datetime(),
  result: z.enum(['SUCCESS', 'ACCEPTED']).describe('As a snapshot\'s: SUCCESS, applied; ACCEPTED, stored and not (yet) applied'),
  message: z.string(),
  format: z.string().describe('What the document was read as, e.g. "CycloneDX 1.6" or "SPDX 2.3".'),
  manifest: z.string().describe('The manifest the packages were recorded under.'),
  components: z.strictObject({
    total: z.int().describe('Components (SPDX: packages) the document lists.'),
    recorded: z.int().describe('Packages recorded (components with the same package URL count once).'),
    skipped: z.int().describe('Components not recorded: see `skipped`.'),
    unmatchable: z.int().describe('Recorded packages no advisory can match: a package URL type of no advisory ecosystem, or no version.'),
  }),
  skipped: z.array(z.strictObject({
    name: z.string(),
    path: z.string().describe('Where the document holds it (a JSON pointer).'),
    reason: z.enum(['no_package_url', 'subject']).describe('no_package_url: it has none; subject: it is what the document describes'),
  })).describe('The components not recorded, the first 100.'),
});
