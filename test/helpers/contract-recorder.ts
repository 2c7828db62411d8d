import type { IncomingMessage, ServerResponse } from 'node:http';
import { buildOpenApiDocument } from '../../src/openapi/document';
import { OpenApiValidator } from './openapi-validator';

// Every answer an API test receives is checked against the service's own /openapi.json:
// a REST response that does not match its description fails the test file (issue 9).

let shared: OpenApiValidator | undefined;
const contract = () => (shared ??= new OpenApiValidator(buildOpenApiDocument()));

export interface ContractRecorder {
  /** Wraps a request listener so each answer it gives is checked once finished. */
  wrap(listener: (req: IncomingMessage, res: ServerResponse) => void): (req: IncomingMessage, res: ServerResponse) => void;
  /** The answers that did not match, one line each. */
  violations: string[];
}

function documentedOperation(method: string, url: string): boolean {
  try {
    contract().operationFor(method, url);
    return true;
  } catch {
    return false; // /graphql, /metrics, unknown paths: not REST operations
  }
}

/** The original's `dependabot` segment is an alias: its answers are held to the operation it names. */
const asDocumented = (url: string) => url.replace(/^((?:\/api\/v3)?\/(?:enterprises|orgs|repos\/[^/?]+)\/[^/?]+)\/dependabot\/alerts(?=[/?]|$)/, '$1/dependency-bot/alerts');

export function contractRecorder(): ContractRecorder {
  const violations: string[] = [];
  const check = (req: IncomingMessage, res: ServerResponse, chunks: Buffer[]) => {
    const method = req.method ?? 'GET';
    const url = asDocumented(req.url ?? '/');
    const shown = url.length > 160 ? `${url.slice(0, 160)}…` : url;
    if (!documentedOperation(method, url)) return;
    const text = Buffer.concat(chunks).toString('utf8');
    let body: unknown;
    try {
      // An NDJSON answer (catalogue `ndjson`) is held to the JSON answer's schema: its lines as the array.
      const isNdjson = String(res.getHeader('content-type') ?? '').startsWith('application/x-ndjson');
      body = text === '' ? undefined : isNdjson ? text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line)) : JSON.parse(text);
    } catch {
      violations.push(`${method} ${shown} answered ${res.statusCode} with a body that is not JSON`);
      return;
    }
    try {
      contract().check({ method, path: url, status: res.statusCode, body, text, contentType: String(res.getHeader('content-type') ?? '') });
    } catch (error) {
      violations.push(`${method} ${shown}: ${(error as Error).message}`);
    }
  };
  return {
    violations,
    wrap: (listener) => (req, res) => {
      const chunks: Buffer[] = [];
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
      const keep = (chunk: unknown) => {
        if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
        else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => (keep(chunk), write(chunk, ...rest))) as typeof res.write;
      res.end = ((chunk?: unknown, ...rest: unknown[]) => (typeof chunk !== 'function' && keep(chunk), end(chunk, ...rest))) as typeof res.end;
      res.once('finish', () => check(req, res, chunks));
      listener(req, res);
    },
  };
}
