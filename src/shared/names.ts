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
      let problem: string | undefined;
      if (key.length === 0) problem = 'must not be empty';
      else if (key.length > MAX_CLAIM_KEY_LENGTH) problem = `must not be longer than ${MAX_CLAIM_KEY_LENGTH} characters`;
      else if (!CLAIM_KEY.test(key)) problem = 'must contain only letters, digits and underscores';
      // The key as the issue's input: the message shows it (cut when long).
      if (problem) ctx.addIssue({ code: 'custom', path: [i], message: problem, input: key });
      // A repeated key is short and plain by now; the message names it once.
      else if (keys.indexOf(key) !== i) ctx.addIssue({ code: 'custom', path: [i], message: `must be unique; ${JSON.stringify(key)} appears more than once` });
    });
  });
