import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { requirementOf } from '../auth/requirements';
import { BadRequestError, NotFoundError, PayloadTooLargeError } from '../errors/domain';
import { toHttpError } from '../errors/http';

function documentationUrl(apiBase: string | undefined, operation: string | undefined): string {
  const base = `${apiBase ?? ''}/docs`;
  return operation ? `${base}#operation/${operation}` : base;
}

/** Framework failures (body parsing, path decoding), as the ecosystem words them. */
function fromFramework(error: unknown): Error | undefined {
  if (error instanceof URIError) return new BadRequestError('The request path is not a valid URL.');
  const type = (error as { type?: unknown } | null)?.type;
  if (type === 'entity.parse.failed') return new BadRequestError('Problems parsing JSON');
  if (type === 'entity.too.large') return new PayloadTooLargeError('The request body is too large.');
  if (type === 'charset.unsupported' || type === 'encoding.unsupported') return new BadRequestError('Unsupported request body encoding.');
  return undefined;
}

export const unknownRoute: RequestHandler = () => {
  throw new NotFoundError();
};

/** The one error middleware: domain errors rendered, everything else masked and logged once. */
export function errorMiddleware(logger: Logger): ErrorRequestHandler {
  return (error, req, res, _next) => {
    const cause = fromFramework(error) ?? error;
    const operation = res.locals.operation ? requirementOf(res.locals.operation).operationId : undefined;
    const rendered = toHttpError(cause, documentationUrl(res.locals.apiBase, operation));
    if (rendered.status >= 500) logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
    if (res.headersSent) return;
    res.status(rendered.status).set(rendered.headers).json(rendered.body);
  };
}
