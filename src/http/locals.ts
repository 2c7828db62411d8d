import type { Response } from 'express';
import type { Principal } from '../auth/principal';
import type { RequestServices } from '../composition';
import type { OperationName } from '../operations';
import type { DataVersions } from '../database/data-version';
import type { GraphQLResultCapture } from '../graphql/cached-responses';
import type { RequestIdentity } from './request-identity';
import type { RecordedBody } from './response-cache-gate';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      principal?: Principal;
      /** Credentials that did not authenticate, or more than one; refused once the request is counted. */
      credentialsError?: RequestIdentity['credentialsError'];
      /** Origin plus the API mount path: every URL field in a body starts with it. */
      apiBase?: string;
      operation?: OperationName;
      /** A POST the catalogue marks readsOnly (a token mint, a preview): read like a GET, not counted as a write. */
      readsOnly?: true;
      /** A REST read's response-cache key, which also names its ETag (http/operation.ts, restReadKey). */
      readKey?: string;
      /** The database's write counters as this request found them (read before anything else): its one snapshot. */
      versions?: DataVersions;
      /** The services this request uses, bound to its versions (http/authenticate.ts bindRequestServices). */
      services?: RequestServices;
      /** Records this request's REST read for the next identical one: offered by the response cache's gate (response-cache-gate.ts). */
      recordRead?: (key: string, body: RecordedBody) => void;
      /** The route template of a response served before routing (the cached-read fast path, the gate's REST look-up). */
      routeTemplate?: string;
      /** Where a GraphQL query's result is captured for the response cache (src/graphql/cached-responses.ts). */
      graphqlResultCapture?: GraphQLResultCapture;
    }
  }
}

export function principalOf(res: Response): Principal {
  return res.locals.principal ?? { kind: 'anonymous' };
}

export function servicesOf(res: Response): RequestServices {
  const services = res.locals.services;
  if (!services) throw new Error('the request has no services: bindRequestServices runs before every route');
  return services;
}

export function apiBaseOf(res: Response): string {
  return res.locals.apiBase ?? '';
}
