import type { Request, RequestHandler } from 'express';
import { BadRequestError } from '../errors/domain';

/** Where the REST API is mounted too, as on an enterprise server (URLs in bodies keep it). */
export const API_V3_PATH = '/api/v3';

const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/** GraphQL's path in the enterprise-server layout: its answers link to REST under /api/v3. */
export const LAYOUT_GRAPHQL_PATH = '/api/graphql';

/**
 * The base every URL in a body starts with (REST and GraphQL answers alike): this request's
 * origin, and /api/v3 when the request came by the enterprise-server layout (/api/v3/…, or
 * /api/graphql, which pairs with it). Undefined when the Host header is not a valid host.
 * The one derivation: the middleware below and the cached-read fast path both use it.
 */
export function restApiBaseOf(req: Request): string | undefined {
  const origin = originOf(req);
  if (origin === undefined) return undefined;
  const url = req.originalUrl;
  const path = url.includes('?') ? url.slice(0, url.indexOf('?')) : url;
  const layout = [API_V3_PATH, LAYOUT_GRAPHQL_PATH].some((mount) => path === mount || path.startsWith(`${mount}/`));
  return layout ? `${origin}${API_V3_PATH}` : origin;
}

/** res.locals.apiBase (restApiBaseOf). The Host header is checked once here, so no URL is built from a malformed one. */
export const apiBase: RequestHandler = (req, res, next) => {
  res.vary('Accept').vary('Authorization');
  const base = restApiBaseOf(req);
  if (base === undefined) throw new BadRequestError('The Host header is not a valid host name.');
  res.locals.apiBase = base;
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

