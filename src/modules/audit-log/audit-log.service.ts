import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import { encodeCursor, fetchKeysetPage, type KeysetPage } from '../../database/keyset';
import type { OperationName } from '../../operations';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import { auditRecordOf, logOrder, type AuditLogScope, type AuditLogStore } from './audit-log.store';
import type { AuditRecord } from './audit-log.types';
import { canonicalPhrase, parsePhrase, type PhraseTerm } from './audit-phrase';

/** Whose log: an organization's, or an enterprise's (its own changes and its organizations'). */
export type AuditLogOwner = { kind: 'org'; login: string } | { kind: 'enterprise'; slug: string };

export interface AuditLogRequest {
  phrase?: string | undefined;
  /** `web` (every record this service keeps) or `all`; `git`: none (no Git events here). */
  include: 'web' | 'git' | 'all';
  order: 'asc' | 'desc';
  perPage: number;
  after?: string | undefined;
  before?: string | undefined;
  /** The last page (GraphQL's `last` without `before`). */
  fromEnd?: boolean | undefined;
}

const OPERATIONS: Record<AuditLogOwner['kind'], OperationName> = { org: 'getOrgAuditLog', enterprise: 'getEnterpriseAuditLog' };

/** Issue 37: reading the audit log, a page at a time or every matching record as a stream. */
export class AuditLogService {
  constructor(private readonly deps: { db: Knex; lookups: AuthorizedLookups; store: AuditLogStore }) {}

  /** A page of the log; `cursorOf` gives each record's cursor in this query (GraphQL's edges). */
  async list(principal: Principal, owner: AuditLogOwner, request: AuditLogRequest): Promise<KeysetPage<AuditRecord> & { cursorOf(record: AuditRecord): string }> {
    const scope = await this.scopeOf(principal, owner);
    const terms = parsePhrase(request.phrase);
    const columns = logOrder(request.order);
    const list = listName(terms, request);
    const cursorOf = (record: AuditRecord) => encodeCursor(list, [record.createdAt, record.id]);
    const query = this.query(scope, terms, request.include);
    if (query === undefined) return { items: [], next: undefined, prev: undefined, cursorOf };
    const page = await fetchKeysetPage<Record<string, unknown>>(query, {
      list, columns, valuesOf: (row) => [Number(row.created_at), Number(row.id)], perPage: request.perPage, after: request.after, before: request.before, fromEnd: request.fromEnd,
    });
    return { ...page, items: page.items.map(auditRecordOf), cursorOf };
  }

  /**
   * Every matching record, in batches (the NDJSON export): the caller and the phrase are
   * checked before the first batch is read, so a refusal comes before anything is sent.
   */
  async export(principal: Principal, owner: AuditLogOwner, request: Pick<AuditLogRequest, 'phrase' | 'include' | 'order'>): Promise<AsyncIterable<AuditRecord[]>> {
    const scope = await this.scopeOf(principal, owner);
    const terms = parsePhrase(request.phrase);
    return request.include === 'git' ? none() : this.deps.store.batches(this.deps.db, scope, terms, request.order);
  }

  private async scopeOf(principal: Principal, owner: AuditLogOwner): Promise<AuditLogScope> {
    const { db, lookups } = this.deps;
    if (owner.kind === 'org') return { kind: 'org', orgId: (await lookups.org(db, principal, OPERATIONS.org, owner.login)).id };
    return { kind: 'enterprise', enterpriseId: (await lookups.enterprise(db, principal, OPERATIONS.enterprise, owner.slug)).id };
  }

  /** The log's matching records, not yet ordered; undefined when nothing can match (`include=git`). */
  private query(scope: AuditLogScope, terms: readonly PhraseTerm[], include: AuditLogRequest['include']): Knex.QueryBuilder | undefined {
    return include === 'git' ? undefined : this.deps.store.listQuery(this.deps.db, scope, terms);
  }
}

async function* none(): AsyncGenerator<AuditRecord[]> {}

/** Cursors name the query they page (a cursor of another phrase or order is refused): a digest of it. */
function listName(terms: readonly PhraseTerm[], request: AuditLogRequest): string {
  const digest = createHash('sha256').update(`${canonicalPhrase(terms)}\n${request.include}\n${request.order}`).digest('base64url').slice(0, 16);
  return `audit-log:${digest}`;
}
