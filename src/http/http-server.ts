import http, { type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The HTTP server's own limits: what a client that is slow, or sends too much, meets. */
export interface ServerLimits {
  /** Time to receive a request's whole header section (slowloris). */
  headersTimeout: number;
  /** Time to receive a whole request, body included (partial bodies that never finish). */
  requestTimeout: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeout: number;
  /** How often the two timeouts above are checked (Node's default, 30 s, lets a slow client linger that long past them). */
  connectionsCheckingInterval: number;
  /**
   * Bytes of request line and headers; more is 431. Stated so a flag cannot change it: a 16 KiB
   * request line (the global advisory list's 1,000 `affects` values) with 8 KiB of headers.
   */
  maxHeaderSize: number;
}

export const SERVER_LIMITS: ServerLimits = {
  headersTimeout: 20_000,
  requestTimeout: 60_000,
  keepAliveTimeout: 5_000,
  connectionsCheckingInterval: 1_000,
  maxHeaderSize: 24 * 1024,
};

// Node answers these failures itself, below Express; the answers keep the documented error body.
function clientErrorAnswer(code: string | undefined, limits: ServerLimits): [status: number, reason: string, message: string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [431, 'Request Header Fields Too Large', `The request line and headers are larger than ${limits.maxHeaderSize} bytes.`];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [408, 'Request Timeout', 'The request was not received in time.'];
  return [400, 'Bad Request', 'The request is not valid HTTP.'];
}

function answerClientError(error: Error & { code?: string }, socket: Duplex, limits: ServerLimits, isAnswering: (socket: Duplex) => boolean): void {
  // A reset connection, or one already answering, has no one to tell.
  if (error.code === 'ECONNRESET' || !socket.writable || isAnswering(socket)) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = clientErrorAnswer(error.code, limits);
  const body = JSON.stringify({ message, documentation_url: '/docs', status: String(status) });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** An HTTP server with explicit limits and timeouts (tests may shorten them). */
export function createHttpServer(listener: RequestListener, overrides: Partial<ServerLimits> = {}): Server {
  const limits = { ...SERVER_LIMITS, ...overrides };
  const server = http.createServer(
    {
      headersTimeout: limits.headersTimeout,
      requestTimeout: limits.requestTimeout,
      keepAliveTimeout: limits.keepAliveTimeout,
      connectionsCheckingInterval: limits.connectionsCheckingInterval,
      maxHeaderSize: limits.maxHeaderSize,
    },
    listener,
  );
  const answering = answeringSockets(server);
  server.on('clientError', (error: Error & { code?: string }, socket: Duplex) => answerClientError(error, socket, limits, answering));
  return server;
}

/**
 * Whether a socket has a response under way (its headers may be on the wire: no raw answer
 * may follow them). Counted from the server's own events, per socket (pipelined requests
 * queue their responses), rather than read from Node's private `_httpMessage`.
 */
function answeringSockets(server: Server): (socket: Duplex) => boolean {
  const open = new WeakMap<Duplex, number>();
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    open.set(socket, (open.get(socket) ?? 0) + 1);
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      const left = (open.get(socket) ?? 1) - 1;
      if (left > 0) open.set(socket, left);
      else open.delete(socket);
    };
    res.once('finish', end);
    res.once('close', end);
  });
  return (socket) => open.has(socket);
}
