import { z } from 'zod';
import { pathName } from '../../http/params';
import { cursorQuery } from '../../http/pagination';
import type { InputContext } from '../../http/validate';
import { MAX_PHRASE_LENGTH } from './audit-phrase';

export const AUDIT_LOG_INPUT: InputContext = { resource: 'AuditLog', invalidStatus: 422 };

export const orgPath = z.object({ org: pathName });
export const enterprisePath = z.object({ enterprise: pathName });

/** The original's query: `phrase` (audit-phrase.ts checks its terms), `include`, `order`, and cursors. */
export const auditLogQuery = cursorQuery.extend({
  // A little past the phrase's bound, so a phrase too long is refused by audit-phrase.ts, which says how long it is.
  phrase: z.string().max(MAX_PHRASE_LENGTH * 16).optional(),
  include: z.enum(['web', 'git', 'all']).default('web'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export type AuditLogQuery = z.output<typeof auditLogQuery>;
