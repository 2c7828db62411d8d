import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import { actorOf } from '../audit-log/audit-actors';
import type { AuditRecorder } from '../audit-log/audit-recorder';
import { withTransaction } from '../../database/transaction';
import type { KeysetPage } from '../../database/keyset';
import { NotFoundError, ValidationError } from '../../errors/domain';
import { nowTimestamp } from '../../shared/time';
import type { RepositoryRecord } from '../accounts/accounts.types';
import type { AccountsStore } from '../accounts/accounts.store';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import { checkBundle } from './attestation-bundle';
import type { Verdict } from './attestation-trust';
import type { AttestationVerdicts } from './attestation-verdicts';
import type { AttestationsStore, PredicateFilter } from './attestations.store';
import type { AttestationListQuery, AttestationRecord, AttestationSubjectRecord } from './attestations.types';

// Short predicate-type names users type (reference.md), beside full URIs.
const PREDICATE_SHORT_NAMES: Record<string, PredicateFilter> = {
  provenance: { exact: ['https://slsa.dev/provenance/v1'], prefixes: [] },
  sbom: { exact: ['https://spdx.dev/Document', 'https://cyclonedx.org/bom'], prefixes: ['https://spdx.dev/Document/', 'https://cyclonedx.org/bom/'] },
  release: { exact: ['https://in-toto.io/attestation/release/v0.1'], prefixes: [] },
};

export function predicateFilterOf(predicateType: string | undefined): PredicateFilter | undefined {
  if (predicateType === undefined) return undefined;
  return PREDICATE_SHORT_NAMES[predicateType.toLowerCase()] ?? { exact: [predicateType], prefixes: [] };
}

/** interfaces.md "Attestation trust": in full mode, 422 naming the check that failed. */
function refuseUntrusted(verdict: Verdict): never {
  const check = verdict.check ?? 'verification';
  const message = `the ${check} check failed: ${verdict.reason?.slice(check.length + 2) ?? 'not verified'}`;
  throw new ValidationError(`Invalid bundle: ${message}`, [{ resource: 'Attestation', field: 'bundle', code: 'custom', message }]);
}

/** Spec §4.3: signed attestations stored against a repository, found by subject digest. */
export class AttestationsService {
  constructor(private readonly deps: { db: Knex; lookups: AuthorizedLookups; attestations: AttestationsStore; accounts: AccountsStore; verdicts: AttestationVerdicts; audit: AuditRecorder }) {}

  /**
   * #21: checks the bundle, stores it once with its verdict against the trusted roots; the same
   * bundle again answers the same id. ATTESTATION_VERIFICATION=full refuses one that does not verify.
   */
  async create(principal: Principal, owner: string, name: string, bundle: unknown): Promise<{ id: number }> {
    return withTransaction(this.deps.db, async (trx) => {
      const repo = await this.deps.lookups.repo(trx, principal, 'createAttestation', owner, name);
      const checked = checkBundle(bundle);
      const stored = this.deps.verdicts.forNew(bundle);
      if (this.deps.verdicts.trust.mode === 'full' && !stored.verdict.verified) refuseUntrusted(stored.verdict);
      const initiator = principal.kind === 'user' ? principal.userId : null;
      const { id, created } = await this.deps.attestations.insert(trx, repo.id, bundle, checked, initiator, nowTimestamp(), stored);
      if (created) {
        await this.deps.audit.record(trx, actorOf(principal), [{
          action: 'attestation.create', operation: 'create', repo,
          data: { attestation_id: id, predicate_type: checked.predicateType, subject_digests: checked.subjects.map((s) => s.digest), verified: stored.verdict.verified },
        }]);
      }
      return { id };
    });
  }

  /** The verdict of an attestation the caller has read, against the roots in force. */
  verificationOf(_principal: Principal, attestation: AttestationRecord): Verdict {
    return this.deps.verdicts.of(attestation);
  }

  /** #22: attestations of a repository for a subject digest (sha256:<hex>), newest first. */
  async list(principal: Principal, owner: string, name: string, query: AttestationListQuery): Promise<{ repo: RepositoryRecord; page: KeysetPage<AttestationRecord>; total: number | undefined }> {
    const { db, attestations } = this.deps;
    const repo = await this.deps.lookups.repo(db, principal, 'listAttestations', owner, name);
    const predicate = predicateFilterOf(query.predicateType);
    const digest = query.subjectDigest;
    return {
      repo,
      page: await attestations.listBySubject(db, repo.id, digest, { predicate, perPage: query.perPage, after: query.after, before: query.before, fromEnd: query.fromEnd }),
      total: query.withTotal ? await attestations.countBySubject(db, repo.id, digest, predicate) : undefined,
    };
  }

  /** The subjects of attestations the caller has read (one statement for the batch). */
  async subjectsByIds(_principal: Principal, ids: readonly number[]): Promise<Map<number, AttestationSubjectRecord[]>> {
    return this.deps.attestations.subjectsOf(this.deps.db, ids);
  }

  /** An attestation by its id, with its repository, under #22's rules (GraphQL node ids). */
  async getById(principal: Principal, id: number): Promise<{ repo: RepositoryRecord; attestation: AttestationRecord }> {
    const { db } = this.deps;
    const repoId = await this.deps.attestations.repoIdOf(db, id);
    const repo = repoId === undefined ? undefined : (await this.deps.accounts.findRepositoriesByIds(db, [repoId])).get(repoId);
    if (!repo) throw new NotFoundError();
    return { repo, attestation: await this.get(principal, repo.ownerLogin, repo.name, id) };
  }

  /** The bundle behind a list item's bundle_url, under the same rules as #22. */
  async get(principal: Principal, owner: string, name: string, id: number): Promise<AttestationRecord> {
    const { db } = this.deps;
    const repo = await this.deps.lookups.repo(db, principal, 'listAttestations', owner, name);
    const attestation = await this.deps.attestations.find(db, repo.id, id);
    if (!attestation) throw new NotFoundError();
    return attestation;
  }
}
