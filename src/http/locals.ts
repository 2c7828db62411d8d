import type { Response } from 'express';
import type { Principal } from '../auth/principal';
import type { AuthenticationError, BadRequestError } from '../errors/domain';
import type { OperationName } from '../operations';
import type { DataVersions } from '../database/data-version';
import type { ResponseCache } from './response-cache';
import type { GraphQLAnswerSlot } from '../graphql/answer-cache';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      principal?: Principal;
      /** Credentials that did not authenticate, or more than one; refused once the request is counted. */
      credentialsError?: AuthenticationError | BadRequestError;
      /** Origin plus the API mount path: every URL field in a body starts with it. */
      apiBase?: string;
      operation?: OperationName;
      /** The database's write counters as this request found them (read before anything else). */
      versions?: DataVersions;
      /** The ETag of this read's 200, from its data version, caller and URL (src/http/response-cache.ts). */
      answerTag?: string;
      /** Where a cacheable answer is stored once built (src/http/response-cache.ts). */
      responseCacheSlot?: { cache: ResponseCache; version: number; key: string };
      /** The route template of an answer given before routing (the repeated-read lane). */
      routeTemplate?: string;
      /** Where a GraphQL query's answer is left for the response cache (src/graphql/answer-cache.ts). */
      graphqlAnswerSlot?: GraphQLAnswerSlot;
    }
  }
}

export function principalOf(res: Response): Principal {
  return res.locals.principal ?? { kind: 'anonymous' };
}

export function apiBaseOf(res: Response): string {
  return res.locals.apiBase ?? '';
}
