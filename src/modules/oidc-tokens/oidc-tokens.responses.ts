import { z } from 'zod';

// Response schemas of the mint and the preview, the shapes oidc-tokens.serializers.ts produces.

const claims = z.record(z.string(), z.union([z.string(), z.number(), z.array(z.string())]));

/** The mint: the signed JWT and its claims. */
export const mintedTokenSchema = z.strictObject({ value: z.string(), claims });

/** The preview: the subject and the claims a mint of the same context gives, but the time-based ones. */
export const tokenPreviewSchema = z.strictObject({ sub: z.string(), claims });
