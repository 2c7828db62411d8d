import type { AuditRecord } from './audit-log.types';

// A record as both the JSON list and the NDJSON export show it (audit-log.responses.ts).

export function serializeAuditRecord(record: AuditRecord): Record<string, unknown> {
  return {
    '@timestamp': record.createdAt,
    _document_id: record.documentId,
    action: record.action,
    operation_type: record.operationType,
    actor: record.actor,
    actor_id: record.actorId,
    actor_is_bot: record.actorIsBot,
    business: record.business,
    business_id: record.enterpriseId,
    org: record.org,
    org_id: record.orgId,
    repo: record.repo,
    repo_id: record.repoId,
    user: record.user,
    user_id: record.userId,
    team: record.team,
    team_id: record.teamId,
    token_id: record.tokenId,
    programmatic_access_type: record.programmaticAccessType,
    request_id: record.requestId,
    created_at: record.createdAt,
    // The action's own fields after the common ones, which they never replace.
    ...withoutCommon(record.data),
  };
}

const COMMON = new Set(['@timestamp', '_document_id', 'action', 'operation_type', 'actor', 'actor_id', 'actor_is_bot', 'business', 'business_id', 'org', 'org_id',
  'repo', 'repo_id', 'user', 'user_id', 'team', 'team_id', 'token_id', 'programmatic_access_type', 'request_id', 'created_at']);

function withoutCommon(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([key]) => !COMMON.has(key)));
}
