import type { Knex } from 'knex';
import type { AccountsStore } from '../accounts/accounts.store';
import type { AttestationTrust, Verdict } from './attestation-trust';
import type { AttestationsStore } from './attestations.store';
import { predicateFilterOf } from './attestations.service';
import { policyProblem, type SignerPolicy } from './signer-policy';

/** One stored attestation, verified fully and held to the policy. */
export interface AuditedAttestation {
  id: number;
  predicateType: string;
  verdict: Verdict;
  /** Why the verified signer fails the policy; undefined when it meets it (or did not verify). */
  policyProblem: string | undefined;
  /** Verified and within the policy. */
  isAccepted: boolean;
}

/**
 * `orgsec attestations verify`: an operator's look at what is stored, so no caller and no
 * authorization; each attestation is verified now against the roots in force, whatever its
 * stored verdict says.
 */
export class AttestationAudit {
  constructor(private readonly deps: { db: Knex; accounts: AccountsStore; attestations: AttestationsStore; trust: AttestationTrust }) {}

  async verify(query: { owner: string; repo: string; digest: string; predicateType?: string | undefined; policy: SignerPolicy }): Promise<AuditedAttestation[]> {
    const { db, accounts, attestations, trust } = this.deps;
    const repo = await accounts.findRepository(db, query.owner, query.repo);
    if (!repo) throw new Error(`--repo: no repository ${query.owner}/${query.repo} in this database (the attestations verified are the ones stored in orgsec, by #21)`);
    const records = await attestations.allBySubject(db, repo.id, query.digest, predicateFilterOf(query.predicateType));
    return records.map((record) => {
      const verdict = trust.verify(record.bundle);
      const problem = verdict.signer ? policyProblem(query.policy, verdict.signer) : undefined;
      return { id: record.id, predicateType: record.predicateType, verdict, policyProblem: problem, isAccepted: verdict.verified && problem === undefined };
    });
  }
}
