// Real HTTP to one server process. Bodies carry the server's own origin in URLs, and each
// restart listens on a new port, so the origin is replaced by a fixed one: a body seen
// before a crash compares equal to the same resource served after it.

export const ORIGIN = 'http://orgsec.test';

export interface ApiAnswer {
  status: number;
  body: any;
}

export interface ApiClient {
  /** Throws when no whole answer arrives (the server died first): the write is unacknowledged. */
  send(method: string, path: string, body?: unknown): Promise<ApiAnswer>;
}

export function apiClient(baseUrl: string, token: string): ApiClient {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
  return {
    async send(method, path, body) {
      const res = await fetch(`${baseUrl}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
      const text = (await res.text()).split(baseUrl).join(ORIGIN);
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
  };
}
