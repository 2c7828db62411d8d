import { z } from 'zod';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const envSchema = z.object({
  DATABASE_URL: z.string().min(1).default('data/orgsec.sqlite'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  GRAPHQL_EXPLORER: z.enum(['on', 'off']).default('on'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
});

export interface Config {
  databaseUrl: string;
  port: number;
  host: string;
  logLevel: (typeof LOG_LEVELS)[number];
  rateLimits: boolean;
  trustProxy: boolean;
  graphqlExplorer: boolean;
  /** PostgreSQL connections per instance (SQLite always uses one). */
  databasePoolMax: number;
}

export class ConfigError extends Error {}

/** Reads the environment once, with a clear message for every bad value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== '')));
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    databaseUrl: e.DATABASE_URL,
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    rateLimits: e.RATE_LIMITS === 'on',
    trustProxy: e.TRUST_PROXY === 'true',
    graphqlExplorer: e.GRAPHQL_EXPLORER === 'on',
    databasePoolMax: e.DATABASE_POOL_MAX,
    ...overrides,
  };
}
