import { z } from 'zod';
import { DEFAULT_RATE_LIMIT_POLICY, type RateLimitPolicy } from './rate-limits/rate-limit.policy';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const envSchema = z.object({
  DATABASE_URL: z.string().min(1).default('data/orgsec.sqlite'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  RATE_LIMIT_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMIT_POLICY.authenticatedLimit),
  RATE_LIMIT_ANONYMOUS_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMIT_POLICY.anonymousLimit),
  RATE_LIMIT_WRITES_PER_MINUTE: z.coerce.number().int().min(1).default(DEFAULT_RATE_LIMIT_POLICY.writeLimit),
  RATE_LIMIT_SPAMMED_STATUS: z.enum(['422', '429']).default('422'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  GRAPHQL_EXPLORER: z.enum(['on', 'off']).default('on'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
});

export interface Config {
  databaseUrl: string;
  port: number;
  host: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /** The limits in force, or false when RATE_LIMITS=off (benchmarks, bulk test runs). */
  rateLimits: RateLimitPolicy | false;
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
    rateLimits: e.RATE_LIMITS === 'on' && {
      ...DEFAULT_RATE_LIMIT_POLICY,
      authenticatedLimit: e.RATE_LIMIT_REQUESTS_PER_HOUR,
      anonymousLimit: e.RATE_LIMIT_ANONYMOUS_REQUESTS_PER_HOUR,
      writeLimit: e.RATE_LIMIT_WRITES_PER_MINUTE,
      spammedStatus: e.RATE_LIMIT_SPAMMED_STATUS === '429' ? 429 : 422,
    },
    trustProxy: e.TRUST_PROXY === 'true',
    graphqlExplorer: e.GRAPHQL_EXPLORER === 'on',
    databasePoolMax: e.DATABASE_POOL_MAX,
    ...overrides,
  };
}
