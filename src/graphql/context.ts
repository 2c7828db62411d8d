import type { Principal } from '../auth/principal';
import type { RequestServices } from '../composition';
import type { RateLimitCaller } from '../rate-limits/rate-limit.policy';
import type { Loaders } from './loaders';
import type { GraphQLResultCapture } from './cached-responses';
import type { AlertEventStream, SubscribeOptions } from '../modules/dependency-alerts/alert-event-stream';

/** What a subscription over WebSocket subscribes through (graphql/websocket.ts). */
export interface LiveContext {
  alertEvents: AlertEventStream;
  /** The connection's caller under some data versions, its token checked again; null (and the connection closed) when it no longer authenticates. */
  principalAt: SubscribeOptions['principalAt'];
  /** Events queued per subscription at most, and what a subscription that would miss events does. */
  maxPending: number;
  onLost: SubscribeOptions['onLost'];
}

/** What every resolver gets: the caller (authenticated once), the request's services, and its loaders. */
export interface GraphQLContext {
  principal: Principal;
  /** Bound to the request's data versions; a mutation rebinds them to none (graphql/server.ts). */
  services: RequestServices;
  loaders: Loaders;
  /** The origin URL fields are built from, as in REST answers. */
  apiBase: string;
  /** Who this request's writes are counted against. */
  rateLimitCaller: RateLimitCaller;
  /** Where this query's result goes for the response cache, when it may be cached. */
  resultCapture?: GraphQLResultCapture | undefined;
  /** Over WebSocket only: subscriptions (over HTTP there is none, and a subscription is refused). */
  live?: LiveContext | undefined;
}
