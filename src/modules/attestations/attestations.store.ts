import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Executor } from '../../database/transaction';
import { fetchKeysetPage, type KeysetColumn, type KeysetPage } from '../../database/keyset';
import { canonicalJson } from '../../shared/canonical-json';
import type { CheckedBundle } from './attestation-bundle';
import { ATTESTATIONS_LIST } from './attestations.cursors';
import type { AttestationRecord, AttestationSubjectRecord, StoredVerdict } from './attestations.types';
import type { TrustCheck } from './attestation-trust';
import { chunksOf } from '../../shared/chunks';

export interface PredicateFilter {
  exact: string[];
  prefixes: string[];
}

/** Newest first; ids grow with every insert, on any instance. */
const NEWEST_FIRST: KeysetColumn[] = [{ column: 'a.id', direction: 'desc', type: 'integer' }];


/** The identity of a bundle: the same JSON, whatever its key order. */
export function bundleSha256(bundle: unknown): string {
  return crypto.createHash('sha256').update(canonicalJson(bundle)).digest('hex');
}

export class AttestationsStore {
  /** Stores a checked bundle once per repository, with its verdict when known; answers its id, existing or new. */
  /** Stores a bundle once per repository: its id, and whether this call stored it (false: stored before). */
  async insert(db: Executor, repoId: number, bundle: unknown, checked: CheckedBundle, initiatorId: number | null, now: string, stored?: StoredVerdict): Promise<{ id: number; created: boolean }> {
    const sha = bundleSha256(bundle);
    const inserted = await db('attestations')
      .insert({
        repo_id: repoId, bundle: JSON.stringify(bundle), bundle_sha256: sha, predicate_type: checked.predicateType, initiator_id: initiatorId, created_at: now,
        ...(stored ? verdictColumns(stored) : {}),
      })
      .onConflict(['repo_id', 'bundle_sha256'])
      .ignore()
      .returning('id');
    if (inserted.length === 0) {
      const existing = await db('attestations').where({ repo_id: repoId, bundle_sha256: sha }).first('id');
      return { id: Number(existing.id), created: false };
    }
    const id = Number(inserted[0].id ?? inserted[0]);
    const rows = checked.subjects.map((s) => ({ attestation_id: id, digest: s.digest, name: s.name }));
    for (const chunk of chunksOf(rows, 200)) await db('attestation_subjects').insert(chunk);
    return { id, created: true };
  }

  /** One page of a repository's attestations for a subject digest, newest first. */
  async listBySubject(
    db: Knex,
    repoId: number,
    digest: string,
    options: { predicate: PredicateFilter | undefined; perPage: number; after?: string | undefined; before?: string | undefined; fromEnd?: boolean | undefined },
  ): Promise<KeysetPage<AttestationRecord>> {
    const query = db('attestations as a')
      .join('attestation_subjects as s', 's.attestation_id', 'a.id')
      .leftJoin('accounts as u', 'u.id', 'a.initiator_id')
      .where({ 'a.repo_id': repoId, 's.digest': digest })
      .select(...RECORD_COLUMNS);
    wherePredicate(query, options.predicate);
    const page = await fetchKeysetPage<Record<string, unknown>>(query, {
      list: ATTESTATIONS_LIST, columns: NEWEST_FIRST, valuesOf: (row) => [Number(row.id)],
      perPage: options.perPage, after: options.after, before: options.before, fromEnd: options.fromEnd,
    });
    return { ...page, items: page.items.map(toRecord) };
  }

  /** The indexed subjects of attestations, by attestation id. */
  async subjectsOf(db: Executor, ids: readonly number[]): Promise<Map<number, AttestationSubjectRecord[]>> {
    const out = new Map<number, AttestationSubjectRecord[]>(ids.map((id) => [id, []]));
    if (ids.length === 0) return out;
    const rows = await db('attestation_subjects').whereIn('attestation_id', [...ids]).orderBy(['attestation_id', 'digest']).select('attestation_id', 'digest', 'name');
    for (const r of rows) out.get(Number(r.attestation_id))?.push({ digest: r.digest, name: r.name ?? null });
    return out;
  }

