import type { RequestListener } from 'node:http';
import express, { Router } from 'express';
import type { Services } from './composition';
import { apiVersion } from './http/api-version';
import { bindRequestServices, identify, markReadsOnly, refuseAmbiguousCredentials, requireValidCredentials } from './http/authenticate';
import { errorMiddleware, graphqlTransportErrors, unknownRoute } from './http/errors.middleware';
import { limitQueryLength } from './http/query-length';
import { rateLimit } from './http/rate-limit';
import { requestLog } from './http/request-log';
import { ResponseCacheGate } from './http/response-cache-gate';
import { withCachedReadsFirst } from './http/cached-read-fast-path';
import { healthRoutes } from './http/health';
import { createMetrics } from './observability/metrics';
import { versionsRoutes } from './http/versions.routes';
import { withinRequest } from './http/request-log';
import { rootRoutes } from './http/root.routes';
import { pageRoutes } from './pages/pages.routes';
import { signInRoutes } from './pages/sign-in.routes';
import type { Logger } from './logger';
import { lazyGraphQLMiddleware } from './graphql/lazy-middleware';
import { API_V3_PATH, LAYOUT_GRAPHQL_PATH, apiBase } from './http/api-base';
import { graphqlRequestGuard, jsonParser } from './http/body';
import { advisoriesRoutes } from './modules/advisories/advisories.routes';
import { attestationsRoutes } from './modules/attestations/attestations.routes';
import { MAX_BUNDLE_BYTES } from './modules/attestations/attestations.schemas';
import { autoTriageRoutes } from './modules/auto-triage/auto-triage.routes';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { dependencyGraphRoutes } from './modules/dependency-graph/dependency-graph.routes';
import { MAX_SNAPSHOT_BYTES } from './modules/dependency-graph/dependency-graph.schemas';
import { dependencyAlertsRoutes } from './modules/dependency-alerts/alerts.routes';
import { oidcRoutes } from './modules/oidc/oidc.routes';
import { oidcDiscoveryRoutes } from './modules/oidc-tokens/oidc-discovery';
import { oidcTokensRoutes } from './modules/oidc-tokens/oidc-tokens.routes';
import { orgRolesRoutes } from './modules/org-roles/org-roles.routes';
import { auditLogRoutes } from './modules/audit-log/audit-log.routes';
import { openApiRoutes } from './openapi/openapi.routes';
import { graphiqlRoutes } from './graphql/graphiql.routes';
import { serveCachedGraphQLResponses } from './graphql/cached-responses';
import { answerJsonToRestClients } from './graphql/accept';
import { withCors, type CorsOrigins } from './http/cors';
import { OPERATIONS, OPERATION_LIST, expressPath } from './operations';
import { admitSnapshot, sbomBodyParser, snapshotBodyParser } from './modules/dependency-graph/dependency-graph.routes';
import { sbomRoutes } from './modules/sbom/sbom.routes';
import { vexRoutes } from './modules/vex/vex.routes';
import { MAX_SBOM_BYTES } from './modules/sbom/sbom.schemas';

/** Where GraphQL answers: its own path, and the enterprise-server layout's. */
export const GRAPHQL_PATHS = [LAYOUT_GRAPHQL_PATH, '/graphql'];

export interface AppOptions {
  services: Services;
  logger: Logger;
  trustProxy?: boolean;
  /** Introspection and the Apollo Sandbox landing page at /graphql (default on). */
  graphqlExplorer?: boolean;
  /** Browser origins that may read answers (default any: `*`). */
  corsOrigins?: CorsOrigins;
}

/**
 * The HTTP request listener (no listen): the Express app with the REST API, GraphQL, health
 * check and one error middleware, behind the fast path that serves repeated reads.
 */
