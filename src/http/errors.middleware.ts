import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { OperationName } from '../operations';
import { translateDriverError } from '../database/driver-errors';
import { BadRequestError, DomainError, NotFoundError, PayloadTooLargeError, RateLimitedError, UnavailableError } from '../errors/domain';
import { graphqlErrorCode } from '../errors/graphql-codes';
import { toHttpError } from '../errors/http';
import { operationFragment } from '../openapi/deep-link';
import { sendJson } from './respond';

/** The API docs, opened at the operation that failed when there is one. */
function documentationUrl(apiBase: string | undefined, operation: OperationName | undefined): string {
  const base = `${apiBase ?? ''}/docs/`;
  return operation ? `${base}${operationFragment(operation)}` : base;
}

/**
 * Failures of the request itself that surface below the routes (body parsing, path
 * decoding), as the ecosystem words them.
 */
function fromRequestFailure(error: unknown): Error | undefined {
  if (error instanceof URIError) return new BadRequestError('The request path is not a valid URL.');
  const { type, status } = (error ?? {}) as { type?: unknown; status?: unknown };
  if (type === 'entity.parse.failed') return new BadRequestError('Problems parsing JSON');
  if (type === 'entity.too.large') return new PayloadTooLargeError('The request body is too large.');
  // Any other body-parser rejection (bad encoding, corrupt compression, aborted upload).
  if (typeof status === 'number' && status >= 400 && status < 500) return new BadRequestError('The request body could not be read.');
  return undefined;
}

export const unknownRoute: RequestHandler = () => {
  throw new NotFoundError();
};

/** The one error middleware: domain errors rendered, everything else masked and logged once. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const { rendered } = renderFailure(logger, error, req, res);
    if (res.headersSent) return;
    res.set(rendered.headers);
    sendJson(res, rendered.status, rendered.body);
  };
}

/** The failure as a domain error and its HTTP rendering; anything unknown is logged once (the JSON body here, the html_url pages' in src/pages). */
export function renderFailure(logger: Logger, error: unknown, req: Request, res: Response) {
  const cause = fromRequestFailure(error) ?? translateDriverError(error);
  const rendered = toHttpError(cause, documentationUrl(res.locals.apiBase, res.locals.operation));
  // A 503 is the service saying "not now" (a full queue, the database away): worth a warning, not a stack.
  if (cause instanceof UnavailableError) logger.warn({ err: cause === error ? undefined : error, method: req.method, path: req.path }, cause.message);
  else if (rendered.status >= 500) logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
  return { cause, rendered };
}

/**
 * Failures before Apollo Server runs (host, body, rate limit) answered in GraphQL's own
 * shape, `{errors: [{message, extensions: {code}}]}`, with REST's status and headers.
 */
export function graphqlTransportErrors(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const { cause, rendered } = renderFailure(logger, error, req, res);
    if (res.headersSent) return;
    const code = cause instanceof DomainError ? graphqlErrorCode(cause.code) : 'INTERNAL_SERVER_ERROR';
    // As inside Apollo (errors/graphql.ts): a client told to wait reads how long from the error too.
    const wait = cause instanceof UnavailableError || cause instanceof RateLimitedError ? { retryAfterSeconds: cause.retryAfterSeconds } : {};
    res.set(rendered.headers);
    sendJson(res, rendered.status, { errors: [{ message: rendered.body.message, extensions: { code, ...wait } }] });
  };
}
