import { createHash } from 'node:crypto';
import { canonicalJson } from '../../shared/canonical-json';
import type { AuditLogStore } from '../audit-log/audit-log.store';
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
  const rows = [];
  for (const [i, record] of records.entries()) {
    const entry = `audit_log[${i}]`;
    const repo = record.repository === undefined ? undefined : await ctx.refs.repo(`${entry}.repository`, record.repository);
    const orgLogin = record.org ?? (repo?.ownerType === 'Organization' ? repo.ownerLogin : undefined);
    const org = orgLogin === undefined ? undefined : await ctx.refs.org(`${entry}.org`, orgLogin);
    const user = record.user === undefined ? undefined : await ctx.refs.user(`${entry}.user`, record.user);
    const team = record.team === undefined ? undefined : await teamOf(ctx, `${entry}.team`, record.team);
    const enterprise = org === undefined ? undefined : (await store.enterprisesOf(ctx.trx, [org.id])).get(org.id);
    rows.push({
      document_id: record.document_id ?? createHash('sha256').update(canonicalJson(record)).digest('base64url').slice(0, 22),
      created_at: Date.parse(record.created_at),
      action: record.action,
      operation_type: record.operation_type,
      actor: record.actor,
      actor_id: null,
      actor_is_bot: record.actor_is_bot ?? false,
      org_id: org?.id ?? null,
      org: org?.login ?? null,
      enterprise_id: enterprise?.id ?? null,
      business: enterprise?.slug ?? null,
      repo_id: repo?.id ?? null,
      repo: repo === undefined ? null : `${repo.ownerLogin}/${repo.name}`,
      user_id: user?.id ?? null,
      user: user?.login ?? null,
      team_id: team?.id ?? null,
      team: team?.name ?? null,
      token_id: null,
      programmatic_access_type: null,
      request_id: null,
      data: JSON.stringify(record.data ?? {}),
    });
  }
  await store.insertNew(ctx.trx, rows);
}

async function teamOf(ctx: SectionContext, entry: string, ref: string): Promise<{ id: number; name: string }> {
  const [orgLogin, slug] = ref.split('/') as [string, string];
  const org = await ctx.refs.org(entry, orgLogin);
  const team = await ctx.accounts.findTeamBySlug(ctx.trx, org.id, slug);
  return team === undefined ? fail(entry, `team "${ref}" does not exist`) : { id: team.id, name: `${org.login}/${team.slug}` };
}
