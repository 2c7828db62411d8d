import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { MAX_RESPONSE_BYTES, sendHook, type HookRequest } from '../../src/modules/webhook-delivery/hook-request';
import { backoffMs, outcomeOf, RETRY_WINDOW_MS } from '../../src/modules/webhook-delivery/delivery-worker';

// One delivery attempt on real sockets: the address rules on what a name resolves to, no
// redirects, bounded answers, a deadline. (The processes and the queue: webhook-delivery.test.ts.)

let server: http.Server;
let port: number;
let requests = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests += 1;
    req.resume();
    req.on('end', () => {
      if (req.url === '/redirect') return res.writeHead(302, { Location: `http://127.0.0.1:${port}/target` }).end();
      if (req.url === '/big') return res.writeHead(200).end('x'.repeat(MAX_RESPONSE_BYTES * 3));
      if (req.url === '/slow') return; // never answers
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const request = (url: string, overrides: Partial<HookRequest> = {}): HookRequest => ({
  url, headers: { 'Content-Type': 'application/json' }, body: '{"zen":"Keep it logically awesome."}', insecureSsl: false, timeoutMs: 2_000, allowPrivateTargets: true, ...overrides,
});

describe('where an attempt may go', () => {
  it.each([
    ['a loopback literal', () => `http://127.0.0.1:${port}/`, /^refused: 127\.0\.0\.1 is a loopback address$/],
    ['a name that resolves to loopback', () => `http://localhost:${port}/`, /^refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address$/],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/', /^refused: 169\.254\.169\.254 is a link-local address$/],
    ['an IPv4-mapped IPv6 loopback literal', () => `http://[::ffff:127.0.0.1]:${port}/`, /^refused: ::ffff:7f00:1 is a loopback address$/],
  ])('%s is refused without a connection unless private targets are allowed', async (_what, url, status) => {
    const before = requests;
    const response = await sendHook(request(url(), { allowPrivateTargets: false }));
    expect(response).toMatchObject({ ok: false, statusCode: 0, headers: null, body: null });
    expect(response.status).toMatch(status);
    expect(requests).toBe(before);
  });

  it('with private targets allowed, the same name is delivered to', async () => {
    expect(await sendHook(request(`http://localhost:${port}/`))).toMatchObject({ ok: true, status: 'OK', statusCode: 204 });
  });
});

describe('what an attempt does with the answer', () => {
  it('a redirect is not followed: a failed attempt with its status', async () => {
    const before = requests;
    expect(await sendHook(request(`http://127.0.0.1:${port}/redirect`))).toMatchObject({ ok: false, status: 'Invalid HTTP Response: 302', statusCode: 302 });
    expect(requests).toBe(before + 1);
  });

  it('a long answer is read up to the bound and cut there', async () => {
    const response = await sendHook(request(`http://127.0.0.1:${port}/big`));
    expect(response).toMatchObject({ ok: true, statusCode: 200 });
    expect(response.body).toHaveLength(MAX_RESPONSE_BYTES);
  });

  it('no answer before the deadline: timed out', async () => {
    expect(await sendHook(request(`http://127.0.0.1:${port}/slow`, { timeoutMs: 200 }))).toMatchObject({ ok: false, status: 'timed out', statusCode: 0 });
  });

  it('nobody listening: connection refused', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const freePort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await sendHook(request(`http://127.0.0.1:${freePort}/`))).toMatchObject({ ok: false, status: 'connection refused', statusCode: 0 });
  });
});

describe('retries', () => {
  it('wait twice as long after each failure, with jitter between half and all of it, up to 10 minutes', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, () => 1))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect([1, 2, 3, 4].map((n) => backoffMs(n, () => 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect(backoffMs(40, () => 1)).toBe(600_000);
  });

  it('end in failed once 24 hours have passed since the delivery was queued, the last attempt at that moment', () => {
    const createdMs = Date.UTC(2026, 10, 27);
    expect(outcomeOf({ createdMs }, 1, { ok: true }, createdMs + 10)).toEqual({ state: 'delivered' });
    expect(outcomeOf({ createdMs }, 30, { ok: false }, createdMs + RETRY_WINDOW_MS - 1_000)).toEqual({ state: 'pending', nextAttemptAt: createdMs + RETRY_WINDOW_MS });
    expect(outcomeOf({ createdMs }, 31, { ok: false }, createdMs + RETRY_WINDOW_MS)).toEqual({ state: 'failed' });
  });
});
