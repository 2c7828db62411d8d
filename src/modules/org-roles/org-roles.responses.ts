import { z } from 'zod';
import { organizationFullSchema, teamSummarySchema, userSummarySchema } from '../accounts/accounts.responses';

// Response schemas of #1, #8, #9, #10 (spec §2.1 with reference.md's additions), the
// shapes org-roles.serializers.ts produces.

const timestamp = z.iso.datetime();
const assignment = z.enum(['direct', 'indirect', 'mixed']);

/** §2.1 organization role. */
export const roleSchema = z.strictObject({
  id: z.int(),
  node_id: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  permissions: z.array(z.string()),
  organization: organizationFullSchema,
  created_at: timestamp,
  updated_at: timestamp,
  base_role: z.enum(['read', 'triage', 'write', 'maintain', 'admin']).nullable(),
  source: z.enum(['Organization', 'Enterprise', 'Predefined']),
});

/** #1: the role list envelope. */
export const roleListSchema = z.strictObject({ total_count: z.int(), roles: z.array(roleSchema) });

/** #9 item. */
export const roleTeamSchema = teamSummarySchema.extend({ assignment });

/** #10 item. */
export const roleUserSchema = userSummarySchema.extend({ assignment, inherited_from: z.array(teamSummarySchema) });