  /** How many attestations a repository has for a digest (and predicate). */
  async countBySubject(db: Knex, repoId: number, digest: string, predicate: PredicateFilter | undefined): Promise<number> {
    const query = db('attestations as a').join('attestation_subjects as s', 's.attestation_id', 'a.id').where({ 'a.repo_id': repoId, 's.digest': digest });
    wherePredicate(query, predicate);
    const row = await query.count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  /** Every attestation of a repository for a subject digest (and predicate), oldest first: the CLI's verify reads them all. */
  async allBySubject(db: Executor, repoId: number, digest: string, predicate: PredicateFilter | undefined): Promise<AttestationRecord[]> {
    const query = db('attestations as a')
      .join('attestation_subjects as s', 's.attestation_id', 'a.id')
      .leftJoin('accounts as u', 'u.id', 'a.initiator_id')
      .where({ 'a.repo_id': repoId, 's.digest': digest })
      .orderBy('a.id')
      .select(...RECORD_COLUMNS);
    wherePredicate(query, predicate);
    return (await query).map(toRecord);
  }

  async repoIdOf(db: Executor, id: number): Promise<number | undefined> {
    const row = await db('attestations').where('id', id).first('repo_id');
    return row ? Number(row.repo_id) : undefined;
  }

  async find(db: Executor, repoId: number, id: number): Promise<AttestationRecord | undefined> {
    const row = await db('attestations as a')
      .leftJoin('accounts as u', 'u.id', 'a.initiator_id')
      .where({ 'a.repo_id': repoId, 'a.id': id })
      .first(...RECORD_COLUMNS);
    return row ? toRecord(row) : undefined;
  }
}

/** Restricts to a predicate filter: exact types, or prefixes matched case-sensitively on every dialect (SQLite's LIKE ignores case). */
function wherePredicate(query: Knex.QueryBuilder, predicate: PredicateFilter | undefined): void {
  if (!predicate) return;
  query.where((q) => {
    if (predicate.exact.length > 0) q.orWhereIn('a.predicate_type', predicate.exact);
    for (const prefix of predicate.prefixes) q.orWhereRaw('substr(a.predicate_type, 1, ?) = ?', [prefix.length, prefix]);
  });
}

const RECORD_COLUMNS = [
  'a.id', 'a.repo_id', 'a.bundle', 'a.bundle_sha256', 'a.predicate_type', 'u.login as initiator_login',
  'a.verified', 'a.verification_reason', 'a.verification_signer', 'a.verification_roots',
];

function verdictColumns({ verdict, roots }: StoredVerdict) {
  return {
    verified: verdict.verified,
    verification_reason: verdict.reason,
    verification_signer: verdict.signer === null ? null : JSON.stringify(verdict.signer),
    verification_roots: roots,
  };
}

function toStoredVerdict(row: Record<string, unknown>): StoredVerdict | null {
  if (row.verified === null || row.verified === undefined || row.verification_roots === null) return null;
  const reason = (row.verification_reason as string | null) ?? null;
  return {
    roots: String(row.verification_roots),
    verdict: {
      verified: Boolean(row.verified), // SQLite answers 0/1
      reason,
      check: reason === null ? null : (reason.slice(0, reason.indexOf(':')) as TrustCheck),
      signer: row.verification_signer === null ? null : JSON.parse(String(row.verification_signer)),
    },
  };
}

function toRecord(row: Record<string, unknown>): AttestationRecord {
  return {
    id: Number(row.id),
    repoId: Number(row.repo_id),
    bundle: JSON.parse(String(row.bundle)),
    bundleSha256: String(row.bundle_sha256),
    predicateType: String(row.predicate_type),
    initiatorLogin: (row.initiator_login as string | null) ?? null,
    storedVerdict: toStoredVerdict(row),
  };
}
