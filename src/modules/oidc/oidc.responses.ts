import { z } from 'zod';

// Response schemas of #11–#19 (spec §2.5–2.6 with reference.md's additions), the shapes
// oidc.serializers.ts produces.

/** #11 items and the #12/#15 answers. */
export const inclusionSchema = z.strictObject({
  custom_property_name: z.string(),
  inclusion_source: z.enum(['enterprise', 'organization']),
});

/** #14 items keep the spec's property_name. */
export const orgInclusionSchema = inclusionSchema.extend({ property_name: z.string() });

/** #17. */
export const orgTemplateSchema = z.strictObject({ include_claim_keys: z.array(z.string()), use_immutable_subject: z.boolean() });

/** #19. */
export const repoTemplateSchema = orgTemplateSchema.extend({ use_default: z.boolean(), sub_claim_prefix: z.string() });
