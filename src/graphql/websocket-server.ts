import 'reflect-metadata'; // type-graphql's decorators need it before any decorated class loads
import type { IncomingMessage } from 'node:http';
import {
  GraphQLError, getOperationAST, parse, specifiedRules, validate, type DocumentNode, type ExecutionArgs, type GraphQLFormattedError, type GraphQLSchema,
} from 'graphql';
import { CloseCode, handleProtocols, makeServer, type Context, type SubscribePayload } from 'graphql-ws';
import type WebSocket from 'ws';
import { WebSocketServer } from 'ws';
import { ANONYMOUS, type Principal } from '../auth/principal';
import type { Services } from '../composition';
import type { DataVersions } from '../database/data-version';
import { AuthenticationError, BadRequestError, UnavailableError } from '../errors/domain';
import { formatGraphQLError } from '../errors/graphql';
import { translateDriverError } from '../database/driver-errors';
import { restApiBaseOf } from '../http/api-base';
import { authorizationOf } from '../http/request-identity';
import type { Logger } from '../logger';
import type { GraphQLContext, LiveContext } from './context';
import { subgraphSchemaOf } from './federation';
import { estimateCost, MAX_COMPLEXITY, parseOptions, validationRules } from './limits';
import { createLoaders, type Loaders } from './loaders';
import { graphqlSchema } from './schema';

// GraphQL subscriptions over WebSocket, by graphql-ws's graphql-transport-ws protocol (what
// Apollo Sandbox, GraphiQL and Apollo Client speak), on the GraphQL paths of the HTTP port.
// graphql-ws's makeServer runs the protocol; this file wires it to `ws` (its own small
// adapter, so errors go to orgsec's log and every close carries orgsec's code and reason).
// Only subscriptions travel here: queries and mutations go over HTTP, with their limits.

/** What one connection and one token may hold (per instance). */
export const WEBSOCKET_LIMITS = {
  subscriptionsPerConnection: 20,
  connectionsPerToken: 10,
  /** Bytes of one message from a client; more closes the connection with 1009. */
  maxMessageBytes: 64 * 1024,
  /** Events waiting for a subscription's client; more (a client that stopped reading) closes the connection with 1013. */
  maxPendingEvents: 1_000,
  /** Milliseconds a client has to send connection_init (graphql-ws closes with 4408 after). */
  connectionInitWaitMs: 3_000,
  /** Milliseconds between pings; a client that has not answered the last one by the next is dropped. */
  keepAliveMs: 12_000,
};

/** How often idle connections' tokens are checked again when the data versions moved (a revoked token's connection closes with 4403), and at the longest. */
const REVALIDATE_MS = 1_000;
const FULL_CHECK_MS = 60_000;

/** The close codes orgsec uses besides graphql-ws's own (4400, 4401, 4403, 4406, 4408, 4409, 4429, 4500). */
const CLOSE = { goingAway: 1001, messageTooBig: 1009, internalError: 1011, tryAgainLater: 1013 } as const;

interface Connection {
  socket: WebSocket;
  request: IncomingMessage;
  credential: string | undefined;
  principal: Principal;
  apiBase: string;
}

export interface GraphQLWebSocketsOptions {
  services: Services;
  logger: Logger;
  trustProxy: boolean;
}

export interface GraphQLWebSockets {
  /** Takes an upgrade the caller has checked (path, origin). */
  handleUpgrade(req: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer): void;
  /** Open connections (tests, metrics). */
  readonly size: number;
  /** Closes every connection with 1001 and stops. */
  close(): Promise<void>;
}

let servedSchema: GraphQLSchema | undefined;

/** The schema Apollo serves (the subgraph): the same types and resolvers. */
function schemaOf(): GraphQLSchema {
  servedSchema ??= subgraphSchemaOf(graphqlSchema());
  return servedSchema;
}

/** The Authorization a connection_init payload carries (its key in any case), or an error for one that is not a string. */
function paramCredential(params: Record<string, unknown> | undefined): string | undefined | Error {
  const key = params && Object.keys(params).find((k) => k.toLowerCase() === 'authorization');
  if (key === undefined) return undefined;
  const value = params![key];
  return typeof value === 'string' ? value : new Error('Authorization in connection_init must be a string.');
}

