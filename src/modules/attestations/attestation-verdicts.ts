import { LRUCache } from 'lru-cache';
import type { AttestationTrust, Verdict } from './attestation-trust';
import type { AttestationRecord, StoredVerdict } from './attestations.types';

/**
 * The verdict of a stored attestation against the roots in force: the stored one when it was
 * reached against these roots, else computed now (rows stored before verdicts were, world files,
 * rows verified under other ATTESTATION_TRUSTED_ROOTS). A computed verdict is kept in memory,
 * not written back: a read never writes, and the same roots give the same verdict.
 */
export class AttestationVerdicts {
  private readonly computed = new LRUCache<string, Verdict>({ max: 10_000 });

  constructor(readonly trust: AttestationTrust) {}

  /** The verdict to store with a new attestation. */
  forNew(bundle: unknown): StoredVerdict {
    return { verdict: this.trust.verify(bundle), roots: this.trust.fingerprint };
  }

  of(record: AttestationRecord): Verdict {
    if (record.storedVerdict?.roots === this.trust.fingerprint) return record.storedVerdict.verdict;
    const cached = this.computed.get(record.bundleSha256);
    if (cached) return cached;
    const verdict = this.trust.verify(record.bundle);
    this.computed.set(record.bundleSha256, verdict);
    return verdict;
  }
}
