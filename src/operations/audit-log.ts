import { auditRecordSchema } from '../modules/audit-log/audit-log.responses';
import { auditLogQuery, enterprisePath, orgPath } from '../modules/audit-log/audit-log.schemas';
import type { Operation } from './operation';

// Issue 37: the audit log of an organization and of an enterprise.

const TAG = 'audit-log';
const RULES = [
  '`phrase` searches with `action:`, `actor:`, `user:`, `team:`, `repo:`, `org:`, `operation:` and `created:` (`created:>=2026-11-01`, `created:2026-11-01..2026-11-30`); `-` before a term negates it; terms are ANDed; a value with spaces goes in double quotes.',
  '`order` is `desc` (newest first, the default) or `asc`; `include` is `web` (the default) or `all`, which are the same here, or `git`, which matches nothing (no Git events are kept).',
  'With `Accept: application/x-ndjson` the answer streams every matching record, one JSON object a line, without pages.',
  'Always read fresh, never from a cache. Records are kept for `AUDIT_LOG_RETENTION_DAYS` (180 by default); nothing changes or deletes one.',
];

export const AUDIT_LOG_OPERATIONS = {
  getOrgAuditLog: {
    number: 66, operationId: 'orgs/get-audit-log', method: 'get', path: '/orgs/{org}/audit-log', success: 200, uncached: true, ndjson: true,
    request: { params: orgPath, query: auditLogQuery },
    response: { schema: auditRecordSchema, array: true },
    requirement: { target: 'org', scopes: ['read:audit_log'], permission: ['organization_administration', 'read'], caller: 'orgAdmin' },
    docs: { tag: TAG, summary: 'Get the audit log for an organization', pagination: 'cursor', rules: RULES },
  },
  getEnterpriseAuditLog: {
    number: 67, operationId: 'enterprise-admin/get-audit-log', method: 'get', path: '/enterprises/{enterprise}/audit-log', success: 200, uncached: true, ndjson: true,
    request: { params: enterprisePath, query: auditLogQuery },
    response: { schema: auditRecordSchema, array: true },
    requirement: { target: 'enterprise', scopes: ['read:audit_log'], permission: ['enterprise_administration', 'read'], caller: 'enterpriseOwner' },
    docs: { tag: TAG, summary: 'Get the audit log for an enterprise', pagination: 'cursor', rules: ['The enterprise\'s own changes and those of its organizations.', ...RULES] },
  },
} satisfies Record<string, Operation>;
