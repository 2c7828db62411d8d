import { z } from 'zod';
import type { InputContext } from '../../http/validate';
import type { RunContext, TokenRequest } from './oidc-tokens.types';

// Request schemas of the mint and the preview (interfaces.md Part 2 "OIDC tokens").

/** Bad input is 422 naming the field (`context.sha`, `audience.1`). */
export const TOKEN_INPUT: InputContext = { resource: 'OidcToken', invalidStatus: 422 };

const MAX_VALUE_LENGTH = 1024;
const MAX_AUDIENCES = 10;

/** A claim value: text a JWT carries as sent (no control characters, no lone surrogates). */
const claimText = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_VALUE_LENGTH, `must be at most ${MAX_VALUE_LENGTH} characters`)
  .regex(/^[^\u0000-\u001f\u007f\uD800-\uDFFF]*$/u, 'must not contain control characters or lone surrogates');

/** Ids and numbers are strings in the claims, as the original's; only digits. */
const numberText = z.string().regex(/^[0-9]{1,20}$/, 'must be a string of 1 to 20 digits');

export const runContext = z.strictObject({
  event_name: claimText,
  ref: claimText,
  sha: claimText,
  workflow: claimText,
  actor: claimText,
  ref_type: z.enum(['branch', 'tag']).optional(),
  environment: claimText.optional(),
  workflow_ref: claimText.optional(),
  job_workflow_ref: claimText.optional(),
  job_workflow_sha: claimText.optional(),
  workflow_sha: claimText.optional(),
  head_ref: claimText.optional(),
  base_ref: claimText.optional(),
  run_id: numberText.optional(),
  run_number: numberText.optional(),
  run_attempt: numberText.optional(),
  runner_environment: claimText.optional(),
  actor_id: numberText.optional(),
});

export const audience = z.union([
  claimText,
  z.array(claimText).min(1, 'must have at least one audience').max(MAX_AUDIENCES, `must have at most ${MAX_AUDIENCES} audiences`),
], { error: 'must be a string or an array of strings' });

/** The body of both: `{audience?, context}`. */
export const tokenRequestBody = z
  .strictObject({ audience: audience.optional(), context: runContext })
  // Optional fields are absent, never undefined (zod leaves out keys that were not sent).
  .transform((body): TokenRequest => ({ audience: body.audience, context: body.context as RunContext }));
