/** A stored attestation (spec §4.3). */
export interface AttestationRecord {
  id: number;
  repoId: number;
  bundle: unknown;
  predicateType: string;
  initiatorLogin: string | null;
}

/** A subject an attestation is indexed by. */
export interface AttestationSubjectRecord {
  digest: string;
  name: string | null;
}
