import { DomainError, ForbiddenError, RateLimitedError, UnavailableError, ValidationError, type DomainErrorCode, type FieldError } from './domain';

const STATUS: Record<DomainErrorCode, number> = {
  NOT_FOUND: 404,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  VALIDATION_FAILED: 422,
  BAD_REQUEST: 400,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  NOT_ACCEPTABLE: 406,
  URI_TOO_LONG: 414,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

function statusOf(error: DomainError): number {
  // spec §4: "422 … the endpoint has been spammed", unless the operator asked for 429.
  if (error instanceof RateLimitedError && error.kind === 'spammed' && !error.asTooManyRequests) return 422;
  return STATUS[error.code];
}

export interface HttpErrorBody {
  message: string;
  documentation_url: string;
  status: string;
  errors?: FieldError[];
}

export interface HttpError {
  status: number;
  headers: Record<string, string>;
  body: HttpErrorBody;
}

/** Renders a domain error as the ecosystem's error body. Anything else is a masked 500. */
export function toHttpError(error: unknown, documentationUrl: string): HttpError {
  if (!(error instanceof DomainError)) {
    return { status: 500, headers: {}, body: { message: 'Internal Server Error', documentation_url: documentationUrl, status: '500' } };
  }
  const status = statusOf(error);
  const body: HttpErrorBody = { message: error.message, documentation_url: documentationUrl, status: String(status) };
  const headers: Record<string, string> = {};
  if (error instanceof ValidationError) body.errors = error.errors;
  if (error.code === 'UNAUTHENTICATED') headers['WWW-Authenticate'] = 'Bearer realm="orgsec"';
  if (error instanceof RateLimitedError || error instanceof UnavailableError) headers['Retry-After'] = String(error.retryAfterSeconds);
  if (error instanceof ForbiddenError) {
    if (error.details.acceptedPermission) headers['X-Accepted-Service-Permissions'] = error.details.acceptedPermission;
  }
  return { status, headers, body };
}
