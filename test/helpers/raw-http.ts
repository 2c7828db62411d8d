import type { Server } from 'node:http';
import http from 'node:http';
import net from 'node:net';

// Talking to a server below any HTTP client: exact bytes on the wire, and clients that
// send slowly or never finish (what a real client library would not let a test do).

/** Starts `server` on an ephemeral loopback port and returns the port. */
export function listenOnLoopback(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : 0);
    });
  });
}

export interface RawAnswer {
  /** The status code, or undefined when the server closed without answering. */
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
}

/** Parses what the server sent on a connection (one answer, or nothing). */
export function parseAnswer(received: string): RawAnswer {
  const [head = '', ...rest] = received.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: status === undefined ? undefined : Number(status), headers, body: rest.join('\r\n\r\n') };
}

/** Sends `bytes` at once and reads until the server closes (requests carry Connection: close). */
export function exchange(port: number, bytes: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    let received = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(parseAnswer(received)));
  });
}

export interface SlowClient {
  /** Resolves when the server closes the connection: what it sent, and after how many ms. */
  closed: Promise<{ received: string; afterMs: number }>;
  stop(): void;
}

/**
 * Opens a connection, sends `opening`, then one byte of `drip` every `intervalMs`
 * (repeating it), never finishing the request: a slowloris client.
 */
export function slowClient(port: number, opening: string, drip: string, intervalMs: number): SlowClient {
  const started = Date.now();
  let received = '';
  let timer: NodeJS.Timeout | undefined;
  const socket = net.connect(port, '127.0.0.1', () => {
    if (opening) socket.write(opening);
    let i = 0;
    if (drip) timer = setInterval(() => socket.writable && socket.write(drip[i++ % drip.length]!), intervalMs);
  });
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined); // a reset is one way of being closed
  const closed = new Promise<{ received: string; afterMs: number }>((resolve) => {
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ received, afterMs: Date.now() - started });
    });
  });
  return {
    closed,
    stop: () => {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

export interface PlainAnswer extends RawAnswer {
  /** The body parsed as JSON, or undefined when it is empty or not JSON. */
  json: unknown;
}

/**
 * One request through node:http with nothing added (no compression, no default headers
 * but Host), reading response headers up to `maxHeaderSize` bytes.
 */
export function plainRequest(
  port: number,
  request: { method: string; path: string; headers: Readonly<Record<string, string>>; body?: string; maxHeaderSize?: number },
): Promise<PlainAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: request.method, path: request.path, headers: request.headers, maxHeaderSize: request.maxHeaderSize ?? 16 * 1024, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('error', reject);
        res.on('end', () => {
          let json: unknown;
          try {
            json = body === '' ? undefined : JSON.parse(body);
          } catch {
            json = undefined;
          }
          const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]));
          resolve({ status: res.statusCode, headers, body, json });
        });
      },
    );
    req.on('error', reject);
    req.end(request.body);
  });
}
