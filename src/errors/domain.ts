// The domain error vocabulary. Services throw these; errors/http.ts (and later
// errors/graphql.ts) are the only places that turn them into a protocol's answer.

export type FieldErrorCode = 'missing' | 'missing_field' | 'invalid' | 'already_exists' | 'unprocessable' | 'custom';

export interface FieldError {
  resource: string;
  field: string;
  code: FieldErrorCode;
  message?: string;
}

export type DomainErrorCode =
  | 'NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'VALIDATION_FAILED'
  | 'BAD_REQUEST'
  | 'CONFLICT'
  | 'PAYLOAD_TOO_LARGE'
  | 'NOT_ACCEPTABLE'
  | 'URI_TOO_LONG'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE';

export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
}

/** Missing, or invisible to the caller: both answer the same, byte for byte. */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
  constructor() {
    super('Not Found');
  }
}

export class AuthenticationError extends DomainError {
  readonly code = 'UNAUTHENTICATED';
  constructor(message: 'Bad credentials' | 'Requires authentication') {
    super(message);
  }
}

export interface ForbiddenDetails {
  /** Fine-grained permission that would have been accepted, e.g. `members=write`. */
  acceptedPermission?: string;
}

export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN';
  constructor(message: string, readonly details: ForbiddenDetails = {}) {
    super(message);
  }
}

export class ValidationError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  constructor(message: string, readonly errors: FieldError[] = []) {
    super(message);
  }
}

export class BadRequestError extends DomainError {
  readonly code = 'BAD_REQUEST';
}

export class ConflictError extends DomainError {
  readonly code = 'CONFLICT';
}

export class PayloadTooLargeError extends DomainError {
  readonly code = 'PAYLOAD_TOO_LARGE';
}

/** No media type the operation answers in is one the request's Accept takes. */
export class NotAcceptableError extends DomainError {
  readonly code = 'NOT_ACCEPTABLE';
}

export class UriTooLongError extends DomainError {
  readonly code = 'URI_TOO_LONG';
}

/**
 * A caller over a rate limit: `exhausted` used up its requests of the window; `spammed`
 * sent writes faster than the write limit allows (the spec's "endpoint has been spammed").
 */
export class RateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED';
  constructor(
    message: string,
    readonly kind: 'exhausted' | 'spammed',
    readonly retryAfterSeconds: number,
    /** Spammed answers are 422 as the spec says, or 429 where the operator chose it. */
    readonly asTooManyRequests: boolean,
  ) {
    super(message);
  }
}

/** Work this instance will not take on now (a full snapshot queue): the caller retries after the seconds given. */
export class UnavailableError extends DomainError {
  readonly code = 'UNAVAILABLE';
  constructor(message: string, readonly retryAfterSeconds: number) {
    super(message);
  }
}
