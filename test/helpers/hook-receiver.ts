import http from 'node:http';
import type { AddressInfo } from 'node:net';

// A webhook receiver on a local port, as a user's integration would run one: it records every
// request as received (raw body, headers) and answers as the test says, per request.

export interface ReceivedDelivery {
  guid: string;
  hookId: number;
  event: string;
  headers: http.IncomingHttpHeaders;
  rawBody: string;
}

/** How to answer one request: a status, `hang` (never answer), or `reset` (destroy the connection). */
export type Answer = number | 'hang' | 'reset';

export interface HookReceiver {
  url: string;
  port: number;
  received: ReceivedDelivery[];
  /** Requests being answered right now (to see that no two overlap where they must not). */
  overlaps: string[];
  answer: (delivery: ReceivedDelivery) => Answer | Promise<Answer>;
  close(): Promise<void>;
}

export async function startReceiver(port = 0, answer: HookReceiver['answer'] = () => 200): Promise<HookReceiver> {
  const active = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();
  const receiver: HookReceiver = { url: '', port: 0, received: [], overlaps: [], answer, close: async () => undefined };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const delivery: ReceivedDelivery = {
        guid: String(req.headers['x-service-delivery']), hookId: Number(req.headers['x-service-hook-id']),
        event: String(req.headers['x-service-event']), headers: req.headers, rawBody: Buffer.concat(chunks).toString('utf8'),
      };
      const hookKey = `hook ${delivery.hookId}`;
      for (const key of [delivery.guid, hookKey]) {
        if ((active.get(key) ?? 0) > 0) receiver.overlaps.push(key);
        active.set(key, (active.get(key) ?? 0) + 1);
      }
      const release = () => { for (const key of [delivery.guid, hookKey]) active.set(key, active.get(key)! - 1); };
      void Promise.resolve(receiver.answer(delivery)).then((how) => {
        if (how === 'hang') { res.on('close', release); return; }
        if (how === 'reset') { release(); req.socket.destroy(); return; }
        receiver.received.push(delivery);
        release();
        res.writeHead(how, { 'Content-Type': 'text/plain' }).end(how < 300 ? 'thanks' : 'no');
      });
    });
  });
  server.on('connection', (socket) => { sockets.add(socket); socket.on('close', () => sockets.delete(socket)); });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `http://127.0.0.1:${receiver.port}/hook`;
  receiver.close = () => new Promise((resolve) => {
    for (const socket of sockets) socket.destroy();
    server.close(() => resolve());
  });
  return receiver;
}

/** Waits until `check` holds, looking every 50 ms; fails naming `what` after `ms`. */
export async function eventually<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 20_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > until) throw new Error(`still waiting after ${ms} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
