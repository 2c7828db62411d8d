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
    const orgIds = changes.flatMap((c) => orgOf(c)?.id ?? []);
    const enterprises = await this.store.enterprisesOf(trx, orgIds);
    const now = this.clock();
    const requestId = currentRequestId();
    await this.store.insert(trx, changes.map((change): AuditRow => {
      const org = orgOf(change);
      const enterprise = change.enterprise ?? (org === undefined ? undefined : enterprises.get(org.id));
      return {
        document_id: randomBytes(16).toString('base64url'),
        created_at: now,
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
        request_id: requestId,
        data: JSON.stringify(change.data ?? {}),
      };
    }));
  }
}

/** The organization a change belongs to: named, or the owner of its repository. */
function orgOf(change: AuditChange): { id: number; login: string } | undefined {
  if (change.org !== undefined) return change.org;
  const repo = change.repo;
  return repo !== undefined && repo.ownerType === 'Organization' ? { id: repo.ownerId, login: repo.ownerLogin } : undefined;
}
