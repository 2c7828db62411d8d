import { fillPath, sampleUrl, type Operation } from './operations';
import { bearer, type TestApp } from './test-app';

export interface SendOverrides {
  /** Path parameters replacing the sample's (the query string stays the sample's). */
  params?: Record<string, string>;
  /** A body replacing the sample's (undefined: none). */
  body?: unknown;
  headers?: Record<string, string>;
}

/** One of the 27 operations, as its demo-world sample with what the test overrides. */
export function sendOperation(t: TestApp, operation: Operation, token: string | null, overrides: SendOverrides = {}) {
  const url = overrides.params
    ? fillPath(operation.path, { ...operation.sample.params, ...overrides.params }) + sampleUrl(operation).replace(/^[^?]*/, '')
    : sampleUrl(operation);
  let req = t.http()[operation.method.toLowerCase() as 'get'](url).set(overrides.headers ?? {});
  if (token) req = req.set(bearer(token));
  const body = 'body' in overrides ? overrides.body : operation.sample.body;
  return body === undefined ? req : req.send(body as object);
}

/** The sample with an owner (organization, repository owner or enterprise) that does not exist. */
export function sendToMissingOwner(t: TestApp, operation: Operation, token: string) {
  const owner = ['org', 'owner', 'enterprise'].find((name) => name in operation.sample.params)!;
  return sendOperation(t, operation, token, { params: { [owner]: 'no-such-owner-anywhere' } });
}
