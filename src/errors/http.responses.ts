import { z } from 'zod';

// The error body errors/http.ts renders (reference.md "Error bodies"), for the OpenAPI description.

export const fieldErrorSchema = z.strictObject({
  resource: z.string(),
  field: z.string(),
  code: z.enum(['missing', 'missing_field', 'invalid', 'already_exists', 'unprocessable', 'custom']),
  message: z.string().optional(),
});

export const errorBodySchema = z.strictObject({
  message: z.string(),
  documentation_url: z.string(),
  status: z.string().describe('The HTTP status code, as a string'),
  errors: z.array(fieldErrorSchema).optional().describe('On 422: which input failed and why'),
});
