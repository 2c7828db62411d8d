import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { forbiddenAddressReason } from '../webhooks/target-policy';

// One delivery attempt on the wire (interfaces.md Part 2 "Webhooks"). The host is resolved
// here and EVERY address it resolves to is checked against the target policy; the connection
// is made to one of those checked addresses (the `lookup` the socket uses is this one), so a
// name cannot resolve to a public address for the check and a private one for the connection.
// Redirects are never followed (node:http does not), a 3xx is a failed attempt; the whole
// attempt has one deadline; at most MAX_RESPONSE_BYTES of the answer are read.

export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface HookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** insecure_ssl "1": the certificate is not verified. */
  insecureSsl: boolean;
  timeoutMs: number;
  allowPrivateTargets: boolean;
}

export interface HookResponse {
  /** 2xx. */
  ok: boolean;
  /** As the original shows it: "OK", "Invalid HTTP Response: 500", "timed out", "connection refused", … */
  status: string;
  /** 0 when no answer came. */
  statusCode: number;
  headers: Record<string, string> | null;
  /** At most MAX_RESPONSE_BYTES, cut there. */
  body: string | null;
  durationMs: number;
}

class ForbiddenAddressError extends Error {
  readonly code = 'EFORBIDDENADDRESS';
}

class DeadlineError extends Error {
  readonly code = 'ETIMEDOUT_DEADLINE';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup, then every address checked: the socket connects to what was checked. */
function checkedLookup(allowPrivateTargets: boolean) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (!allowPrivateTargets) {
        for (const { address } of addresses) {
          const reason = forbiddenAddressReason(address);
          if (reason !== null) return callback(new ForbiddenAddressError(`${hostname} resolves to ${address}, ${reason}`), []);
        }
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      callback(null, first.address, first.family);
    });
  };
}

/** The status line of an attempt that got no answer. */
function failureStatus(error: unknown): string {
  if (error instanceof DeadlineError) return 'timed out';
  if (error instanceof ForbiddenAddressError) return `refused: ${error.message}`;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'ECONNREFUSED': return 'connection refused';
    case 'ECONNRESET': case 'EPIPE': return 'connection reset';
    case 'ENOTFOUND': case 'EAI_AGAIN': case 'EAI_NODATA': return 'failed to resolve host';
    case 'ETIMEDOUT': case 'ENETUNREACH': case 'EHOSTUNREACH': return 'failed to connect to host';
    default:
      if (typeof code === 'string' && /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `TLS error: ${code}`;
      return `failed: ${typeof code === 'string' ? code : (error as Error).message}`.slice(0, 255);
  }
}

function headerRecord(headers: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (value === undefined ? [] : [[name, Array.isArray(value) ? value.join(', ') : value]])));
}

/** POSTs the body; never throws: every outcome is a HookResponse. `signal` aborts (the instance stops). */
export function sendHook(request: HookRequest, signal?: AbortSignal): Promise<HookResponse> {
  const started = performance.now();
  const done = (response: Omit<HookResponse, 'durationMs'>): HookResponse => ({ ...response, durationMs: performance.now() - started });
  return new Promise<HookResponse>((resolve) => {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return resolve(done({ ok: false, status: 'failed: invalid URL', statusCode: 0, headers: null, body: null }));
    }
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    // A literal address is connected to as written, without a lookup: checked here.
    const literalReason = net.isIP(host) !== 0 && !request.allowPrivateTargets ? forbiddenAddressReason(host) : null;
    if (literalReason !== null) {
      return resolve(done({ ok: false, status: `refused: ${host} is ${literalReason}`, statusCode: 0, headers: null, body: null }));
    }
    const client = url.protocol === 'https:' ? https : http;
    let answer: { statusCode: number; headers: Record<string, string>; chunks: Buffer[]; size: number } | undefined;
    let settled = false;
    const finish = (error?: unknown) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      if (answer === undefined) return resolve(done({ ok: false, status: failureStatus(error), statusCode: 0, headers: null, body: null }));
      const { statusCode } = answer;
      const ok = statusCode >= 200 && statusCode < 300;
      const body = Buffer.concat(answer.chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
      resolve(done({ ok, status: ok ? 'OK' : `Invalid HTTP Response: ${statusCode}`, statusCode, headers: answer.headers, body }));
    };
    const req = client.request(url, {
      method: 'POST',
      headers: { ...request.headers, 'Content-Length': String(Buffer.byteLength(request.body)), Connection: 'close' },
      lookup: checkedLookup(request.allowPrivateTargets) as unknown as net.LookupFunction,
      agent: false,
      rejectUnauthorized: !request.insecureSsl,
      ...(signal === undefined ? {} : { signal }),
    });
    const timer = setTimeout(() => finish(new DeadlineError('timed out')), request.timeoutMs);
    req.on('response', (res) => {
      answer = { statusCode: res.statusCode ?? 0, headers: headerRecord(res.headers), chunks: [], size: 0 };
      const current = answer;
      res.on('data', (chunk: Buffer) => {
        current.chunks.push(chunk);
        current.size += chunk.length;
        if (current.size >= MAX_RESPONSE_BYTES) finish(); // the rest is not read
      });
      res.on('end', () => finish());
      res.on('error', (error) => finish(error));
    });
    req.on('error', (error) => finish(error));
    req.end(request.body);
  });
}
