import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { translateDriverError } from '../database/driver-errors';
import { DomainError, UnavailableError, ValidationError, type DomainErrorCode } from './domain';
import { graphqlErrorCode } from './graphql-codes';
import { graphqlFieldName } from '../graphql/field-names';

// The GraphQL renderer of the domain error vocabulary (errors/http.ts is the other one).
const HTTP_STATUS: Partial<Record<DomainErrorCode, number>> = { UNAUTHENTICATED: 401 };

export function toGraphQLError(error: DomainError): GraphQLError {
  const extensions: Record<string, unknown> = { code: graphqlErrorCode(error.code) };
  if (error instanceof ValidationError && error.errors.length > 0) {
    // Inputs are checked by the REST schemas; GraphQL callers see their own (camelCase) names.
    extensions.fields = error.errors.map((e) => ({ field: graphqlFieldName(e.field), code: e.code, message: e.message }));
  }
  if (error instanceof UnavailableError) extensions.retryAfterSeconds = error.retryAfterSeconds;
  const status = HTTP_STATUS[error.code];
  if (status) extensions.http = { status };
  return new GraphQLError(error.message, { extensions });
}

/** Apollo's formatError: domain errors keep their message and code; anything else is masked. */
export function formatGraphQLError(log: (error: unknown) => void) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const located = error instanceof GraphQLError ? error.originalError : error;
    // graphql-js wraps a thrown value it does not take for an Error (one of another realm) as NonErrorThrown.
    const raw = (located as { thrownValue?: unknown } | undefined)?.thrownValue ?? located;
    const original = translateDriverError(raw);
    if (original instanceof DomainError) {
      const mapped = toGraphQLError(original);
      const { http: _http, ...extensions } = mapped.extensions as Record<string, unknown>;
      return { ...formatted, message: mapped.message, extensions };
    }
    const code = formatted.extensions?.code;
    if (original && !(original instanceof GraphQLError) && (code === undefined || code === 'INTERNAL_SERVER_ERROR')) {
      log(original);
      return { message: 'Internal server error', locations: formatted.locations ?? [], path: formatted.path ?? [], extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
    const { stacktrace: _stacktrace, ...extensions } = (formatted.extensions ?? {}) as Record<string, unknown>;
    return { ...formatted, extensions };
  };
}
