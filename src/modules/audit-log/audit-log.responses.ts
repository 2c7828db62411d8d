import { z } from 'zod';
import { OPERATION_TYPES } from './audit-log.types';

// The response of the audit-log reads: the original's event shape in this service's terms.
// Every common field is present (null where the action concerns no such thing); the
// action's own fields follow them.

export const auditRecordSchema = z.looseObject({
  '@timestamp': z.int().describe('When the change was made, in milliseconds since the epoch'),
  _document_id: z.string().describe('The record\'s unique id'),
  action: z.string().describe('What changed, as `area.verb` (`organization_role.assign_team`, `dependency_alert.dismiss`, …)'),
  operation_type: z.enum(OPERATION_TYPES),
  actor: z.string().nullable().describe('Who made the change: a login, `app[bot]`, `dependency-bot[bot]` (the alert engine) or `orgsec-cli (user)` (a command)'),
  actor_id: z.int().nullable(),
  actor_is_bot: z.boolean(),
  business: z.string().nullable().describe('The enterprise the change belongs to'),
  business_id: z.int().nullable(),
  org: z.string().nullable(),
  org_id: z.int().nullable(),
  repo: z.string().nullable().describe('`owner/name`'),
  repo_id: z.int().nullable(),
  user: z.string().nullable().describe('The user the change concerns (not the actor)'),
  user_id: z.int().nullable(),
  team: z.string().nullable().describe('`org/slug`'),
  team_id: z.int().nullable(),
  token_id: z.int().nullable().describe('The token the change was made with'),
  programmatic_access_type: z.string().nullable().describe('Which kind of token'),
  request_id: z.string().nullable().describe('The X-Request-Id of the request that made the change'),
  created_at: z.int().describe('The same instant as `@timestamp`'),
});
