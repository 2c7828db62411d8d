import type { Response } from 'express';
import type { Principal } from '../auth/principal';
import type { AuthenticationError } from '../errors/domain';
import type { OperationName } from '../auth/requirements';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      principal?: Principal;
      /** Credentials that did not authenticate; refused once the request is counted. */
      credentialsError?: AuthenticationError;
      /** Origin plus the API mount path: every URL field in a body starts with it. */
      apiBase?: string;
      operation?: OperationName;
    }
  }
}

export function principalOf(res: Response): Principal {
  return res.locals.principal ?? { kind: 'anonymous' };
}

export function apiBaseOf(res: Response): string {
  return res.locals.apiBase ?? '';
}
