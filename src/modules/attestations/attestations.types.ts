import type { Verdict } from './attestation-trust';

/** A verdict as stored with its attestation, with the fingerprint of the roots it was reached against. */
export interface StoredVerdict {
  verdict: Verdict;
  roots: string;
}

/** A stored attestation (spec §4.3). */
export interface AttestationRecord {
  id: number;
  repoId: number;
  bundle: unknown;
  bundleSha256: string;
  predicateType: string;
  initiatorLogin: string | null;
  /** Null for attestations stored before verdicts were (they are computed when read). */
  storedVerdict: StoredVerdict | null;
}

/** #22's list as both doors ask for it (REST path and query, GraphQL arguments): validated, in domain terms. */
export interface AttestationListQuery {
  /** sha256:<64 lower-case hex>. */
  subjectDigest: string;
  predicateType?: string | undefined;
  perPage: number;
  after?: string | undefined;
  before?: string | undefined;
  /** The last page (GraphQL `last` without `before`). */
  fromEnd?: boolean | undefined;
  /** Also count the whole list (GraphQL totalCount). */
  withTotal?: boolean | undefined;
}

/** A subject an attestation is indexed by. */
export interface AttestationSubjectRecord {
  digest: string;
  name: string | null;
}
