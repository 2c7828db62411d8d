import v8 from 'node:v8';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CacheBudgets, CacheReading } from '../cache/cache-budget';
import type { Database } from '../database/connection';
import { routeTemplate } from '../http/request-log';
import { sendText } from '../http/respond';
import { instrumentDatabase } from './database-metrics';
import { graphqlMetricsPlugin, type GraphQLMetrics } from './graphql-metrics.plugin';

/** The label of every request no route matched: raw paths would make the label set unbounded. */
export const UNMATCHED_ROUTE = 'unmatched';

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface Metrics {
  /** Counts and times every request that passes it, labelled by method, route template and status. */
  countRequests: RequestHandler;
  /** Counts and times one request under the route `route()` names once it is answered (also one answered before Express sees it). */
  countRequest: (req: IncomingMessage, res: ServerResponse, route: () => string | null) => void;
  /** GET /metrics: the Prometheus text exposition of the registry. */
  serve: RequestHandler;
  graphql: GraphQLMetrics;
}

export interface MetricsOptions {
  /** Mount paths that answer without Express routes (GraphQL): their path is their template. */
  routelessMounts: readonly string[];
  /** The instance's memory caches, reported by name. */
  caches: CacheBudgets;
  /** The snapshots' share of the instance (modules/dependency-graph/snapshot-queue.ts). */
  snapshots: { readonly share: { readonly spentSeconds: number }; readonly refusals: number };
  /** The instance's live alert-event subscriptions (GraphQL over WebSocket). */
  subscriptions: { readonly size: number };
}

/**
 * One registry per app (not prom-client's global one, so several apps in one process never
 * clash): HTTP, GraphQL and database metrics, and the default process metrics.
 */
export function createMetrics(database: Database, { routelessMounts, caches, snapshots, subscriptions }: MetricsOptions): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const labelNames = ['method', 'route', 'status'] as const;
  const requests = new Counter({ name: 'orgsec_http_requests_total', help: 'HTTP requests answered, by method, route template and status.', labelNames, registers: [registry] });
  const durations = new Histogram({
    name: 'orgsec_http_request_duration_seconds', help: 'Time to answer an HTTP request, by method, route template and status.',
    labelNames, buckets: SECONDS_BUCKETS, registers: [registry],
  });
  instrumentDatabase(database, registry, SECONDS_BUCKETS);
  reportCaches(caches, registry);
  reportSnapshots(snapshots, registry);
  new Gauge({
    name: 'orgsec_heap_limit_bytes', help: 'The JavaScript heap the server may use: HEAP_MB (V8\'s old generation) and the young generation.', registers: [registry],
    collect() { this.set(v8.getHeapStatistics().heap_size_limit); },
  });
  new Gauge({
    name: 'orgsec_graphql_subscriptions', help: 'GraphQL subscriptions open on this instance (dependencyAlertEvents over WebSocket).', registers: [registry],
    collect() { this.set(subscriptions.size); },
  });

  const routeOf = (req: Request): string => {
    if (req.route || req.res?.locals.routeTemplate) return routeTemplate(req) ?? UNMATCHED_ROUTE;
    return routelessMounts.includes(req.baseUrl) ? req.baseUrl : UNMATCHED_ROUTE;
  };
  const countRequest = (req: IncomingMessage, res: ServerResponse, route: () => string | null): void => {
    const stopTimer = durations.startTimer();
    res.once('finish', () => {
      const labels = { method: req.method ?? '', route: route() ?? UNMATCHED_ROUTE, status: String(res.statusCode) };
      requests.inc(labels);
      stopTimer(labels);
    });
  };
  const countRequests: RequestHandler = (req, res, next) => {
    countRequest(req, res, () => routeOf(req));
    next();
  };
  const serve: RequestHandler = async (_req, res, next) => {
    try {
      const text = await registry.metrics();
      sendText(res, 200, registry.contentType, text);
    } catch (error) {
      next(error);
    }
  };
  return { countRequests, countRequest, serve, graphql: graphqlMetricsPlugin(registry, SECONDS_BUCKETS) };
}

/** What snapshots took from the instance and how many it refused, read when scraped. */
function reportSnapshots(snapshots: MetricsOptions['snapshots'], registry: Registry): void {
  const counter = (name: string, help: string, valueOf: () => number) => new Counter({
    name, help, registers: [registry],
    collect() {
      this.reset();
      this.inc(valueOf());
    },
  });
  counter('orgsec_snapshot_work_seconds_total', 'Seconds of dependency snapshot work (their requests\' own and the worker\'s applications), kept to SNAPSHOT_WORKER_SHARE while other requests are answered.', () => snapshots.share.spentSeconds);
  counter('orgsec_snapshots_refused_total', 'Dependency snapshots refused with 503 and Retry-After (their share spent, or the queue too long).', () => snapshots.refusals);
}

/** Each memory cache's bytes and budget (CACHE_MB, RESPONSE_CACHE_MB), read when scraped. */
function reportCaches(caches: CacheBudgets, registry: Registry): void {
  const gauge = (name: string, help: string, valueOf: (reading: CacheReading) => number) => new Gauge({
    name, help, labelNames: ['cache'], registers: [registry],
    collect() {
      for (const reading of caches.read()) this.set({ cache: reading.name }, valueOf(reading));
    },
  });
  gauge('orgsec_cache_bytes', 'About how many bytes a memory cache holds now, by cache.', (r) => r.bytes);
  gauge('orgsec_cache_limit_bytes', 'The most a memory cache holds (its share of CACHE_MB; RESPONSE_CACHE_MB for responses), by cache.', (r) => r.maxBytes);
}
