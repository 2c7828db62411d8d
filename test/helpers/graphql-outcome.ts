import type { Expectation } from './access-oracle';

// What a GraphQL answer amounts to for one field, as a short sentence the access tests
// compare: "OK", "NULL", "HTTP 401 UNAUTHENTICATED" (the whole request refused), or
// "<CODE> at <path>" for the error on the field or on the entry above it.

export interface GraphQLAnswer {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: Array<{ message: string; path?: Array<string | number>; extensions?: { code?: string } }> };
}

export function outcomeOf(answer: GraphQLAnswer, fieldPath: string): string {
  const errors = answer.body.errors ?? [];
  if (answer.status === 401) return `HTTP 401 ${errors[0]?.extensions?.code}`;
  const error = errors.find((e) => e.path !== undefined && `${fieldPath}.`.startsWith(`${e.path.join('.')}.`));
  if (error) return `${error.extensions?.code} at ${error.path!.join('.')}`;
  let value: unknown = answer.body.data;
  for (const key of fieldPath.split('.')) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return value === null || value === undefined ? 'NULL' : 'OK';
}

/** The GraphQL error code REST's status becomes (errors/graphql.ts). */
const CODES: Record<number, string> = { 401: 'UNAUTHENTICATED', 403: 'FORBIDDEN', 404: 'NOT_FOUND' };

/** The outcome a field must have when the REST operation behind it answers `expected`. */
export function outcomeFor(expected: Expectation, fieldPath: string): string {
  if (expected.status < 300) return 'OK';
  const code = CODES[expected.status];
  if (!code) throw new Error(`no GraphQL outcome for HTTP ${expected.status}`);
  return `${code} at ${fieldPath}`;
}

/** Where the errors of an answer are, each once, sorted: no error may sit anywhere unexpected. */
export function errorPaths(answer: GraphQLAnswer): string[] {
  return [...new Set((answer.body.errors ?? []).map((e) => `${e.extensions?.code} at ${(e.path ?? []).join('.')}`))].sort();
}