export async function createApp({ services, logger, trustProxy = false, graphqlExplorer = true, corsOrigins = '*' }: AppOptions): Promise<RequestListener> {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', trustProxy);
  app.set('json spaces', 0);

  // The response cache's one gate: the fast path, REST reads and GraphQL look up and record through it.
  const gate = new ResponseCacheGate(services.responseCache);

  app.use(requestLog(logger));

  // Operations endpoints: outside the API (no authentication, no rate limit), not counted.
  const metrics = createMetrics(services.database, { routelessMounts: GRAPHQL_PATHS, caches: services.caches, snapshots: services.snapshotQueue, subscriptions: services.alertEventStream });
  app.use(healthRoutes(services.database));
  app.get('/metrics', metrics.serve);
  app.use(metrics.countRequests);
  // /openapi.json and /docs (no token, not rate limited), also under /api/v3 where documentation_url points.
  const openApi = openApiRoutes();
  app.use(API_V3_PATH, openApi);
  app.use(openApi);
  // The OIDC discovery document and JWKS under the issuer's path: public, like /openapi.json.
  app.use(services.oidcIssuer.path || '/', oidcDiscoveryRoutes({ issuer: services.oidcIssuer, keys: services.oidcSigningKeys }));
  // The offline GraphQL explorer needs introspection: off with it.
  if (graphqlExplorer) app.use(graphiqlRoutes(GRAPHQL_PATHS));

  // Every request is identified, then counted (x-ratelimit-*), before anything else
  // can answer it; only then are bad credentials refused.
  const identified = [apiBase, identify(services)];

  // GraphQL shares REST's transport checks: host, body limits and depth, no token in the URL.
  // Also under /api/graphql, where clients made for the enterprise-server layout look.
  // Every GraphQL request may read from the caches; a mutation rebinds to none (graphql/server.ts).
  app.use(GRAPHQL_PATHS, ...identified, rateLimit(services.rateLimiter, 'graphql'), refuseAmbiguousCredentials, jsonParser(MAX_BUNDLE_BYTES), graphqlRequestGuard, withinRequest,
    bindRequestServices(services, () => true), answerJsonToRestClients, serveCachedGraphQLResponses(gate, metrics.graphql.countCachedAnswer),
    lazyGraphQLMiddleware(services, logger, { explorer: graphqlExplorer, plugins: [metrics.graphql.plugin] }), graphqlTransportErrors(logger));

  // The pages' sign-in form posts a form body, which the API's JSON parser refuses: its own
  // chain, on paths no API route has, counted like the API (a guessed token spends the budget).
  const signIn = signInRoutes([...identified, rateLimit(services.rateLimiter, 'core'), withinRequest, bindRequestServices(services, (req) => req.method === 'GET')], logger);
  app.use(API_V3_PATH, signIn);
  app.use(signIn);

  const api = Router();
  // POSTs that write nothing (catalogue readsOnly: a token mint, a preview) are neither counted as
  // writes nor kept from the caches: they read at the request's versions, as GETs do.
  const readsOnly = markReadsOnly(OPERATION_LIST.filter((o) => o.readsOnly).map((o) => ({ method: o.method, path: expressPath(o.path) })));
  api.use(...identified, readsOnly, rateLimit(services.rateLimiter, 'core'), limitQueryLength);
  // A body is parsed once: bundles may be larger than the default limit.
  api.post(expressPath(OPERATIONS.createAttestation.path), jsonParser(MAX_BUNDLE_BYTES));
  // A full snapshot queue refuses before the body is read: refusals cost the instance next to nothing.
  api.post(expressPath(OPERATIONS.createDependencySnapshot.path), admitSnapshot(services), snapshotBodyParser(MAX_SNAPSHOT_BYTES));
  api.post(expressPath(OPERATIONS.uploadSbom.path), admitSnapshot(services), sbomBodyParser(MAX_SBOM_BYTES));
  api.use(jsonParser());
  api.use(withinRequest);
  api.use(bindRequestServices(services, (req, res) => req.method === 'GET' || req.method === 'HEAD' || res.locals.readsOnly === true));
  api.use(apiVersion);
  api.use(requireValidCredentials);
  // A read answered before, for the same caller and data, is answered again here; a miss is recorded by respond.ts.
  api.use(gate.restReads);
  api.use(versionsRoutes(), rootRoutes({ graphiql: graphqlExplorer, oidcIssuerPath: services.oidcIssuer.path }));
  // The alert lists first: they are what clients poll, and no two modules share a path.
  api.use(dependencyAlertsRoutes());
  api.use(vexRoutes());
  api.use(orgRolesRoutes());
  api.use(oidcRoutes());
  api.use(oidcTokensRoutes());
  api.use(attestationsRoutes());
  api.use(advisoriesRoutes());
  api.use(dependencyGraphRoutes());
  api.use(sbomRoutes());
  api.use(autoTriageRoutes());
  api.use(webhooksRoutes());
  api.use(auditLogRoutes());

  // The REST API at the root and under /api/v3 (the enterprise-server layout); URLs in
  // bodies and Link headers keep the prefix the request used. After the API's routes, the
  // pages every html_url opens (src/pages): the API wins any path both could take, and a page
  // request has come through the API's chain (identified, counted, services bound) like any other.
  // (Two mounts: Express 5 does not match '/' inside a path array.)
  const pages = pageRoutes(logger);
  app.use(API_V3_PATH, api, pages, unknownRoute);
  app.use(api, pages, unknownRoute);
  app.use(errorMiddleware(logger));
  // A read served before, for the same caller and data: served again before routing.
  // CORS headers go on first, so every response carries them, and preflights end there.
  return services.requestsInFlight.track(withCors(withCachedReadsFirst(app, {
    gate, versions: services.versions, at: services.at, rateLimited: services.rateLimiter !== undefined, trustProxy,
    logger, countRequest: metrics.countRequest,
  }), corsOrigins));
}
