import { ValidationError } from '../../errors/domain';
import { OPERATION_TYPES, type OperationType } from './audit-log.types';

// The audit log's search phrase, the original's query language for it: terms separated by
// spaces, each `qualifier:value` (a value with spaces in double quotes), `-` before a term
// negating it, every term ANDed. `created:` takes a date or a time (UTC unless it says), with
// `>`, `>=`, `<`, `<=` or a range `from..to` (`*` for an open end); a date alone is that day.

export const PHRASE_QUALIFIERS = ['action', 'actor', 'user', 'team', 'repo', 'org', 'created', 'operation'] as const;
type Qualifier = (typeof PHRASE_QUALIFIERS)[number];

export const MAX_PHRASE_LENGTH = 1024;

/** Milliseconds since the epoch, `from` inclusive and `to` exclusive; either may be open. */
export interface TimeRange {
  from: number | undefined;
  to: number | undefined;
}

export type PhraseTerm =
  | { qualifier: 'created'; negated: boolean; range: TimeRange }
  | { qualifier: 'operation'; negated: boolean; value: OperationType }
  /** `action:`: `prefix` when the value names a category (`organization_role`), else the exact action. */
  | { qualifier: 'action'; negated: boolean; value: string; prefix: boolean }
  | { qualifier: Exclude<Qualifier, 'created' | 'operation' | 'action'>; negated: boolean; value: string };

const DAY_MS = 24 * 60 * 60 * 1000;

function problem(message: string): ValidationError {
  return new ValidationError(`The search phrase is not valid: ${message}`, [{ resource: 'AuditLog', field: 'phrase', code: 'invalid', message }]);
}

/** The phrase's raw terms: words, and double-quoted runs inside them. */
function tokens(phrase: string): string[] {
  const out: string[] = [];
  let current = '';
  let quoted = false;
  let started = false;
  for (const char of phrase) {
    if (char === '"') {
      quoted = !quoted;
      started = true;
    } else if (!quoted && /\s/.test(char)) {
      if (started) out.push(current);
      current = '';
      started = false;
    } else {
      current += char;
      started = true;
    }
  }
  if (quoted) throw problem('a double quote is not closed.');
  if (started) out.push(current);
  return out;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

/** A date (a whole UTC day) or a time (an instant), as [start, end). */
function instantOf(text: string, term: string): { start: number; end: number } {
  const date = DATE.exec(text);
  if (date !== null) {
    const start = Date.UTC(Number(date[1]), Number(date[2]) - 1, Number(date[3]));
    // Date.UTC rolls 2026-02-30 over into March: a date that does not come back is not one.
    if (new Date(start).toISOString().slice(0, 10) !== text) throw problem(`\`${term}\`: ${text} is not a date.`);
    return { start, end: start + DAY_MS };
  }
  if (TIME.test(text)) {
    const ms = Date.parse(/Z|[+-]\d{2}:\d{2}$/.test(text) ? text : `${text}Z`);
    if (!Number.isNaN(ms)) return { start: ms, end: ms + 1 };
  }
  throw problem(`\`${term}\`: ${text} is not a date (YYYY-MM-DD) or time (YYYY-MM-DDTHH:MM:SSZ).`);
}

function createdRange(value: string, term: string): TimeRange {
  const range = /^(.*?)\.\.(.*)$/.exec(value);
  if (range !== null) {
    const [, from, to] = range as unknown as [string, string, string];
    const open = (end: string) => end === '*' || end === '';
    if (open(from) && open(to)) throw problem(`\`${term}\`: give at least one end of the range.`);
    return { from: open(from) ? undefined : instantOf(from, term).start, to: open(to) ? undefined : instantOf(to, term).end };
  }
  const comparison = /^(>=|<=|>|<)?(.+)$/.exec(value)!;
  const instant = instantOf(comparison[2]!, term);
  switch (comparison[1]) {
    case '>=': return { from: instant.start, to: undefined };
    case '>': return { from: instant.end, to: undefined };
    case '<=': return { from: undefined, to: instant.end };
    case '<': return { from: undefined, to: instant.start };
    default: return { from: instant.start, to: instant.end };
  }
}

/** Parses a phrase into its terms, or a 422 naming what is wrong. An empty phrase matches everything. */
export function parsePhrase(phrase: string | undefined): PhraseTerm[] {
  if (phrase === undefined) return [];
  if (phrase.length > MAX_PHRASE_LENGTH) throw problem(`it is ${phrase.length} characters long; at most ${MAX_PHRASE_LENGTH} are allowed.`);
  return tokens(phrase).map((term): PhraseTerm => {
    const negated = term.startsWith('-');
    const body = negated ? term.slice(1) : term;
    const colon = body.indexOf(':');
    if (colon <= 0) throw problem(`\`${term}\` has no qualifier: use qualifier:value, one of ${PHRASE_QUALIFIERS.join(', ')}.`);
    const qualifier = body.slice(0, colon).toLowerCase();
    const value = body.slice(colon + 1);
    if (!(PHRASE_QUALIFIERS as readonly string[]).includes(qualifier)) {
      throw problem(`\`${body.slice(0, colon)}\` is not a qualifier: use one of ${PHRASE_QUALIFIERS.join(', ')}.`);
    }
    if (value === '') throw problem(`\`${term}\` has no value.`);
    switch (qualifier as Qualifier) {
      case 'created':
        return { qualifier: 'created', negated, range: createdRange(value, term) };
      case 'operation': {
        const operation = value.toLowerCase();
        if (!(OPERATION_TYPES as readonly string[]).includes(operation)) throw problem(`\`${term}\`: the operation is one of ${OPERATION_TYPES.join(', ')}.`);
        return { qualifier: 'operation', negated, value: operation as OperationType };
      }
      case 'action': {
        const action = value.toLowerCase();
        if (!/^[a-z0-9_]+(\.[a-z0-9_]+)*$/.test(action)) throw problem(`\`${term}\`: an action is a category or \`category.verb\` (letters, digits, underscores).`);
        return { qualifier: 'action', negated, value: action, prefix: !action.includes('.') };
      }
      default:
        return { qualifier: qualifier as Exclude<Qualifier, 'created' | 'operation' | 'action'>, negated, value };
    }
  });
}

/** The phrase's terms in one canonical text (cursors name the query they belong to by it). */
export function canonicalPhrase(terms: readonly PhraseTerm[]): string {
  return JSON.stringify(terms);
}
