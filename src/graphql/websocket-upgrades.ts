import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Services } from '../composition';
import type { CorsOrigins } from '../http/cors';
import type { Logger } from '../logger';
import type { GraphQLWebSockets } from './websocket-server';

type ServerModule = typeof import('./websocket-server');

export interface GraphQLUpgradeOptions {
  services: Services;
  logger: Logger;
  trustProxy: boolean;
  corsOrigins: CorsOrigins;
  /** The GraphQL paths (/graphql, /api/graphql): WebSocket upgrades are taken there only. */
  paths: readonly string[];
}

export interface GraphQLUpgrades {
  /** The HTTP server's 'upgrade' listener. */
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
}

/** A refusal before the WebSocket handshake, in the API's error body. */
function refuse(socket: Duplex, status: number, reason: string, message: string): void {
  const body = JSON.stringify({ message, documentation_url: '/docs', status: String(status) });
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
}

/**
 * Whether a page of this origin may open a connection: browsers send Origin with every
 * WebSocket handshake and enforce nothing themselves, so CORS_ORIGINS is enforced here (off:
 * pages of this origin only). Clients that are not browsers send no Origin.
 */
function originAllowed(req: IncomingMessage, origins: CorsOrigins): boolean {
  const origin = req.headers.origin;
  if (origin === undefined || origins === '*') return true;
  if (origins !== 'off') return origins.includes(origin);
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

/**
 * WebSocket upgrades on the GraphQL paths (subscriptions: websocket-server.ts), built at the
 * first upgrade, as Apollo is at the first GraphQL request (lazy-middleware.ts). Any other
 * upgrade is refused with 404.
 */
export function graphqlUpgrades(options: GraphQLUpgradeOptions): GraphQLUpgrades {
  let sockets: GraphQLWebSockets | undefined;
  let closed = false;
  const build = (): GraphQLWebSockets => {
    // Required here, not imported at the top: importing is what loads the GraphQL stack.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const server = require('./websocket-server') as ServerModule;
    return server.createGraphQLWebSockets(options);
  };
  return {
    onUpgrade(req, socket, head) {
      socket.on('error', () => socket.destroy());
      let path: string;
      try {
        path = new URL(req.url ?? '/', 'http://localhost').pathname;
      } catch {
        return refuse(socket, 400, 'Bad Request', 'The request target is not a valid path.');
      }
      if (closed) return refuse(socket, 503, 'Service Unavailable', 'The server is shutting down.');
      if (!options.paths.includes(path)) return refuse(socket, 404, 'Not Found', `WebSocket connections are taken at ${options.paths.join(' and ')} only (GraphQL subscriptions).`);
      if (!originAllowed(req, options.corsOrigins)) return refuse(socket, 403, 'Forbidden', 'Pages of this origin may not connect (CORS_ORIGINS).');
      try {
        sockets ??= build();
      } catch (error) {
        options.logger.error({ err: error }, 'the GraphQL WebSocket server could not be built');
        return refuse(socket, 500, 'Internal Server Error', 'Internal server error');
      }
      sockets.handleUpgrade(req, socket, head);
    },
    async close() {
      closed = true;
      await sockets?.close();
    },
  };
}
