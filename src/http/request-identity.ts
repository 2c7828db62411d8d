import type { IncomingMessage } from 'node:http';
import { ANONYMOUS, type Principal } from '../auth/principal';
import type { Services } from '../composition';
import type { DataVersions } from '../database/data-version';
import { AuthenticationError, BadRequestError } from '../errors/domain';

/** Who is asking, and the data versions the request goes by. */
export interface RequestIdentity {
  versions: DataVersions;
  principal: Principal;
  /** Credentials that did not authenticate, or more than one: refused once the request is counted. */
  credentialsError?: AuthenticationError | BadRequestError;
}

const identities = new WeakMap<IncomingMessage, Promise<RequestIdentity>>();

/**
 * Reads the data versions, then authenticates the caller under them (known tokens come
 * from memory): once per request, whichever asks first, the cached-read fast path or the
 * `identify` middleware. Read first: what this request takes from memory must belong to
 * this version or a later one.
 */
export function identifyRequest(req: IncomingMessage, deps: Pick<Services, 'at' | 'versions'>): Promise<RequestIdentity> {
  let identity = identities.get(req);
  if (!identity) {
    identity = identify(req, deps);
    identities.set(req, identity);
  }
  return identity;
}

async function identify(req: IncomingMessage, deps: Pick<Services, 'at' | 'versions'>): Promise<RequestIdentity> {
  const versions = await deps.versions.read();
  try {
    const principal = await deps.at(versions).authenticator.authenticate(authorizationOf(req));
    return { versions, principal };
  } catch (error) {
    if (!(error instanceof AuthenticationError) && !(error instanceof BadRequestError)) throw error;
    return { versions, principal: ANONYMOUS, credentialsError: error };
  }
}

/**
 * The request's one Authorization header. Node keeps only the first of several, so they
 * are counted from the headers as sent: two name no single caller, and are refused.
 */
export function authorizationOf(req: IncomingMessage): string | undefined {
  const values = req.headersDistinct.authorization;
  if (values !== undefined && values.length > 1) {
    throw new BadRequestError('The request has more than one Authorization header. Send exactly one.');
  }
  return values?.[0];
}
