import type { z } from 'zod';

// The wording of every input problem a user reads: REST error bodies, GraphQL BAD_USER_INPUT
// errors and the world-file loader. zod's own wording ("Invalid input: expected boolean,
// received undefined") names types, not fields; here each problem says, in plain words, what
// is allowed and what was sent. Messages are predicates ("must be one of a, b; got "c""), so
// whoever names the field (a REST field, a world-file path) puts it in front.

type RawIssue = z.core.$ZodRawIssue;
type Issue = z.core.$ZodIssue;

/** Characters of a sent string shown back before it is cut. */
const MAX_SHOWN_CHARACTERS = 60;
/**
 * Escaped text shown at most, whatever the escaping (a control character takes six): with its
 * quotes, the ellipsis and the length note, a shown value stays under 100 characters.
 */
const MAX_SHOWN_ESCAPED_LENGTH = 80;
/**
 * Fields whose values are never shown back. No credential passes through the request schemas
 * (tokens travel in headers), but the world file declares tokens: `tokens[0].token`.
 */
const SECRET_FIELD = /token|secret|password|credential/i;

const TYPE_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  bigint: 'an integer',
  boolean: 'true or false',
  array: 'an array',
  tuple: 'an array',
  object: 'an object',
  record: 'an object',
  null: 'null',
  date: 'a date',
  nan: 'not a number',
};

const FORMAT_NAMES: Readonly<Record<string, string>> = {
  datetime: 'a date and time in ISO 8601 form with a time zone, such as 2026-03-01T12:00:00Z',
  date: 'a date in ISO 8601 form, such as 2026-03-01',
  time: 'a time in ISO 8601 form, such as 12:00:00',
  url: 'a URL',
  email: 'an email address',
  uuid: 'a UUID',
};

/** A value from an enumeration or a limit, as it is written in a message. */
function literal(value: unknown): string {
  return typeof value === 'string' ? value : String(value);
}

function allowedValues(values: readonly unknown[]): string {
  if (values.length === 1) return `must be ${JSON.stringify(values[0]) ?? String(values[0])}`;
  return `must be one of ${values.map(literal).join(', ')}`;
}

function typeName(expected: string): string {
  return TYPE_NAMES[expected] ?? `of type ${expected}`;
}

function sizeLimit(issue: Extract<RawIssue, { code: 'too_big' | 'too_small' }>): string {
  const isMax = issue.code === 'too_big';
  const limit = issue.code === 'too_big' ? issue.maximum : issue.minimum;
  const n = Number(limit);
  switch (issue.origin) {
    case 'string':
      if (!isMax && n === 1) return 'must not be empty';
      return `must be ${issue.exact ? 'exactly' : isMax ? 'at most' : 'at least'} ${n} character${n === 1 ? '' : 's'}`;
    case 'array':
    case 'set':
      if (!isMax && n === 1) return 'must have at least one item';
      return `must have ${issue.exact ? 'exactly' : isMax ? 'at most' : 'at least'} ${n} item${n === 1 ? '' : 's'}`;
    case 'date':
      return `must be ${isMax ? 'on or before' : 'on or after'} ${new Date(n).toISOString()}`;
    default: {
      const bound = issue.inclusive === false ? (isMax ? 'less than' : 'greater than') : isMax ? 'at most' : 'at least';
      return `must be ${issue.origin === 'int' ? 'an integer ' : ''}${bound} ${literal(limit)}`;
    }
  }
}

function formatRule(issue: Extract<RawIssue, { code: 'invalid_format' }>): string {
  const { format } = issue;
  if (format === 'regex') return `must match the pattern ${issue.pattern ?? ''}`.trimEnd();
  if (format === 'starts_with') return `must start with ${JSON.stringify(issue.prefix)}`;
  if (format === 'ends_with') return `must end with ${JSON.stringify(issue.suffix)}`;
  if (format === 'includes') return `must contain ${JSON.stringify(issue.includes)}`;
  return `must be ${FORMAT_NAMES[format] ?? `a valid ${format}`}`;
}

/** A union none of whose options took the value: what each option wanted, joined with "or". */
function unionRule(issue: Extract<RawIssue, { code: 'invalid_union' }>): string {
  const options = issue.options as readonly unknown[] | undefined; // a discriminated union's known tags
  if (options && options.length > 0) return allowedValues(options);
  const wanted = new Set(
    (issue.errors as Issue[][]).map((branch) => {
      const first = branch[0];
      return first && first.path.length === 0 ? first.message.replace(/^must be /, '') : 'another accepted form';
    }),
  );
  return wanted.size > 0 ? `must be ${[...wanted].join(' or ')}` : 'is not in an accepted form';
}

