import { createClient, type Client, type FormattedExecutionResult as ExecutionResult } from 'graphql-ws';
import WebSocket from 'ws';

// graphql-ws's own client over `ws`, as a Node dashboard or Apollo Client's GraphQLWsLink
// connects: what the subscription tests subscribe with.

export interface Closed {
  code: number;
  reason: string;
}

export interface SubscriptionClient {
  client: Client;
  /** Resolves with the close event (code and reason) when the server closes the connection. */
  closed: Promise<Closed>;
  dispose(): Promise<void>;
}

/** A graphql-ws client of `baseUrl`'s /graphql (ws://), with `params` as its connection_init payload; no retries, lazy: false. */
export function subscriptionClient(baseUrl: string, options: { params?: Record<string, unknown>; headers?: Record<string, string>; path?: string } = {}): SubscriptionClient {
  let onClosed: (closed: Closed) => void = () => undefined;
  const closed = new Promise<Closed>((resolve) => { onClosed = resolve; });
  const headers = options.headers;
  const client = createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}${options.path ?? '/graphql'}`,
    webSocketImpl: headers ? class extends WebSocket { constructor(url: string, protocols?: string | string[]) { super(url, protocols, { headers }); } } : WebSocket,
    ...(options.params ? { connectionParams: options.params } : {}),
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: () => undefined,
    on: { closed: (event) => { const e = event as { code: number; reason: string | Buffer }; onClosed({ code: e.code, reason: String(e.reason) }); } },
  });
  return { client, closed, dispose: () => client.dispose() as Promise<void> };
}

export interface Subscription<T extends Record<string, unknown>> {
  /** Every result so far, in order. */
  results: Array<ExecutionResult<T>>;
  /**
   * The errors the server answered the subscribe with: an `error` message (the document was
   * refused), or a result with errors and no data (the subscription could not start, as graphql-js reports it).
   */
  errors: Promise<readonly unknown[]>;
  /** Resolves when `count` results have arrived (rejects after `timeoutMs`). */
  next(count: number, timeoutMs?: number): Promise<Array<ExecutionResult<T>>>;
  unsubscribe(): void;
}

/** Subscribes and collects what arrives. */
export function subscribe<T extends Record<string, unknown> = any>(client: Client, query: string, variables: Record<string, unknown> = {}): Subscription<T> {
  const results: Array<ExecutionResult<T>> = [];
  const waiters: Array<() => void> = [];
  let onErrors: (errors: readonly unknown[]) => void = () => undefined;
  const errors = new Promise<readonly unknown[]>((resolve) => { onErrors = resolve; });
  const unsubscribe = client.subscribe<T, Record<string, unknown>>({ query, variables }, {
    next: (result) => {
      if (result.errors && !result.data) return onErrors(result.errors);
      results.push(result);
      for (const wake of waiters.splice(0)) wake();
    },
    error: (error) => onErrors(Array.isArray(error) ? error : [error]),
    complete: () => undefined,
  });
  return {
    results,
    errors,
    unsubscribe,
    next: (count, timeoutMs = 10_000) => new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${results.length} results arrived, not ${count}, within ${timeoutMs} ms`)), timeoutMs);
      const check = () => {
        if (results.length >= count) {
          clearTimeout(timer);
          resolve(results.slice(0, count));
        } else {
          waiters.push(check);
        }
      };
      check();
    }),
  };
}

/** Resolves after `ms`: how long a test lets pass to show that nothing arrives. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
