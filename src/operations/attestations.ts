import { attestationCreatedSchema, attestationListSchema } from '../modules/attestations/attestations.responses';
import { createBody, listQuery, repoPath, subjectPath } from '../modules/attestations/attestations.schemas';
import type { Operation } from './operation';

// Spec §4.3, #21–#22, and the bundle_url of #22's items.

const TAG = 'attestations';

export const ATTESTATION_OPERATIONS = {
  createAttestation: {
    number: 21, operationId: 'repos/create-attestation', method: 'post', path: '/repos/{owner}/{repo}/attestations', success: 201,
    request: { params: repoPath, body: createBody },
    response: { schema: attestationCreatedSchema },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['attestations', 'write'], caller: 'repoWriter' },
    docs: { tag: TAG, summary: 'Create an attestation' },
  },
  listAttestations: {
    number: 22, operationId: 'repos/list-attestations', method: 'get', path: '/repos/{owner}/{repo}/attestations/{subject_digest}', success: 200,
    linked: { bundle: '/repos/{owner}/{repo}/attestations/bundles/{attestation_id}' },
    request: { params: subjectPath, query: listQuery },
    response: { schema: attestationListSchema },
    requirement: { target: 'repo', scopes: ['repo'], permission: ['attestations', 'read'], caller: 'repoReader', publicRead: true },
    docs: { tag: TAG, summary: 'List attestations', pagination: 'cursor' },
  },
} satisfies Record<string, Operation>;
