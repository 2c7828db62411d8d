import v8 from 'node:v8';
import type { Server } from 'node:http';
import { createApp, GRAPHQL_PATHS } from './app';
import { graphqlUpgrades } from './graphql/websocket-upgrades';
import { createServices } from './composition';
import type { Config } from './config';
import { openDatabase } from './database/connection';
import { migrateLatest } from './database/migrate';
import { createHttpServer, type ServerLimits } from './http/http-server';
import { createLogger } from './logger';
import { OidcIssuer } from './modules/oidc-tokens/issuer';
import { startDeliveryWorker } from './modules/webhook-delivery/start-worker';
import { onStopRequest } from './stop-signals';

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

/** config → database → migrations → listen; closes cleanly on SIGTERM/SIGINT. */
export async function startServer(config: Config, hooks: { beforeListen?: (services: ReturnType<typeof createServices>) => Promise<void>; serverLimits?: Partial<ServerLimits> } = {}): Promise<RunningServer> {
  const logger = createLogger(config.logLevel);
  const database = openDatabase(config.databaseUrl, { poolMax: config.databasePoolMax, sqliteFastPaths: config.sqliteFastPaths });
  await migrateLatest(database);
  const oidcIssuer = new OidcIssuer(config.oidcIssuer);
  const services = createServices(database, {
    rateLimits: config.rateLimits, responseCacheBytes: config.responseCacheBytes, cacheBytes: config.cacheBytes, oidcIssuer, webhookAllowPrivateTargets: config.webhookAllowPrivateTargets,
    attestationTrust: config.attestationTrust, snapshotQueue: config.snapshotQueue, liveEvents: config.liveEvents,
  });
  // Advisories' stored JSON that an older release or serializer left stale, written again.
  const rewritten = await services.advisoryAlertJson.writeStale(database.knex);
  if (rewritten > 0) logger.info({ advisories: rewritten }, 'advisory JSON written again');
  await hooks.beforeListen?.(services);
  const app = await createApp({ services, logger, trustProxy: config.trustProxy, graphqlExplorer: config.graphqlExplorer, corsOrigins: config.corsOrigins });
  // GraphQL subscriptions: WebSocket upgrades on the GraphQL paths of the same port.
  const upgrades = graphqlUpgrades({ services, logger, trustProxy: config.trustProxy, corsOrigins: config.corsOrigins, paths: GRAPHQL_PATHS });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createHttpServer(app, hooks.serverLimits).listen(config.port, config.host, () => resolve(s));
    s.on('upgrade', upgrades.onUpgrade);
    s.once('error', reject);
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${host}:${port}`;
  oidcIssuer.listeningAt(url);
  logger.info({ url, heapLimitMb: Math.round(v8.getHeapStatistics().heap_size_limit / 2 ** 20) }, 'orgsec listening');
  // Every instance delivers webhooks; URLs in payloads are under PUBLIC_URL, or the listening URL.
  const deliveries = startDeliveryWorker(services, logger, { ...config, publicUrl: config.publicUrl || url });
  // Every instance applies queued snapshots, its own and others' (the queue is in the database).
  const snapshots = services.createSnapshotWorker(logger);
  snapshots.start();
  const retention = services.createAuditRetention(logger, config.auditLogRetentionDays);
  retention.start();
  let closing: Promise<void> | undefined;
  // Graceful: stop accepting, let requests in flight finish, drop idle keep-alive
  // connections at once (and each one as its last answer is sent: Node keeps them
  // open otherwise) and any others after a grace period, then close the pool.
  const close = () =>
    (closing ??= upgrades.close().then(() => new Promise<void>((resolve) => {
      const dropIdle = setInterval(() => server.closeIdleConnections(), 50);
      server.close(() => {
        clearInterval(dropIdle);
        resolve();
      });
      server.closeIdleConnections();
      setTimeout(() => server.closeAllConnections(), 5_000).unref();
    })).then(() => Promise.all([deliveries.stop(), snapshots.stop(), retention.stop()])).then(() => database.close()));
  onStopRequest((signal) => {
    logger.info({ signal }, 'shutting down');
    void close().then(() => process.exit(0));
  });
  return { server, url, close };
}
