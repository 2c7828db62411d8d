import { z } from 'zod';

// Name rules shared by the REST schemas and the world-file format.

export const MAX_CUSTOM_PROPERTY_NAME_LENGTH = 75;

/** A repository custom property name. */
export const customPropertyName = z
  .string()
  .min(1, 'must not be empty')
  .max(MAX_CUSTOM_PROPERTY_NAME_LENGTH, `must be at most ${MAX_CUSTOM_PROPERTY_NAME_LENGTH} characters`)
  .regex(/^[A-Za-z0-9_.-]+$/, 'must contain only letters, digits, "_", "." and "-"');

export const MAX_CLAIM_KEYS = 50;
export const MAX_CLAIM_KEY_LENGTH = 100;

const CLAIM_KEY = /^[A-Za-z0-9_]+$/;

/**
 * The claim keys of a subject template (spec §2.6): unique, letters, digits and
 * underscores, order kept (the claim is built in that order). Each error names the key.
 */
export const claimKeys = z
  .array(z.string())
  .max(MAX_CLAIM_KEYS, `must have at most ${MAX_CLAIM_KEYS} keys`)
  .superRefine((keys, ctx) => {
    keys.forEach((key, i) => {
      const shown = JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key);
      let problem: string | undefined;
      if (key.length === 0) problem = 'a claim key must not be empty';
      else if (key.length > MAX_CLAIM_KEY_LENGTH) problem = `claim key ${shown} is longer than ${MAX_CLAIM_KEY_LENGTH} characters`;
      else if (!CLAIM_KEY.test(key)) problem = `claim key ${shown} must contain only letters, digits and underscores`;
      else if (keys.indexOf(key) !== i) problem = `claim key ${shown} appears more than once; claim keys must be unique`;
      if (problem) ctx.addIssue({ code: 'custom', path: [i], message: problem });
    });
  });
