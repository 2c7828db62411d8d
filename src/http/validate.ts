import type { z } from 'zod';
import { BadRequestError, ValidationError, type FieldError } from '../errors/domain';

export interface InputContext {
  /** The resource named in `errors[].resource`. */
  resource: string;
  /**
   * Which status a malformed input gets for this operation (spec §4 lists it per
   * operation), or a choice by the fields that failed where the spec splits them.
   */
  invalidStatus?: 400 | 422 | ((errors: FieldError[]) => 400 | 422);
  /** Where the input sits in the request, prefixed to every field name (e.g. a body key). */
  at?: string;
  /** Name only the top-level key (a query parameter), not the position inside its value. */
  topLevelFields?: boolean;
}

function toFieldErrors(error: z.ZodError, context: InputContext): FieldError[] {
  const { resource, at } = context;
  return error.issues.flatMap((issue): FieldError[] => {
    const path = context.topLevelFields ? issue.path.slice(0, 1) : issue.path;
    const field = [...(at ? [at] : []), ...path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ resource, field: field ? `${field}.${key}` : key, code: 'invalid', message: `"${key}" is not a permitted key.` }));
    }
    const isMissing = issue.code === 'invalid_type' && issue.input === undefined;
    return [{ resource, field, code: isMissing ? 'missing_field' : 'invalid', message: issue.message }];
  });
}

/** Parses input with its declared schema; a failure changes nothing and names the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, context: InputContext): z.output<S> {
  // reportInput: an issue's `input` is then undefined only for a key that is absent.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error, context);
  const first = errors[0];
  const message = first ? `Invalid request: ${first.field ? `"${first.field}" ` : ''}${first.message ?? 'is invalid'}` : 'Invalid request';
  const status = typeof context.invalidStatus === 'function' ? context.invalidStatus(errors) : context.invalidStatus;
  if (status === 400) throw new BadRequestError(message);
  throw new ValidationError(message, errors);
}
