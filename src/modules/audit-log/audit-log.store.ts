import type { Knex } from 'knex';
import { isPostgres } from '../../database/dialect';
import { orderBy, whereBeyond, type KeysetColumn, type SortValue } from '../../database/keyset';
import type { Executor } from '../../database/transaction';
import { chunksOf } from '../../shared/chunks';
import type { AuditRecord, OperationType } from './audit-log.types';
import type { PhraseTerm } from './audit-phrase';

// The `audit_log` table: only this store reads or writes it.

/** A row as written (the columns of the 20261206060000 migration). */
export interface AuditRow {
  document_id: string;
  created_at: number;
  action: string;
  operation_type: OperationType;
  actor: string | null;
  actor_id: number | null;
  actor_is_bot: boolean;
  org_id: number | null;
  org: string | null;
  enterprise_id: number | null;
  business: string | null;
  repo_id: number | null;
  repo: string | null;
  user_id: number | null;
  user: string | null;
  team_id: number | null;
  team: string | null;
  token_id: number | null;
  programmatic_access_type: string | null;
  request_id: string | null;
  data: string;
}

const EXPORT_BATCH = 500;
const INSERT_CHUNK = 500; // 21 columns: 10,500 parameters, within both dialects' bounds (shared/chunks.ts)

/** Which log a read is of; `all`: every record, of no organization too (the operator's export). */
export type AuditLogScope = { kind: 'org'; orgId: number } | { kind: 'enterprise'; enterpriseId: number } | { kind: 'all' };

/** Newest (or oldest) first: by time, then by id among records of one millisecond. */
export function logOrder(order: 'asc' | 'desc'): KeysetColumn[] {
  return [{ column: 'created_at', direction: order, type: 'number' }, { column: 'id', direction: order, type: 'number' }];
}

export class AuditLogStore {
  async insert(trx: Knex.Transaction, rows: readonly AuditRow[]): Promise<void> {
    for (const chunk of chunksOf(rows, INSERT_CHUNK)) await trx('audit_log').insert(chunk);
  }

  /** Inserts the records whose document ids are not stored yet (a world's records, loaded again). */
  async insertNew(trx: Knex.Transaction, rows: readonly AuditRow[]): Promise<void> {
    for (const chunk of chunksOf(rows, INSERT_CHUNK)) await trx('audit_log').insert(chunk).onConflict('document_id').ignore();
  }

  /** The records of a log that every term matches, not yet ordered or limited. */
  listQuery(db: Executor, scope: AuditLogScope, terms: readonly PhraseTerm[]): Knex.QueryBuilder {
    const query = db('audit_log').select('*');
    if (scope.kind === 'org') query.where('org_id', scope.orgId);
    if (scope.kind === 'enterprise') query.where('enterprise_id', scope.enterpriseId);
    this.wherePhrase(query, terms);
    return query;
  }

  /**
   * Every record of a log the terms match, in batches read one after another (a keyset walk):
   * memory holds one batch, whatever the log's size.
   */
  async *batches(db: Executor, scope: AuditLogScope, terms: readonly PhraseTerm[], order: 'asc' | 'desc'): AsyncGenerator<AuditRecord[]> {
    const columns = logOrder(order);
    let beyond: SortValue[] | undefined;
    for (;;) {
      const query = this.listQuery(db, scope, terms);
      if (beyond !== undefined) whereBeyond(query, columns, beyond, 'after');
      orderBy(query, columns);
      const rows: Array<Record<string, unknown>> = await query.limit(EXPORT_BATCH);
      if (rows.length === 0) return;
      yield rows.map(auditRecordOf);
      if (rows.length < EXPORT_BATCH) return;
      const last = rows[rows.length - 1]!;
      beyond = [Number(last.created_at), Number(last.id)];
    }
  }

  /** Restricts `query` to the records every term matches (a negated term: those it does not, records without the field among them). */
  private wherePhrase(query: Knex.QueryBuilder, terms: readonly PhraseTerm[]): void {
    for (const term of terms) {
      const { nullable, match } = termCondition(term);
      if (!term.negated) query.where(match);
      // A record without the field (no repository, say) does not match the term, so its negation does.
      else if (nullable === undefined) query.whereNot(match);
      else query.where((q) => q.whereNull(nullable).orWhereNot(match));
    }
  }

