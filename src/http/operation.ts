import type { RequestHandler } from 'express';
import { requirementOf, type OperationName } from '../auth/requirements';

/** Names the spec operation a route serves; announces the scopes it accepts. */
export function operation(name: OperationName): RequestHandler {
  const requirement = requirementOf(name);
  const accepted = [...requirement.scopes, ...(requirement.publicScopes ?? [])].join(', ');
  return (_req, res, next) => {
    res.locals.operation = name;
    res.setHeader('X-Accepted-OAuth-Scopes', accepted);
    next();
  };
}
