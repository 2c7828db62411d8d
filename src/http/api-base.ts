import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RequestHandler } from 'express';
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
 * The one derivation, over Node's request and the URL as sent: the middleware below and the
 * cached-read fast path both use it. With `trustProxy` (TRUST_PROXY, the app's `trust proxy`),
 * X-Forwarded-Proto and X-Forwarded-Host name the origin, their first values as Express reads them.
 */
export function restApiBaseOf(req: IncomingMessage, url: string, trustProxy: boolean): string | undefined {
  const origin = originOf(req, trustProxy);
  if (origin === undefined) return undefined;
  const path = url.includes('?') ? url.slice(0, url.indexOf('?')) : url;
  const layout = [API_V3_PATH, LAYOUT_GRAPHQL_PATH].some((mount) => path === mount || path.startsWith(`${mount}/`));
  return layout ? `${origin}${API_V3_PATH}` : origin;
}

/** res.locals.apiBase (restApiBaseOf). The Host header is checked once here, so no URL is built from a malformed one. */
export const apiBase: RequestHandler = (req, res, next) => {
  res.vary('Accept').vary('Authorization');
  const base = restApiBaseOf(req, req.originalUrl, req.app.get('trust proxy') === true);
  if (base === undefined) throw new BadRequestError('The Host header is not a valid host name.');
  res.locals.apiBase = base;
  next();
};

/** This request's origin, or undefined when its Host header is not a valid host. */
function originOf(req: IncomingMessage, trustProxy: boolean): string | undefined {
  const forwardedHost = trustProxy ? headerOf(req, 'x-forwarded-host') : undefined;
  const host = (forwardedHost ? firstValue(forwardedHost).trimEnd() : headerOf(req, 'host')) || 'localhost';
  if (!HOST.test(host)) return undefined;
  const encrypted = (req.socket as Partial<TLSSocket>).encrypted === true ? 'https' : 'http';
  const protocol = trustProxy ? firstValue(headerOf(req, 'x-forwarded-proto') || encrypted).trim() : encrypted;
  try {
    return new URL(`${protocol}://${host}`).origin;
  } catch {
    return undefined;
  }
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/** A forwarded header's first value (a proxy chain may list several). */
const firstValue = (value: string) => (value.includes(',') ? value.slice(0, value.indexOf(',')) : value);
