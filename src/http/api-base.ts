import type { Request, RequestHandler } from 'express';
import { BadRequestError } from '../errors/domain';

/** Where the REST API is mounted too, as on an enterprise server (URLs in bodies keep it). */
export const API_V3_PATH = '/api/v3';

const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * The base every URL in a body starts with: this request's origin and the API mount
 * path. The Host header is checked once here, so no URL is built from a malformed one.
 */
export const apiBase: RequestHandler = (req, res, next) => {
  res.vary('Accept').vary('Authorization');
  const origin = originOf(req);
  if (origin === undefined) throw new BadRequestError('The Host header is not a valid host name.');
  res.locals.apiBase = `${origin}${req.baseUrl}`;
  next();
};

/** This request's origin, or undefined when its Host header is not a valid host. */
export function originOf(req: Request): string | undefined {
  const host = req.host ?? 'localhost'; // X-Forwarded-Host when TRUST_PROXY is on
  if (!HOST.test(host)) return undefined;
  try {
    return new URL(`${req.protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