/**
 * The error map, passed to every parse of user input (`safeParse(input, { error: inputErrorMap })`).
 * It words zod's own checks only; a message a schema gives (a refinement's, a `.regex(…, message)`)
 * outranks it, per zod's precedence.
 */
export const inputErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? `is required and must be ${typeName(issue.expected)}` : `must be ${typeName(issue.expected)}`;
    case 'invalid_value':
      return allowedValues(issue.values);
    case 'too_big':
    case 'too_small':
      return sizeLimit(issue);
    case 'invalid_format':
      return formatRule(issue);
    case 'not_multiple_of':
      return `must be a multiple of ${issue.divisor}`;
    case 'unrecognized_keys':
      return `has keys that are not permitted: ${issue.keys.map(shownString).join(', ')}`;
    case 'invalid_union':
      return unionRule(issue);
    case 'invalid_key':
      return `has a key that is not allowed (${(issue.issues as Issue[])[0]?.message ?? 'not accepted'})`;
    case 'invalid_element':
      return 'has an item that is not allowed';
    default:
      return 'is not valid';
  }
};

/** A string shown in quotes, escaped as JSON (control characters and lone surrogates included), cut safely. */
export function shownString(text: string): string {
  const chars = [...text];
  let body = '';
  for (const char of chars.slice(0, MAX_SHOWN_CHARACTERS)) {
    const escaped = JSON.stringify(char).slice(1, -1);
    if (body.length + escaped.length > MAX_SHOWN_ESCAPED_LENGTH) break;
    body += escaped;
  }
  const isCut = body.length < JSON.stringify(text).length - 2;
  return isCut ? `"${body}…" (${chars.length} characters)` : `"${body}"`;
}

/** The value a user sent, as a message shows it; undefined when there is nothing to show. */
export function shownValue(input: unknown): string | undefined {
  if (typeof input === 'string') return shownString(input);
  if (typeof input === 'number' || typeof input === 'boolean' || typeof input === 'bigint' || input === null) return String(input);
  if (Array.isArray(input)) return `an array of ${input.length} item${input.length === 1 ? '' : 's'}`;
  if (typeof input === 'object') return 'an object';
  return undefined;
}

/** The value an issue is about: for a discriminated union, its tag rather than the whole object holding it. */
function valueOf(issue: Issue): unknown {
  const tag = (issue as { discriminator?: unknown }).discriminator;
  const holder = issue.input;
  if (issue.code === 'invalid_union' && typeof tag === 'string' && holder !== null && typeof holder === 'object') return (holder as Record<string, unknown>)[tag];
  return holder;
}

/** Whether the issue's value is worth showing: not a secret, not the whole object a refinement checked. */
function showsValue(issue: Issue, path: readonly PropertyKey[]): boolean {
  if (issue.input === undefined || issue.code === 'unrecognized_keys') return false;
  if (issue.code === 'too_small' && issue.input === '') return false; // "must not be empty" says it all
  if (path.some((key) => typeof key === 'string' && SECRET_FIELD.test(key))) return false;
  if (issue.code === 'custom') return issue.input === null || typeof issue.input !== 'object';
  return true;
}

/**
 * What is wrong, with the value sent: `must be one of open, fixed; got "closed"`. The issue
 * must come from a parse with `reportInput: true`, or no value is shown.
 */
export function problemOf(issue: Issue, path: readonly PropertyKey[] = issue.path): string {
  const message = issue.message.replace(/\.$/, '');
  const value = showsValue(issue, path) ? shownValue(valueOf(issue)) : undefined;
  return value === undefined ? message : `${message}; got ${value}`;
}

/**
 * One sentence naming the field: `"state" must be one of open, fixed; got "closed".` A message
 * written with its field's bare name as subject (`per_page must be …`) is not named twice.
 */
export function fieldSentence(field: string, issue: Issue, path: readonly PropertyKey[] = issue.path): string {
  const subject = field ? shownString(field) : 'The input';
  const last = path.length > 0 ? String(path[path.length - 1]) : undefined;
  const problem = problemOf(issue, path);
  const predicate = last !== undefined && problem.startsWith(`${last} `) ? problem.slice(last.length + 1) : problem;
  return `${subject} ${predicate}.`;
}

/** The sentence for a key the schema does not permit. */
export function unknownKeySentence(key: string): string {
  return `${shownString(key)} is not a permitted key.`; // the key is the user's: cut like a value
}

/** Options for every parse of user input: plain wording, and the values sent kept on the issues. */
export const INPUT_PARSE_OPTIONS = { error: inputErrorMap, reportInput: true } as const;
