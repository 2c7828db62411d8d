import type { AttestationRecord } from './attestations.types';

/** #22 item: the spec's bundle and repository_id, with reference.md's bundle_url and initiator. */
export function serializeAttestation(base: string, repo: { ownerLogin: string; name: string }, attestation: AttestationRecord) {
  return {
    bundle: attestation.bundle,
    repository_id: attestation.repoId,
    bundle_url: `${base}/repos/${repo.ownerLogin}/${repo.name}/attestations/bundles/${attestation.id}`,
    initiator: attestation.initiatorLogin,
  };
}
