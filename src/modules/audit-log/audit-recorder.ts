import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { currentRequestId } from '../../shared/request-context';
import type { AuditLogStore, AuditRow } from './audit-log.store';
import type { AuditActor, AuditChange } from './audit-log.types';

// The one way a change enters the audit log: in the transaction that makes it, so a change
// is never without its record and a record never outlives a change that rolled back.

export class AuditRecorder {
  constructor(private readonly store: AuditLogStore, private readonly clock: () => number = Date.now) {}

  /** Writes one record per change, in order, each naming `actor` and the request this runs for. */
  async record(trx: Knex.Transaction, actor: AuditActor, changes: readonly AuditChange[]): Promise<void> {
    if (changes.length === 0) return;
    const enterprises = await this.store.enterprisesOf(trx, changes.flatMap((c) => orgOf(c)?.id ?? []));
    const stamp = { at: this.clock(), requestId: currentRequestId() };
    await this.store.insert(trx, changes.map((change) => auditRowOf(change, actor, enterprises, { ...stamp, documentId: randomBytes(16).toString('base64url') })));
  }
}

/**
 * A change as its row: the one place the columns are filled, for the recorder and for the
 * records a world file carries. `enterprises`: the enterprise of each organization that has one.
 */
export function auditRowOf(
  change: AuditChange, actor: AuditActor, enterprises: ReadonlyMap<number, { id: number; slug: string }>,
  stamp: { at: number; documentId: string; requestId: string | null },
): AuditRow {
  const org = orgOf(change);
  const enterprise = change.enterprise ?? (org === undefined ? undefined : enterprises.get(org.id));
  return {
    document_id: stamp.documentId,
    created_at: stamp.at,
    action: change.action,
    operation_type: change.operation,
    actor: actor.actor,
    actor_id: actor.actorId,
    actor_is_bot: actor.actorIsBot,
    org_id: org?.id ?? null,
    org: org?.login ?? null,
    enterprise_id: enterprise?.id ?? null,
    business: enterprise?.slug ?? null,
    repo_id: change.repo?.id ?? null,
    repo: change.repo === undefined ? null : `${change.repo.ownerLogin}/${change.repo.name}`,
    user_id: change.user?.id ?? null,
    user: change.user?.login ?? null,
    team_id: change.team?.id ?? null,
    team: change.team?.name ?? null,
    token_id: actor.tokenId,
    programmatic_access_type: actor.programmaticAccessType,
    request_id: stamp.requestId,
    data: JSON.stringify(change.data ?? {}),
  };
}

/** The organization a change belongs to: named, or the owner of its repository. */
export function orgOf(change: AuditChange): { id: number; login: string } | undefined {
  if (change.org !== undefined) return change.org;
  const repo = change.repo;
  return repo !== undefined && repo.ownerType === 'Organization' ? { id: repo.ownerId, login: repo.ownerLogin } : undefined;
}
