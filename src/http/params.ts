import { z } from 'zod';

// Shared pieces of request schemas.

/** A path or query integer in canonical decimal form ("1e3", "0x1", "007" are refused), one message for either failure. */
export const integerString = ({ min = 0, max = 2 ** 31 - 1 } = {}) => {
  const allowed = `must be an integer from ${min} to ${max}`;
  return z
    .string()
    .regex(/^(0|[1-9][0-9]{0,15})$/, allowed)
    .transform(Number)
    .refine((n) => n >= min && n <= max, allowed);
};

/** An owner, organization, enterprise, team or user name as it appears in a path. */
export const pathName = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters');
