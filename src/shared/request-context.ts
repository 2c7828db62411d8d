import { AsyncLocalStorage } from 'node:async_hooks';

// The id of the request a piece of work runs for (its X-Request-Id), carried across awaits
// the way a log line's correlation id is: the audit log records it with every change the
// request makes, through REST, GraphQL and the engine work they start, without every
// service passing it along. Authorization never reads it.

const requests = new AsyncLocalStorage<{ requestId: string }>();

/** Runs `work` (and everything it awaits) as part of the request `requestId`. */
export function runInRequest<T>(requestId: string, work: () => T): T {
  return requests.run({ requestId }, work);
}

/** The id of the request this code runs for; null outside any (a command, a worker). */
export function currentRequestId(): string | null {
  return requests.getStore()?.requestId ?? null;
}
