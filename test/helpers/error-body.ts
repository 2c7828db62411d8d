// The documented error body (reference.md "Error bodies", rendered by src/errors/http.ts):
// {message, documentation_url, status: "<code>"} and, on a 422, `errors` of
// {resource, field, code}; every message in plain words (issue 18). Returns what is wrong
// with an answer, empty when it conforms.

const KEYS = new Set(['message', 'documentation_url', 'status', 'errors']);

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/**
 * zod's own wording (issue 18), which names types instead of the field and what is allowed:
 * "Invalid input: expected boolean, received undefined", "Too big: expected string to have <=3
 * characters", "Unrecognized key". "received" alone is plain English ("not received in time").
 */
export const RAW_VALIDATOR_PHRASES = /\bexpected\b|,? received (?:undefined|null|string|number|boolean|array|object|NaN)\b|Invalid (?:input|option)|Too (?:big|small):|Unrecognized key/i;
/** The longest quoted text a message may show of what the user sent (a cut value, its quotes and ellipsis). */
const MAX_QUOTED_LENGTH = 102;

/** What is wrong with the wording of one served message; empty when it is plain. */
export function wordingProblems(message: string): string[] {
  const problems: string[] = [];
  // Quoted parts are the user's own values and names; they may say anything.
  const quoted = message.match(/"(?:[^"\\]|\\.)*"/g) ?? [];
  const tooLong = quoted.find((q) => q.length > MAX_QUOTED_LENGTH);
  if (tooLong) problems.push(`message shows ${tooLong.length} quoted characters: ${tooLong.slice(0, 40)}…`);
  const words = quoted.reduce((text, q) => text.replace(q, '""'), message);
  if (RAW_VALIDATOR_PHRASES.test(words)) problems.push(`message has raw validator wording: ${message.slice(0, 200)}`);
  return problems;
}

export function errorBodyProblems(answer: ErrorAnswer): string[] {
  const problems: string[] = [];
  const contentType = String(answer.headers['content-type'] ?? '');
  if (!contentType.startsWith('application/json')) problems.push(`content-type is "${contentType}"`);
  const body = answer.body as Record<string, unknown> | null;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [...problems, `body is ${JSON.stringify(body)}`];
  if (typeof body.message !== 'string' || body.message.length === 0) problems.push('message is not a non-empty string');
  if (typeof body.documentation_url !== 'string') problems.push('documentation_url is not a string');
  if (body.status !== String(answer.status)) problems.push(`status is ${JSON.stringify(body.status)}, not "${answer.status}"`);
  const extra = Object.keys(body).filter((key) => !KEYS.has(key));
  if (extra.length > 0) problems.push(`unexpected keys ${extra.join(', ')}`);
  if (body.errors !== undefined) {
    const items = Array.isArray(body.errors) ? (body.errors as Array<Record<string, unknown>>) : undefined;
    const wellFormed = items?.every((e) => e !== null && typeof e === 'object' && ['resource', 'field', 'code'].every((k) => typeof e[k] === 'string'));
    if (!wellFormed) problems.push(`errors is not a list of {resource, field, code}: ${JSON.stringify(body.errors)}`);
    for (const item of items ?? []) if (typeof item?.message === 'string') problems.push(...wordingProblems(item.message));
  }
  if (typeof body.message === 'string') problems.push(...wordingProblems(body.message));
  return problems;
}
