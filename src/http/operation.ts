import type { RequestHandler, Router } from 'express';
import { OPERATIONS, expressPath, type OperationName } from '../operations';
import { restReadKey } from './response-cache';

/**
 * Names the spec operation a route serves, and with it a read's response-cache key (derived
 * once here: respond.ts records under it and names the ETag by it);
 * announces the scopes it accepts.
 */
export function operation(name: OperationName): RequestHandler {
  const { requirement, uncached = false } = OPERATIONS[name];
  const accepted = [...requirement.scopes, ...(requirement.publicScopes ?? [])].join(', ');
  return (req, res, next) => {
    res.locals.operation = name;
    // No key, no cache: neither looked up nor stored, and the ETag is the bytes' (respond.ts).
    const readKey = uncached ? undefined : restReadKey(req, res);
    if (readKey !== undefined) res.locals.readKey = readKey;
    res.setHeader('X-Accepted-OAuth-Scopes', accepted);
    next();
  };
}

/**
 * Sends a request for an alias on as a request for the operation's own path, each
 * parameter's segment as it came. `req.originalUrl`, which Link headers and the response
 * cache follow, keeps the one the request used; logs and metrics name the operation's route.
 */
function servedAs(alias: string, path: string): RequestHandler {
  const aliasSegments = alias.split('/');
  const pathSegments = path.split('/');
  return (req, _res, next) => {
    const queryAt = req.url.indexOf('?');
    const query = queryAt < 0 ? '' : req.url.slice(queryAt);
    const sent = (queryAt < 0 ? req.url : req.url.slice(0, queryAt)).split('/');
    const segment = (template: string) => (template.startsWith('{') ? sent[aliasSegments.indexOf(template)] ?? '' : template);
    // Whatever follows the template (a trailing slash) stays.
    req.url = [...pathSegments.map(segment), ...sent.slice(aliasSegments.length)].join('/') + query;
    next();
  };
}

/**
 * Registers an operation's handlers at the method and path (and aliases) the catalogue gives
 * it. A read (GET, and so HEAD) answered before was served from the response cache ahead of
 * the routes (response-cache-gate.ts restReads): only a miss reaches the handlers.
 */
export function route(router: Router, name: OperationName, ...handlers: RequestHandler[]): void {
  const { method, path, aliases = [] } = OPERATIONS[name];
  for (const alias of aliases) router[method](expressPath(alias), servedAs(alias, path));
  router[method](expressPath(path), operation(name), ...handlers);
}

/** Registers handlers for a URL an operation's answers link to (catalogue `linked`), under its name. */
export function linkedRoute(router: Router, name: OperationName, link: string, ...handlers: RequestHandler[]): void {
  const path = OPERATIONS[name].linked?.[link];
  if (path === undefined) throw new Error(`the catalogue entry ${name} links no ${link}`);
  router.get(expressPath(path), operation(name), ...handlers);
}
