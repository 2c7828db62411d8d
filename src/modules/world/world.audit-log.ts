import { createHash } from 'node:crypto';
import { canonicalJson } from '../../shared/canonical-json';
import type { AuditLogStore } from '../audit-log/audit-log.store';
import type { AuditChange } from '../audit-log/audit-log.types';
import { auditRowOf, orgOf } from '../audit-log/audit-recorder';
import type { SectionContext } from './world.accounts';
import { fail } from './world.support';
import type { World } from './world.schema';

/**
 * `audit_log`: records a world carries, written as given (their actor, time and data), each
 * known by its document id: one derived from the record itself when the file gives none, so
 * loading a world twice adds nothing. The organization, repository, user and team it names
 * must exist (they are stored by id, as the log reads them).
 */
export async function loadAuditLog(ctx: SectionContext, records: World['audit_log'], store: AuditLogStore): Promise<void> {
  const changes: AuditChange[] = [];
  for (const [i, record] of records.entries()) {
    const entry = `audit_log[${i}]`;
    const repo = record.repository === undefined ? undefined : await ctx.refs.repo(`${entry}.repository`, record.repository);
    changes.push({
      action: record.action,
      operation: record.operation_type,
      org: record.org === undefined ? undefined : await ctx.refs.org(`${entry}.org`, record.org),
      repo,
      user: record.user === undefined ? undefined : await ctx.refs.user(`${entry}.user`, record.user),
      team: record.team === undefined ? undefined : await teamOf(ctx, `${entry}.team`, record.team),
      data: record.data,
    });
  }
  const enterprises = await store.enterprisesOf(ctx.trx, changes.flatMap((c) => orgOf(c)?.id ?? []));
  await store.insertNew(ctx.trx, records.map((record, i) => auditRowOf(
    changes[i]!, { actor: record.actor, actorId: null, actorIsBot: record.actor_is_bot ?? false, tokenId: null, programmaticAccessType: null }, enterprises,
    { at: Date.parse(record.created_at), documentId: record.document_id ?? createHash('sha256').update(canonicalJson(record)).digest('base64url').slice(0, 22), requestId: null },
  )));
}

async function teamOf(ctx: SectionContext, entry: string, ref: string): Promise<{ id: number; name: string }> {
  const [orgLogin, slug] = ref.split('/') as [string, string];
  const org = await ctx.refs.org(entry, orgLogin);
  const team = await ctx.accounts.findTeamBySlug(ctx.trx, org.id, slug);
  return team === undefined ? fail(entry, `team "${ref}" does not exist`) : { id: team.id, name: `${org.login}/${team.slug}` };
}
