import { HeaderMap, type ApolloServerPlugin } from '@apollo/server';
import type { FormattedExecutionResult } from 'graphql';
import type { Principal } from '../auth/principal';
import { VersionedCache } from '../cache/versioned-cache';
import type { GraphQLContext } from './context';

// The GraphQL side of the response cache (src/http/response-cache.ts): a query asked again
// by the same caller, under the same data version, gets the answer already built, and
// its JSON already written. Apollo still runs every plugin (metrics, limits) around it;
// only execution and serialization are skipped. Mutations and answers with errors are
// never kept.

/** Bytes of answers (and their keys) kept per instance. */
export const GRAPHQL_ANSWER_BYTES = 16 * 2 ** 20;

interface KeptAnswer {
  data: Record<string, unknown>;
  json: string;
}

/** Where an answer being built goes once serialized. */
interface Slot {
  version: number;
  key: string;
}

function callerKey(principal: Principal): string {
  return principal.kind === 'anonymous' ? 'anonymous' : `token:${principal.tokenId}`;
}

/** Apollo's own serialization: the result's JSON and a newline. */
const serialize = (result: FormattedExecutionResult) => `${JSON.stringify(result)}\n`;

export class AnswerCache {
  private readonly answers = new VersionedCache<KeptAnswer>({ maxSize: GRAPHQL_ANSWER_BYTES, sizeOf: (a, key) => a.json.length + key.length });
  /** The JSON of answers taken from the cache, by their data object (what Apollo hands to stringifyResult). */
  private readonly written = new WeakMap<object, string>();
  /** Answers being built that may be kept, by their data object. */
  private readonly slots = new WeakMap<object, Slot>();

  /** For Apollo's `stringifyResult`: a kept answer's JSON as it was written; a new one is kept once written. */
  readonly stringifyResult = (result: FormattedExecutionResult): string => {
    const data = result.data;
    if (!data || result.errors || result.extensions) return serialize(result);
    const json = this.written.get(data);
    if (json !== undefined) return json;
    const written = serialize(result);
    const slot = this.slots.get(data);
    if (slot) {
      this.answers.set(slot.version, slot.key, { data, json: written });
      this.written.set(data, written);
    }
    return written;
  };

  readonly plugin: ApolloServerPlugin<GraphQLContext> = {
    requestDidStart: async () => {
      let slot: Slot | undefined;
      return {
        responseForOperation: async ({ operation, request, queryHash, contextValue }) => {
          const version = contextValue.dataVersions?.data;
          if (operation.operation !== 'query' || version === undefined) return null;
          const variables = JSON.stringify(request.variables ?? {});
          const key = `${callerKey(contextValue.principal)}\n${contextValue.apiBase}\n${queryHash}\n${request.operationName ?? ''}\n${variables}`;
          const kept = this.answers.get(version, key);
          if (!kept) {
            slot = { version, key };
            return null;
          }
          return { body: { kind: 'single', singleResult: { data: kept.data } }, http: { headers: new HeaderMap() } };
        },
        willSendResponse: async ({ response }) => {
          if (!slot || response.body.kind !== 'single') return;
          const { data, errors, extensions } = response.body.singleResult;
          if (data && !errors && !extensions) this.slots.set(data, slot);
        },
      };
    },
  };
}
