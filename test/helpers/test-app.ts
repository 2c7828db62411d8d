import http, { type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import request from 'supertest';
import { createApp, GRAPHQL_PATHS } from '../../src/app';
import { graphqlUpgrades } from '../../src/graphql/websocket-upgrades';
import { SERVER_LIMITS } from '../../src/http/http-server';
import { createServices, type Services } from '../../src/composition';
import type { CorsOrigins } from '../../src/http/cors';
import type { AttestationTrust } from '../../src/modules/attestations/attestation-trust';
import type { Logger } from '../../src/logger';
import { OidcIssuer } from '../../src/modules/oidc-tokens/issuer';
import type { RateLimitPolicy } from '../../src/rate-limits/rate-limit.policy';
import { contractRecorder } from './contract-recorder';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface TestApp {
  db: TestDatabase;
  services: Services;
  app: RequestListener;
  /** The listening server's origin, for clients other than supertest (e.g. Octokit). */
  url: string;
  /** supertest over the real Express app (real HTTP on an ephemeral port). */
  http: () => ReturnType<typeof request>;
  load(world: unknown): Promise<void>;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** Rate limits to enforce; off unless a test asks (RATE_LIMITS=off, as for bulk runs). */
  rateLimits?: RateLimitPolicy;
  /** Where the app logs; silent unless a test reads the log. */
  logger?: Logger;
  /** CORS_ORIGINS (default `*`). */
  corsOrigins?: CorsOrigins;
  /** OIDC_ISSUER (default: the listening origin plus /oidc, as `orgsec serve` does). */
  oidcIssuer?: string;
  /** The services' clock (OIDC token times, key ages); default Date.now. */
  clock?: () => number;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS=on (default off). */
  webhookAllowPrivateTargets?: boolean;
  /** ATTESTATION_VERIFICATION and ATTESTATION_TRUSTED_ROOTS (default: signature, the bundled root). */
  attestationTrust?: AttestationTrust;
  /** CACHE_MB in bytes (default 64 MB). */
  cacheBytes?: number;
  /** Where the SQLite file goes (default: a new directory under the system's temporary one). */
  sqliteDirectory?: string;
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase(options.sqliteDirectory ? { sqliteDirectory: options.sqliteDirectory } : {});
  const oidcIssuer = new OidcIssuer(options.oidcIssuer);
  const services = createServices(db, {
    rateLimits: options.rateLimits ?? false, oidcIssuer, ...(options.clock ? { clock: options.clock } : {}), webhookAllowPrivateTargets: options.webhookAllowPrivateTargets ?? false,
    ...(options.attestationTrust ? { attestationTrust: options.attestationTrust } : {}), ...(options.cacheBytes ? { cacheBytes: options.cacheBytes } : {}),
  });
  const logger = options.logger ?? pino({ level: 'silent' });
  const app = await createApp({ services, logger, ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}) });
  // GraphQL subscriptions over WebSocket on the same port, as `orgsec serve` takes them.
  const upgrades = graphqlUpgrades({ services, logger, trustProxy: false, corsOrigins: options.corsOrigins ?? '*', paths: GRAPHQL_PATHS });
  // One listening server per file: a stable origin, as a real client sees. Every REST
  // answer is checked against /openapi.json on the way out.
  const recorder = contractRecorder();
  const server = await new Promise<Server>((resolve) => {
    const s = http.createServer({ maxHeaderSize: SERVER_LIMITS.maxHeaderSize }, recorder.wrap(app)).listen(0, '127.0.0.1', () => resolve(s));
    s.on('upgrade', upgrades.onUpgrade);
  });
  const address = server.address() as AddressInfo;
  oidcIssuer.listeningAt(`http://127.0.0.1:${address.port}`);
  return {
    db,
    services,
    app,
    url: `http://127.0.0.1:${address.port}`,
    http: () => request(server),
    load: async (world) => {
      await services.world.load(world);
    },
    close: async () => {
      await upgrades.close();
      await new Promise((resolve) => server.close(resolve));
      await db.destroy();
      if (recorder.violations.length > 0) {
        throw new Error(`${recorder.violations.length} REST answers do not match /openapi.json:\n${recorder.violations.slice(0, 20).join('\n')}`);
      }
    },
  };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
