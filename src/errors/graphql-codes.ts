import type { DomainErrorCode } from './domain';

// A domain error's GraphQL code, apart from errors/graphql.ts: the transport's error handler
// (http/errors.middleware.ts) needs only the code, and must not load the GraphQL stack before
// the first GraphQL request does (graphql/lazy-middleware.ts).
const CODES: Record<DomainErrorCode, string> = {
  NOT_FOUND: 'NOT_FOUND',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  VALIDATION_FAILED: 'BAD_USER_INPUT',
  BAD_REQUEST: 'BAD_USER_INPUT',
  CONFLICT: 'CONFLICT',
  PAYLOAD_TOO_LARGE: 'BAD_USER_INPUT',
  NOT_ACCEPTABLE: 'BAD_USER_INPUT',
  URI_TOO_LONG: 'BAD_USER_INPUT',
  RATE_LIMITED: 'RATE_LIMITED',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

/** The `extensions.code` GraphQL callers see for a domain error's code. */
export function graphqlErrorCode(code: DomainErrorCode): string {
  return CODES[code];
}
