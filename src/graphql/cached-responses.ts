import type { ApolloServerPlugin } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';
import type { FormattedExecutionResult } from 'graphql';
import { responseCacheKey } from '../http/response-cache';
import type { ResponseCacheGate } from '../http/response-cache-gate';
import { sendResponse } from '../http/send-response';
import type { GraphQLContext } from './context';

// The GraphQL side of the response cache (src/http/response-cache.ts), in the same budget
// (RESPONSE_CACHE_MB): a query asked again by the same caller, under the same data version,
// with the same body and the same headers that choose the response's form, gets the response
// already sent, bytes and headers, before Apollo runs. Mutations and results with errors
// are never cached. Transport checks, rate limits and metrics still apply to every request.

/** What a query's result leaves for the cache once Apollo has serialized it. */
export interface GraphQLResultCapture {
  json?: string;
  operation?: string | null;
}

/** Counts an operation served from the cache, as the metrics plugin counts one Apollo ran. */
export type CountCachedOperation = (operationName: string | null, seconds: number) => void;

const JSON_CONTENT = /^application\/json\b/i;
const BODY_KEYS = new Set(['query', 'operationName', 'variables']);

/**
 * The request as the cache tells responses apart, or undefined when it may not be served
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

/** Express middleware in front of Apollo: serves a cached query, or captures its result for the cache. */
export function serveCachedGraphQLResponses(gate: ResponseCacheGate, countCached: CountCachedOperation): RequestHandler {
  return (req: Request, res: Response, next) => {
    const versions = res.locals.versions;
    const request = gate.enabled && versions && !res.locals.credentialsError ? requestKey(req) : undefined;
    if (request === undefined) return next();
    const started = process.hrtime.bigint();
    const key = responseCacheKey(res.locals.principal, res.locals.apiBase ?? '', request);
    const cached = gate.lookup(versions!.data, key);
    if (cached) {
      sendResponse(res, 200, cached);
      countCached(cached.operation ?? null, Number(process.hrtime.bigint() - started) / 1e9);
      return;
    }
    const capture: GraphQLResultCapture = {};
    res.locals.graphqlResultCapture = capture;
    // Cached once sent, with every header it was sent with.
    res.once('finish', () => {
      if (capture.json === undefined || res.statusCode !== 200) return;
      const bytes = Buffer.from(capture.json, 'utf8');
      gate.record(res, versions!.data, key, { parts: [bytes], length: bytes.length, operation: capture.operation ?? null });
    });
    next();
  };
}

/**
 * Keeps this request's result out of the cache: for fields that read what moves no data version
 * (webhook deliveries, written by workers all the time), so a cached answer could be stale.
 */
export function neverCache(context: { resultCapture?: GraphQLResultCapture | undefined }): void {
  context.resultCapture = undefined;
}

/** Apollo's own serialization: the result's JSON and a newline. */
export const serializeResult = (result: FormattedExecutionResult) => `${JSON.stringify(result)}\n`;

/** Hands the JSON of results that may be cached to their request's capture. */
export class ResultCapture {
  /** Results that may be cached, by their data object (what Apollo hands to stringifyResult). */
  private readonly captures = new WeakMap<object, GraphQLResultCapture>();

  /** For Apollo's `stringifyResult`. */
  readonly stringifyResult = (result: FormattedExecutionResult): string => {
    const json = serializeResult(result);
    const capture = result.data ? this.captures.get(result.data) : undefined;
    if (capture) capture.json = json;
    return json;
  };

  /** Marks a query answered without errors as one to cache. */
  readonly plugin: ApolloServerPlugin<GraphQLContext> = {
    requestDidStart: async () => ({
      willSendResponse: async ({ response, operation, operationName, contextValue }) => {
        const capture = contextValue.resultCapture;
        if (!capture || operation?.operation !== 'query' || response.body.kind !== 'single') return;
        const { data, errors, extensions } = response.body.singleResult;
        if (!data || errors || extensions) return;
        capture.operation = operationName ?? null;
        this.captures.set(data, capture);
      },
    }),
  };
}
