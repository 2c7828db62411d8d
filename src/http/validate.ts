import type { z } from 'zod';
import { BadRequestError, ValidationError, type FieldError } from '../errors/domain';
import { INPUT_PARSE_OPTIONS, fieldSentence, unknownKeySentence } from '../shared/input-messages';

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
  /** How messages name a field where the caller writes it otherwise (GraphQL's camelCase); `field` stays as is. */
  nameField?: (field: string) => string;
}

/** Sentences in the top-level message; the rest are in `errors` (a 400 has only the message). */
const MAX_SUMMARY_SENTENCES = 3;

function toFieldErrors(error: z.ZodError, context: InputContext): FieldError[] {
  const { resource, at } = context;
  const named = (field: string) => (context.nameField ? context.nameField(field) : field);
  return error.issues.flatMap((issue): FieldError[] => {
    const path = context.topLevelFields ? issue.path.slice(0, 1) : issue.path;
    const field = [...(at ? [at] : []), ...path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => {
        const keyField = field ? `${field}.${key}` : key;
        return { resource, field: keyField, code: 'invalid', message: unknownKeySentence(named(keyField)) };
      });
    }
    const isMissing = issue.code === 'invalid_type' && issue.input === undefined;
    return [{ resource, field, code: isMissing ? 'missing_field' : 'invalid', message: fieldSentence(named(field), issue, path) }];
  });
}

/** The top-level message: the first few problems' sentences, and how many more there are. */
function summary(errors: FieldError[]): string {
  const sentences = errors.slice(0, MAX_SUMMARY_SENTENCES).map((e) => e.message ?? `"${e.field}" is not valid.`);
  const more = errors.length - sentences.length;
  if (more > 0) sentences.push(`(${more} more problem${more === 1 ? '' : 's'})`);
  return sentences.length > 0 ? sentences.join(' ') : 'The request is not valid.';
}

/** Parses input with its declared schema; a failure changes nothing and names the field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, context: InputContext): z.output<S> {
  // reportInput: an issue's `input` is then undefined only for a key that is absent, and the
  // message can show the value sent.
  const result = schema.safeParse(input, INPUT_PARSE_OPTIONS);
  if (result.success) return result.data;
  const errors = toFieldErrors(result.error, context);
  const message = summary(errors);
  const status = typeof context.invalidStatus === 'function' ? context.invalidStatus(errors) : context.invalidStatus;
  if (status === 400) throw new BadRequestError(message);
  throw new ValidationError(message, errors);
}
