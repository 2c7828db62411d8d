import { Args, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import { parseArgs } from '../../../graphql/arguments';
import type { GraphQLContext } from '../../../graphql/context';
import { windowOf } from '../../../graphql/relay';
import { neverCache } from '../../../graphql/cached-responses';
import { callersOf } from '../../../operations';
import { Enterprise, Organization } from '../../accounts/graphql/account.types';
import { AUDIT_LOG_INPUT, auditLogQuery } from '../audit-log.schemas';
import type { AuditLogOwner } from '../audit-log.service';
import type { AuditRecord } from '../audit-log.types';
import { AuditLogArgs, AuditLogConnection, type AuditLogEntry } from './audit-log.types';

function toEntry(record: AuditRecord): AuditLogEntry {
  return {
    documentId: record.documentId, timestamp: record.createdAt, createdAt: new Date(record.createdAt), action: record.action, operationType: record.operationType,
    actor: record.actor, actorId: record.actorId, actorIsBot: record.actorIsBot, business: record.business, org: record.org, repo: record.repo, user: record.user,
    team: record.team, tokenId: record.tokenId, programmaticAccessType: record.programmaticAccessType, requestId: record.requestId, data: record.data,
  };
}

/** The same service, checks and cursors as GET …/audit-log (its defaults: include=web, newest first). */
async function auditLogOf(ctx: GraphQLContext, owner: AuditLogOwner, args: AuditLogArgs): Promise<AuditLogConnection> {
  // Retention deletes records without moving a data version: an answer with the log is never kept.
  neverCache(ctx);
  const window = windowOf(args);
  // REST's checks of the phrase's length and the cursors.
  const checked = parseArgs(auditLogQuery, { ...(args.query != null ? { phrase: args.query } : {}), ...(window.after ? { after: window.after } : {}), ...(window.before ? { before: window.before } : {}) }, AUDIT_LOG_INPUT);
  const page = await ctx.services.auditLog.list(ctx.principal, owner, {
    phrase: checked.phrase, include: 'web', order: 'desc', perPage: Math.max(window.perPage, 1), after: checked.after, before: checked.before, fromEnd: window.fromEnd,
  });
  const items = window.perPage === 0 ? [] : page.items;
  const edges = items.map((record) => ({ cursor: page.cursorOf(record), node: toEntry(record) }));
  return {
    edges,
    nodes: edges.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: page.next !== undefined, hasPreviousPage: page.prev !== undefined,
      startCursor: edges[0]?.cursor ?? null, endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

@Resolver(() => Organization)
export class OrganizationAuditLog {
  @FieldResolver(() => AuditLogConnection, { nullable: true, description: `The organization's audit log, newest first (${callersOf('getOrgAuditLog')}).` })
  async auditLog(@Root() org: Organization, @Args() args: AuditLogArgs, @Ctx() ctx: GraphQLContext): Promise<AuditLogConnection> {
    return auditLogOf(ctx, { kind: 'org', login: org.login }, args);
  }
}

@Resolver(() => Enterprise)
export class EnterpriseAuditLog {
  @FieldResolver(() => AuditLogConnection, { nullable: true, description: `The enterprise's audit log, its organizations' records with its own, newest first (${callersOf('getEnterpriseAuditLog')}).` })
  async auditLog(@Root() enterprise: Enterprise, @Args() args: AuditLogArgs, @Ctx() ctx: GraphQLContext): Promise<AuditLogConnection> {
    return auditLogOf(ctx, { kind: 'enterprise', slug: enterprise.slug }, args);
  }
}
