import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };

/** The service's logger: JSON lines to stdout (or `destination`, which tests read). */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = { level, base: { service: 'orgsec' }, redact: ['req.headers.authorization'] };
  return destination ? pino(options, destination) : pino(options);
}
