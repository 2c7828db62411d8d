import { attestationCreatedSchema, attestationListSchema } from '../modules/attestations/attestations.responses';
import { createBody, listQuery, repoPath, subjectPath } from '../modules/attestations/attestations.schemas';
import type { Operation } from './operation';

// Spec §4.3, #21–#22, and the bundle_url of #22's items.

const TAG = 'attestations';

// What a caller meets beyond the schemas, shown with each operation in /docs.
const CURSOR_PAGING = 'Paged by cursor: follow the `Link` header; the `page` parameter answers 400, as does a cursor that was not issued.';

export const ATTESTATION_OPERATIONS = {
  createAttestation: {
    number: 21, operationId: 'repos/create-attestation', method: 'post', path: '/repos/{owner}/{repo}/attestations', success: 201,
    request: { params: repoPath, body: createBody },
    response: { schema: attestationCreatedSchema },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['attestations', 'write'], caller: 'repoWriter' },
    docs: { tag: TAG, summary: 'Create an attestation', rules: [
        'The bundle must be a Sigstore bundle (v0.1 to v0.3) holding a DSSE envelope of an in-toto Statement (v0.1 or v1) with a `predicateType`, '
        + 'at least one subject with a `sha256` digest, at most 1,000 subjects and no duplicate digests; anything else answers 422 saying why.',
        'The DSSE signature must verify against the public key of the bundle\'s certificate. With `ATTESTATION_VERIFICATION=full` the bundle must also '
        + 'verify against a trusted root (certificate chain at the signing time, SCT, transparency-log entry, timestamps); otherwise 422 names the check that failed. '
        + 'Either way the verdict is stored with the attestation (GraphQL `Attestation.verification`).',
        'Sending the same bundle again to the same repository answers the id it already has.',
      ] },
  },
  listAttestations: {
    number: 22, operationId: 'repos/list-attestations', method: 'get', path: '/repos/{owner}/{repo}/attestations/{subject_digest}', success: 200,
    linked: { bundle: '/repos/{owner}/{repo}/attestations/bundles/{attestation_id}' },
    request: { params: subjectPath, query: listQuery },
    response: { schema: attestationListSchema },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['attestations', 'read'], caller: 'repoReader', publicRead: true },
    docs: { tag: TAG, summary: 'List attestations', pagination: 'cursor', rules: [
        'Newest first; each bundle is returned exactly as it was sent, and can also be read at its `bundle_url`.',
        'An unknown digest answers `{"attestations": []}`; upper-case hexadecimal digits are accepted.',
        '`predicate_type` takes a predicate URI or one of `provenance`, `sbom` (SPDX and CycloneDX) and `release`.',
        CURSOR_PAGING,
      ] },
  },
} satisfies Record<string, Operation>;
