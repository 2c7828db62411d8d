import type { ApolloServerPlugin } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';
import type { FormattedExecutionResult } from 'graphql';
import { cacheKey, keptOrReserve, sendAnswer, storeAnswer, type ResponseCache } from '../http/response-cache';
import type { GraphQLContext } from './context';

// The GraphQL side of the response cache (src/http/response-cache.ts), in the same budget
// (RESPONSE_CACHE_MB): a query asked again by the same caller, under the same data version,
// with the same body and the same headers that choose the answer's form, gets the answer
// already sent, bytes and headers, before Apollo runs. Mutations and answers with errors
// are never kept. Transport checks, rate limits and metrics still apply to every request.

/** What a query's answer leaves for the cache once Apollo has written it. */
export interface GraphQLAnswerSlot {
  json?: string;
  operation?: string | null;
}

/** Counts an operation answered from the cache, as the metrics plugin counts one Apollo ran. */
export type CountKeptOperation = (operationName: string | null, seconds: number) => void;

const JSON_CONTENT = /^application\/json\b/i;
const BODY_KEYS = new Set(['query', 'operationName', 'variables']);

/**
 * The request as the cache tells answers apart, or undefined when it may not be answered
 * from there: only a JSON POST of a query, an operation name and variables (no extensions).
 * Content-Type and Accept choose how Apollo answers, so both are part of the key.
 */
function requestKey(req: Request): string | undefined {
  const body: unknown = req.body;
  const contentType = req.get('content-type');
  if (req.method !== 'POST' || contentType === undefined || !JSON_CONTENT.test(contentType)) return undefined;
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).some((key) => !BODY_KEYS.has(key))) return undefined;
  const { query, operationName, variables } = body as Record<string, unknown>;
  if (typeof query !== 'string') return undefined;
  return `POST ${req.originalUrl}\n${req.get('accept') ?? ''}\n${contentType}\n${JSON.stringify(operationName)}\n${JSON.stringify(variables)}\n${query}`;
}

/** Express middleware in front of Apollo: answers a kept query, or leaves a slot for its answer. */
export function keptGraphQLAnswers(cache: ResponseCache, countKept: CountKeptOperation): RequestHandler {
  return (req: Request, res: Response, next) => {
    const key = cache.enabled && res.locals.versions && !res.locals.credentialsError ? requestKey(req) : undefined;
    if (key === undefined) return next();
    const started = process.hrtime.bigint();
    const kept = keptOrReserve(res, cache, cacheKey(res.locals.principal, res.locals.apiBase ?? '', key));
    if (kept) {
      sendAnswer(res, 200, kept);
      countKept(kept.operation ?? null, Number(process.hrtime.bigint() - started) / 1e9);
      return;
    }
    const slot: GraphQLAnswerSlot = {};
    res.locals.graphqlAnswerSlot = slot;
    // Kept once sent, with every header it was sent with.
    res.once('finish', () => {
      if (slot.json === undefined || res.statusCode !== 200) return;
      const bytes = Buffer.from(slot.json, 'utf8');
      storeAnswer(req, res, { parts: [bytes], length: bytes.length, headers: [], route: null, operation: slot.operation ?? null });
    });
    next();
  };
}

/** Apollo's own serialization: the result's JSON and a newline. */
const serialize = (result: FormattedExecutionResult) => `${JSON.stringify(result)}\n`;

/** Hands the JSON of answers that may be kept to their request's slot. */
export class AnswerCapture {
  /** Answers that may be kept, by their data object (what Apollo hands to stringifyResult). */
  private readonly slots = new WeakMap<object, GraphQLAnswerSlot>();

  /** For Apollo's `stringifyResult`. */
  readonly stringifyResult = (result: FormattedExecutionResult): string => {
    const json = serialize(result);
    const slot = result.data ? this.slots.get(result.data) : undefined;
    if (slot) slot.json = json;
    return json;
  };

  /** Marks a query answered without errors as one to keep. */
  readonly plugin: ApolloServerPlugin<GraphQLContext> = {
    requestDidStart: async () => ({
      willSendResponse: async ({ response, operation, operationName, contextValue }) => {
        const slot = contextValue.answerSlot;
        if (!slot || operation?.operation !== 'query' || response.body.kind !== 'single') return;
        const { data, errors, extensions } = response.body.singleResult;
        if (!data || errors || extensions) return;
        slot.operation = operationName ?? null;
        this.slots.set(data, slot);
      },
    }),
  };
}
