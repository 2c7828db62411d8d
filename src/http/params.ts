import { z } from 'zod';

// Shared pieces of request schemas.

/** A path or query integer in canonical decimal form ("1e3", "0x1", "007" are refused). */
export const integerString = (name: string, { min = 0, max = 2 ** 31 - 1 } = {}) =>
  z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/, `${name} must be a whole number`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}`);

/** An owner, organization, enterprise, team or user name as it appears in a path. */
export const pathName = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters');
