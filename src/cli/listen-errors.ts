// Why `orgsec serve` could not listen, in one line with what to do instead of Node's stack.

const SUGGESTED_PORT = 3001;

/** A one-line explanation for a failed listen, or undefined when the error is not one we know. */
export function explainListenError(error: unknown, host: string, port: number): string | undefined {
  const { code, syscall } = (error ?? {}) as NodeJS.ErrnoException;
  // Only the listen itself: an EACCES from opening the database file is not about the port.
  if (syscall !== 'listen' && syscall !== 'getaddrinfo') return undefined;
  const address = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  const otherPort = port === SUGGESTED_PORT ? SUGGESTED_PORT + 1 : SUGGESTED_PORT;
  switch (code) {
    case 'EADDRINUSE':
      return `${address} is already in use by another process: serve on another port with --port ${otherPort} (or PORT=${otherPort}), or stop the other process.`;
    case 'EACCES':
      return `not allowed to listen on ${address}: ports below 1024 need administrator rights; use a port from 1024 up, e.g. --port 3000 (or PORT=3000).`;
    case 'EADDRNOTAVAIL':
      return `cannot listen on ${address}: this machine has no such address; use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface), or set HOST.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `cannot listen on ${address}: the host name "${host}" does not resolve; use --host 127.0.0.1 or --host 0.0.0.0, or set HOST.`;
    default:
      return undefined;
  }
}