  /** The enterprise (id and slug) of each organization that has one. */
  async enterprisesOf(trx: Executor, orgIds: readonly number[]): Promise<Map<number, { id: number; slug: string }>> {
    if (orgIds.length === 0) return new Map();
    const rows: Array<{ org_id: number; id: number; slug: string }> = await trx('organizations as o')
      .join('enterprises as e', 'e.id', 'o.enterprise_id')
      .whereIn('o.account_id', [...new Set(orgIds)])
      .select('o.account_id as org_id', 'e.id', 'e.slug');
    return new Map(rows.map((r) => [Number(r.org_id), { id: Number(r.id), slug: r.slug }]));
  }

  /**
   * Deletes up to `limit` records older than `before` (ms), oldest first; how many it deleted.
   * On PostgreSQL rows another instance is deleting are skipped, not waited for, so instances
   * pruning at once each take rows of their own.
   */
  async prune(db: Knex, before: number, limit: number): Promise<number> {
    if (isPostgres(db)) {
      const result = await db.raw(
        'DELETE FROM audit_log WHERE id IN (SELECT id FROM audit_log WHERE created_at < ? ORDER BY created_at, id LIMIT ? FOR UPDATE SKIP LOCKED)', [before, limit],
      );
      return Number(result.rowCount ?? 0);
    }
    return db('audit_log').whereIn('id', db('audit_log').where('created_at', '<', before).orderBy(['created_at', 'id']).limit(limit).select('id')).delete();
  }
}

type Condition = (query: Knex.QueryBuilder) => void;

/** Which column a term reads (`nullable` when records may lack it) and the condition it matches by. */
function termCondition(term: PhraseTerm): { nullable: string | undefined; match: Condition } {
  switch (term.qualifier) {
    case 'created': {
      const { from, to } = term.range;
      return {
        nullable: undefined,
        match: (q) => {
          if (from !== undefined) q.where('created_at', '>=', from);
          if (to !== undefined) q.where('created_at', '<', to);
        },
      };
    }
    case 'operation':
      return { nullable: undefined, match: (q) => q.where('operation_type', term.value) };
    case 'action':
      // A category: its actions sort between `category.` and `category/` ('/' follows '.'), an index range.
      return {
        nullable: undefined,
        match: term.prefix ? (q) => q.where((c) => c.where('action', term.value).orWhere((r) => r.where('action', '>=', `${term.value}.`).where('action', '<', `${term.value}/`))) : (q) => q.where('action', term.value),
      };
    default: {
      // Logins and names compare as the original compares them: without case.
      const column = term.qualifier;
      return { nullable: column, match: (q) => q.whereRaw('lower(??) = ?', [column, term.value.toLowerCase()]) };
    }
  }
}

/** A stored row in domain terms (PostgreSQL answers bigint as strings, SQLite booleans as 0/1). */
export function auditRecordOf(row: Record<string, unknown>): AuditRecord {
  const int = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: Number(row.id),
    documentId: String(row.document_id),
    createdAt: Number(row.created_at),
    action: String(row.action),
    operationType: row.operation_type as OperationType,
    actor: (row.actor as string | null) ?? null,
    actorId: int(row.actor_id),
    actorIsBot: Boolean(row.actor_is_bot),
    orgId: int(row.org_id),
    org: (row.org as string | null) ?? null,
    enterpriseId: int(row.enterprise_id),
    business: (row.business as string | null) ?? null,
    repoId: int(row.repo_id),
    repo: (row.repo as string | null) ?? null,
    userId: int(row.user_id),
    user: (row.user as string | null) ?? null,
    teamId: int(row.team_id),
    team: (row.team as string | null) ?? null,
    tokenId: int(row.token_id),
    programmaticAccessType: (row.programmatic_access_type as string | null) ?? null,
    requestId: (row.request_id as string | null) ?? null,
    data: JSON.parse(String(row.data)) as Record<string, unknown>,
  };
}
