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
  if (!['org', 'owner', 'enterprise'].some((name) => name in operation.sample.params)) return sendForError(t, operation, token);
  const owner = ['org', 'owner', 'enterprise'].find((name) => name in operation.sample.params)!;
  return sendOperation(t, operation, token, { params: { [owner]: 'no-such-owner-anywhere' } });
}

/**
 * An error answer of an operation on public reference data, which has no owner: a missing id
 * (404), or for the list, which names nothing, an invalid `per_page` (422). Both carry the
 * operation's documentation_url.
 */
export function sendForError(t: TestApp, operation: Operation, token: string) {
  const id = Object.keys(operation.sample.params)[0];
  if (id !== undefined) return sendOperation(t, operation, token, { params: { [id]: 'GHSA-none-none-none' } });
  return t.http()[operation.method.toLowerCase() as 'get'](`${fillPath(operation.path, {})}?per_page=0`).set(bearer(token));
}