export function createGraphQLWebSockets({ services, logger, trustProxy }: GraphQLWebSocketsOptions): GraphQLWebSockets {
  const schema = schemaOf();
  const formatError = formatGraphQLError((error) => logger.error({ err: error }, 'unhandled GraphQL error in a subscription'));
  const format = (errors: readonly GraphQLError[]): GraphQLFormattedError[] => errors.map((e) => formatError(e.toJSON(), e));
  const connections = new Map<WebSocket, Connection>();
  const perToken = new Map<number, number>();
  // graphql-ws's choice of subprotocol: graphql-transport-ws wherever the client lists it.
  const wss = new WebSocketServer({ noServer: true, maxPayload: WEBSOCKET_LIMITS.maxMessageBytes, perMessageDeflate: false, handleProtocols });

  const close = (socket: WebSocket, code: number, reason: string) => {
    // A close frame's reason holds 123 bytes at most (RFC 6455); ws throws on more.
    const fitted = Buffer.byteLength(reason) <= 123 ? reason : `${Buffer.from(reason).subarray(0, 120).toString('utf8').replace(/\uFFFD$/, '')}…`;
    if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close(code, fitted);
  };

  /** Authenticates the connection's credential under the newest data versions; null when it no longer authenticates. */
  const authenticate = async (credential: string | undefined, versions?: DataVersions): Promise<Principal> => {
    if (credential === undefined) return ANONYMOUS;
    return services.at(versions ?? (await services.versions.read())).authenticator.authenticate(credential);
  };

  const countToken = (principal: Principal, delta: 1 | -1) => {
    if (principal.kind === 'anonymous') return;
    const count = (perToken.get(principal.tokenId) ?? 0) + delta;
    if (count > 0) perToken.set(principal.tokenId, count);
    else perToken.delete(principal.tokenId);
  };

  /** connection_init: the credential from its payload or the upgrade's Authorization header (both: they must agree). */
  const onConnect = async (ctx: Context<Record<string, unknown> | undefined, { socket: WebSocket; request: IncomingMessage }>): Promise<boolean> => {
    const { socket, request } = ctx.extra;
    const fromParams = paramCredential(ctx.connectionParams);
    if (fromParams instanceof Error) return closeFalse(socket, CloseCode.BadRequest, fromParams.message);
    let fromHeader: string | undefined;
    try {
      fromHeader = authorizationOf(request);
    } catch (error) {
      return closeFalse(socket, CloseCode.BadRequest, (error as Error).message);
    }
    if (fromParams !== undefined && fromHeader !== undefined && fromParams !== fromHeader) {
      return closeFalse(socket, CloseCode.BadRequest, 'connection_init and the Authorization header name different credentials. Send one.');
    }
    const credential = fromParams ?? fromHeader;
    if (credential === undefined) return closeFalse(socket, CloseCode.Forbidden, 'Requires authentication');
    let principal: Principal;
    try {
      principal = await authenticate(credential);
    } catch (thrown) {
      const error = translateDriverError(thrown);
      if (error instanceof AuthenticationError || error instanceof BadRequestError) return closeFalse(socket, CloseCode.Forbidden, error.message);
      if (error instanceof UnavailableError) return closeFalse(socket, CLOSE.tryAgainLater, error.message);
      logger.error({ err: error }, 'a WebSocket connection could not be authenticated');
      return closeFalse(socket, CLOSE.internalError, 'Internal server error');
    }
    if (principal.kind !== 'anonymous' && (perToken.get(principal.tokenId) ?? 0) >= WEBSOCKET_LIMITS.connectionsPerToken) {
      return closeFalse(socket, CloseCode.TooManyInitialisationRequests, `This token has ${WEBSOCKET_LIMITS.connectionsPerToken} connections open here already: close one first.`);
    }
    if (socket.readyState !== socket.OPEN) return false; // closed while authenticating
    const apiBase = restApiBaseOf(request, request.url ?? '/', trustProxy);
    if (apiBase === undefined) return closeFalse(socket, CloseCode.BadRequest, 'The Host header is not a valid host name.');
    connections.set(socket, { socket, request, credential, principal, apiBase });
    countToken(principal, 1);
    return true;
  };

  const closeFalse = (socket: WebSocket, code: number, reason: string): false => {
    close(socket, code, reason);
    return false;
  };

  /** A subscribe message: parsed and validated under HTTP's limits; only a subscription, only within the connection's limit. */
  const onSubscribe = (ctx: Context<Record<string, unknown> | undefined, { socket: WebSocket }>, _id: string, payload: SubscribePayload): ExecutionArgs | readonly GraphQLError[] => {
    const connection = connections.get(ctx.extra.socket);
    if (!connection) return [new GraphQLError('The connection is closing.')];
    // This subscription is counted already.
    if (Object.keys(ctx.subscriptions).length > WEBSOCKET_LIMITS.subscriptionsPerConnection) {
      return [new GraphQLError(`A connection holds at most ${WEBSOCKET_LIMITS.subscriptionsPerConnection} subscriptions: complete one first, or open another connection.`, { extensions: { code: 'BAD_USER_INPUT' } })];
    }
    if (typeof payload?.query !== 'string') return [new GraphQLError('The subscribe message has no query.', { extensions: { code: 'BAD_USER_INPUT' } })];
    let document: DocumentNode;
    try {
      document = parse(payload.query, parseOptions);
    } catch (error) {
      return [error instanceof GraphQLError ? new GraphQLError(error.message, { ...(error.nodes ? { nodes: error.nodes } : {}), extensions: { code: 'GRAPHQL_PARSE_FAILED' } }) : new GraphQLError('The query could not be parsed.')];
    }
    const invalid = validate(schema, document, [...specifiedRules, ...validationRules]);
    if (invalid.length > 0) return invalid.map((e) => new GraphQLError(e.message, { ...(e.nodes ? { nodes: e.nodes } : {}), extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }));
    const operationName = payload.operationName ?? undefined;
    const operation = getOperationAST(document, operationName);
    if (!operation) return [new GraphQLError('Name the operation to run (operationName): the document has several, or none by that name.', { extensions: { code: 'BAD_USER_INPUT' } })];
    if (operation.operation !== 'subscription') {
      return [new GraphQLError(`Only subscriptions are served over WebSocket: send ${operation.operation === 'query' ? 'queries' : 'mutations'} over HTTP (POST or GET) to this path.`, { extensions: { code: 'BAD_USER_INPUT' } })];
    }
    const variableValues = (payload.variables ?? {}) as Record<string, unknown>;
    let cost: number;
    try {
      cost = estimateCost(schema, document, variableValues, operationName);
    } catch (error) {
      return [error instanceof GraphQLError ? error : new GraphQLError('The variables are not valid.', { extensions: { code: 'BAD_USER_INPUT' } })];
    }
    if (cost > MAX_COMPLEXITY) {
      return [new GraphQLError(`The query is too complex: its cost is ${cost}, the limit is ${MAX_COMPLEXITY}. Ask for fewer fields.`, { extensions: { code: 'QUERY_TOO_COMPLEX', complexity: cost, limit: MAX_COMPLEXITY } })];
    }
    return { schema, document, operationName, variableValues, contextValue: contextOf(connection) };
  };

  /**
   * A subscription's context: the connection's caller as it is now, and services and loaders
   * bound to the newest data versions this instance read (each batch of events reads them),
   * so the fields of an event resolve from the data of its moment, never a stale cache's.
   */
  const contextOf = (connection: Connection): GraphQLContext => {
    let boundTo: DataVersions | undefined;
    let bound: { services: GraphQLContext['services']; loaders: Loaders; principal: Principal } | undefined;
    const current = () => {
      const versions = services.versions.newestRead();
      if (!bound || boundTo !== versions || bound.principal !== connection.principal) {
        const requestServices = services.at(versions);
        bound = { services: requestServices, loaders: createLoaders(requestServices, connection.principal), principal: connection.principal };
        boundTo = versions;
      }
      return bound;
    };
    const live: LiveContext = {
      alertEvents: services.alertEventStream,
      principalAt: (versions) => principalAt(connection, versions),
      maxPending: WEBSOCKET_LIMITS.maxPendingEvents,
      onLost: (reason) => (reason === 'overflow'
        ? close(connection.socket, CLOSE.tryAgainLater, `The client read too slowly: ${WEBSOCKET_LIMITS.maxPendingEvents} events waited for it. Subscribe again.`)
        : close(connection.socket, CLOSE.tryAgainLater, 'Events could not be read from the database. Subscribe again.')),
    };
    const principal = connection.principal;
    return {
      get principal() { return connection.principal; },
      get services() { return current().services; },
      get loaders() { return current().loaders; },
      apiBase: connection.apiBase,
      rateLimitCaller: principal.kind === 'user' ? { kind: 'user', userId: principal.userId } : principal.kind === 'app' ? { kind: 'app', tokenId: principal.tokenId } : { kind: 'address', address: connection.request.socket.remoteAddress ?? 'unknown' },
      live,
    };
  };

  const server = makeServer<Record<string, unknown> | undefined, { socket: WebSocket; request: IncomingMessage }>({
    schema,
    connectionInitWaitTimeout: WEBSOCKET_LIMITS.connectionInitWaitMs,
    onConnect,
    onSubscribe,
    onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { data: result.data ?? null, errors: format(result.errors) } : undefined),
    onError: (_ctx, _id, _payload, errors) => format(errors),
  });

  /**
   * The connection's caller under `versions`, its token checked again (token look-ups are kept
   * per data version): a revoked or expired token closes the connection (4403) and answers
   * null; a changed grant applies from here on. Every batch of events asks it first.
   */
  const principalAt = async (connection: Connection, versions: DataVersions): Promise<Principal | null> => {
    try {
      const principal = await authenticate(connection.credential, versions);
      const before = connection.principal;
      if (principal.kind !== 'anonymous' && before.kind !== 'anonymous' && principal.tokenId === before.tokenId) {
        connection.principal = principal;
        return principal;
      }
    } catch (thrown) {
      const error = translateDriverError(thrown);
      if (!(error instanceof AuthenticationError)) throw error;
    }
    close(connection.socket, CloseCode.Forbidden, 'Bad credentials');
    return null;
  };

  /**
   * Idle connections' tokens checked again when the data versions moved, and every minute
   * whatever moved (a token expires without a write): a revoked or expired one closes.
   */
  let checkedAt: { versions: DataVersions; at: number } | undefined;
  let checking = false;
  const revalidate = async () => {
    if (checking || connections.size === 0) return;
    checking = true;
    try {
      const versions = await services.versions.read();
      if (checkedAt && checkedAt.versions.data === versions.data && Date.now() - checkedAt.at < FULL_CHECK_MS) return;
      for (const connection of [...connections.values()]) await principalAt(connection, versions);
      // Only a complete pass counts: one cut short by the database is done again at the next interval.
      checkedAt = { versions, at: Date.now() };
    } catch (error) {
      logger.warn({ err: error }, 'WebSocket connections: tokens could not be checked again; trying at the next interval');
    } finally {
      checking = false;
    }
  };
  const revalidation = setInterval(() => void revalidate(), REVALIDATE_MS).unref();

  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => {
    socket.on('error', (error: Error & { code?: string }) => {
      // ws closes the connection itself (1009 for a message over maxPayload, 1002 for a protocol error).
      logger.debug({ err: error }, 'WebSocket client error');
    });
    let alive = true;
    socket.on('pong', () => { alive = true; });
    const keepAlive = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
    }, WEBSOCKET_LIMITS.keepAliveMs).unref();
    const closed = server.opened({
      protocol: socket.protocol,
      send: (data) => new Promise<void>((resolve, reject) => {
        if (socket.readyState !== socket.OPEN) return resolve();
        socket.send(data, (error) => (error ? reject(error) : resolve()));
      }),
      close: (code, reason) => close(socket, code ?? CLOSE.goingAway, reason ?? ''),
      onMessage: (handle) => socket.on('message', (data: Buffer, isBinary: boolean) => {
        if (isBinary) return close(socket, CloseCode.BadRequest, 'Messages are JSON text, not binary.');
        handle(data.toString('utf8')).catch((error: unknown) => {
          logger.error({ err: error }, 'a WebSocket message could not be handled');
          close(socket, CLOSE.internalError, 'Internal server error');
        });
      }),
    }, { socket, request });
    socket.once('close', (code: number, reason: Buffer) => {
      clearInterval(keepAlive);
      const connection = connections.get(socket);
      if (connection) {
        connections.delete(socket);
        countToken(connection.principal, -1);
      }
      void closed(code, reason.toString('utf8'));
    });
  });

  return {
    handleUpgrade(req, socket, head) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    get size() {
      return wss.clients.size;
    },
    async close() {
      clearInterval(revalidation);
      for (const client of wss.clients) close(client, CLOSE.goingAway, 'The server is shutting down.');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
