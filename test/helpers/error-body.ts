// The documented error body (reference.md "Error bodies", rendered by src/errors/http.ts):
// {message, documentation_url, status: "<code>"} and, on a 422, `errors` of
// {resource, field, code}. Returns what is wrong with an answer, empty when it conforms.

const KEYS = new Set(['message', 'documentation_url', 'status', 'errors']);

export interface ErrorAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
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
  }
  return problems;
}
