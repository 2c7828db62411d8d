import net from 'node:net';
import type { CorsOrigins } from './http/cors';
import { AttestationTrust } from './modules/attestations/attestation-trust';
import { readTrustedRootsFile, type TrustRoot } from './modules/attestations/trusted-roots';
import type { SnapshotQueueSettings } from './modules/dependency-graph/snapshot-queue';
import type { LiveEventSettings } from './modules/live-events/event-feed';
import { DEFAULT_RATE_LIMIT_POLICY, type RateLimitPolicy } from './rate-limits/rate-limit.policy';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** How one raw value (from the environment or a flag) is checked and read. */
interface Rule<T> {
  /** What is allowed, as the error message says it. */
  allowed: string;
  /** The value, or undefined when the raw text is not allowed. */
  read(raw: string): T | undefined;
  /** Why a value was not allowed, when saying what is allowed is not enough (e.g. which line of a file). */
  why?(raw: string): string | undefined;
}

/** Decimal digits only: `1e3`, `0x10`, `+5` and ` 5` are refused rather than coerced. */
const integer = (min: number, max: number): Rule<number> => ({
  allowed: `an integer from ${min} to ${max}`,
  read: (raw) => (/^\d{1,10}$/.test(raw) && Number(raw) >= min && Number(raw) <= max ? Number(raw) : undefined),
});

/** `auto` (the value is then derived from other settings, in loadConfig), or a value of `rule`. */
const autoOr = <T>(rule: Rule<T>): Rule<T | 'auto'> => ({
  allowed: `auto or ${rule.allowed}`,
  read: (raw) => (raw === 'auto' ? 'auto' : rule.read(raw)),
});

const oneOf = <T extends string>(...values: readonly T[]): Rule<T> => ({
  allowed: values.length === 2 ? `${values[0]} or ${values[1]}` : `one of ${values.join(', ')}`,
  read: (raw) => values.find((v) => v === raw),
});

const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const host: Rule<string> = {
  allowed: 'an IP address or a host name (e.g. 127.0.0.1, 0.0.0.0, ::, localhost)',
  read: (raw) => (net.isIP(raw) !== 0 || HOST_NAME.test(raw) ? raw : undefined),
};

/** A postgres:// URL must parse; any other scheme:// would silently become a SQLite file name. */
const databaseUrl: Rule<string> = {
  allowed: 'a SQLite file path, or a postgres:// (postgresql://) URL',
  read: (raw) => {
    if (raw.trim() === '' || raw.includes('\0')) return undefined;
    if (/^postgres(ql)?:\/\//.test(raw)) return URL.canParse(raw) ? raw : undefined;
    return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(raw) ? undefined : raw;
  },
};

/** `*`, `off`, or origins as a browser sends them (scheme://host[:port], no path), comma-separated. */
const corsOrigins: Rule<CorsOrigins> = {
  allowed: '*, off, or a comma-separated list of origins such as https://dash.example.com,http://localhost:5173',
  read: (raw) => {
    if (raw === '*' || raw === 'off') return raw;
    const origins = raw.split(',').map((origin) => origin.trim());
    const isOrigin = (origin: string) => URL.canParse(origin) && new URL(origin).origin === origin && /^https?:$/.test(new URL(origin).protocol);
    return origins.every(isOrigin) ? origins : undefined;
  },
};

/** The OIDC_ISSUER default: the URL the server listens at, plus /oidc (resolved once listening). */
export const DERIVED_OIDC_ISSUER = 'http://<HOST>:<PORT>/oidc';

/** An http(s) URL without credentials, query, fragment or trailing slash: what relying parties compare `iss` with. */
const oidcIssuer: Rule<string> = {
  allowed: 'an http:// or https:// URL without query, fragment or trailing slash, e.g. https://orgsec.example.com/oidc',
  read: (raw) => {
    if (raw === DERIVED_OIDC_ISSUER) return raw;
    if (!URL.canParse(raw) || raw.endsWith('/')) return undefined;
    const url = new URL(raw);
    const clean = /^https?:$/.test(url.protocol) && url.search === '' && url.hash === '' && url.username === '' && url.password === '' && !raw.includes('?') && !raw.includes('#');
    return clean && url.href.replace(/\/$/, '') === raw ? raw : undefined;
  },
};

/** An http(s) URL with no query or fragment, kept without a trailing slash; empty: derived from HOST and PORT. */
const publicUrl: Rule<string> = {
  allowed: 'an http:// or https:// URL without query or fragment, such as https://orgsec.example.com/api',
  read: (raw) => {
    if (raw === '') return '';
    if (!URL.canParse(raw)) return undefined;
    const url = new URL(raw);
    if (!/^https?:$/.test(url.protocol) || url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '') return undefined;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  },
};

/** A file of trusted roots, one JSON line each; empty: none. A line that is no root is named. */
const trustedRootsFile: Rule<TrustRoot[]> = {
  allowed: 'a file of trusted roots, one JSON line each (as `gh attestation trusted-root` prints them)',
  read: (raw) => {
    if (raw === '') return [];
    const file = readTrustedRootsFile(raw);
    return 'roots' in file ? file.roots : undefined;
  },
  why: (raw) => {
    const file = readTrustedRootsFile(raw);
    return 'problem' in file ? file.problem : undefined;
  },
};

/**
 * The heap an instance needs besides CACHE_MB: modules and their data (about 25 MB), the GraphQL
 * schema once built (about 20 MB), requests in flight, and room for the collector to work in.
 * The response cache (RESPONSE_CACHE_MB) holds buffers, which live outside V8's heap.
 */
export const HEAP_BASE_MB = 96;

// Rate limits above a billion per window are no limit at all; RATE_LIMITS=off says that.
const MAX_LIMIT = 1_000_000_000;

/**
 * Every setting orgsec reads: the environment variable, the CLI flag that mirrors it,
 * the default and what is allowed. The README "Configuration" table, the flags of
 * `orgsec serve` and every help text come from here.
 */
export const SETTINGS = {
  DATABASE_URL: { flag: '--database <url>', default: 'data/orgsec.sqlite', rule: databaseUrl, description: 'SQLite file path or postgres:// URL' },
  PORT: { flag: '--port <n>', default: '3000', rule: integer(0, 65535), description: 'port to listen on (0: any free port)' },
  HOST: { flag: '--host <host>', default: '127.0.0.1', rule: host, description: 'interface to listen on (0.0.0.0 to accept remote clients)' },
  LOG_LEVEL: { flag: '--log-level <level>', default: 'info', rule: oneOf(...LOG_LEVELS), description: `JSON log level on stdout: ${LOG_LEVELS.join(', ')}` },
  TRUST_PROXY: { flag: '--trust-proxy [bool]', default: 'false', rule: oneOf('true', 'false'), description: 'true behind a reverse proxy: URLs in bodies follow X-Forwarded-Proto/-Host (the flag alone means true)' },
  GRAPHQL_EXPLORER: { flag: '--graphql-explorer <on|off>', default: 'on', rule: oneOf('on', 'off'), description: 'off turns off GraphQL introspection, the Apollo Sandbox landing page and /graphiql' },
  CORS_ORIGINS: { flag: '--cors-origins <origins>', default: '*', rule: corsOrigins, description: 'browser origins that may call the API: * (any), a comma-separated list, or off (no CORS headers)' },
  DATABASE_POOL_MAX: { flag: '--database-pool-max <n>', default: '10', rule: integer(1, 1000), description: 'PostgreSQL connections per instance for requests (it has 3 more: 1 reads the data versions, 2 deliver webhooks)' },
  SQLITE_FAST_PATHS: { flag: '--sqlite-fast-paths <on|off>', default: 'on', rule: oneOf('on', 'off'), description: 'on: SQLite keeps statements prepared, through knex internals (faster; checked against each knex upgrade by the tests); off: knex prepares each statement again' },
  CACHE_MB: { flag: '--cache-mb <n>', default: '64', rule: integer(1, 16384), description: 'megabytes of rows, advisories and alert JSON each instance keeps in memory caches, shared out among them' },
  RESPONSE_CACHE_MB: { flag: '--response-cache-mb <n>', default: '32', rule: integer(0, 4096), description: 'megabytes of finished read answers each instance keeps for repeated requests (0: none)' },
  HEAP_MB: { flag: '--heap-mb <n>', default: 'auto', rule: autoOr(integer(32, 65536)), description: `megabytes of JavaScript heap (V8's old generation) \`orgsec serve\` may use before it stops with an out-of-memory error; auto: ${HEAP_BASE_MB} + CACHE_MB` },
  PUBLIC_URL: { flag: '--public-url <url>', default: '', rule: publicUrl, description: 'the API base URL clients reach, put before the URLs of webhook payloads (empty: http://HOST:PORT)' },
  WEBHOOK_TIMEOUT_MS: { flag: '--webhook-timeout-ms <n>', default: '10000', rule: integer(100, 10000), description: 'milliseconds a webhook receiver has to answer before the attempt counts as timed out' },
  WEBHOOK_ALLOW_PRIVATE_TARGETS: { flag: '--webhook-allow-private-targets <on|off>', default: 'off', rule: oneOf('on', 'off'), description: 'on lets hooks send to loopback, private and link-local addresses (tests and local receivers)' },
  OIDC_ISSUER: { flag: '--oidc-issuer <url>', default: DERIVED_OIDC_ISSUER, rule: oidcIssuer, description: 'the iss of the OIDC tokens orgsec mints; its path serves /.well-known/openid-configuration and /.well-known/jwks' },
  ATTESTATION_VERIFICATION: { flag: '--attestation-verification <mode>', default: 'signature', rule: oneOf('signature', 'full'), description: 'signature: #21 checks a bundle\'s structure and signature; full: also its certificate chain, log entry and timestamps against the trusted roots (422 otherwise)' },
  ATTESTATION_TRUSTED_ROOTS: { flag: '--attestation-trusted-roots <file>', default: '', rule: trustedRootsFile, description: 'trusted roots besides the bundled Sigstore public-good one: JSON lines, as `gh attestation trusted-root` prints them' },
  SNAPSHOT_WORKER_SHARE: { flag: '--snapshot-worker-share <percent>', default: '10', rule: integer(0, 100), description: 'percent of an instance\'s time snapshots (their requests and the worker) may take while other requests are answered; a snapshot that arrives then is queued (0: none is, each is applied in its request)' },
  SNAPSHOT_QUEUE_MAX_DELAY: { flag: '--snapshot-queue-max-delay <seconds>', default: '5', rule: integer(1, 3600), description: 'seconds a queued snapshot may wait to be applied; one that would wait longer is refused with 503 and Retry-After' },
  SUBSCRIPTION_POLL_MS: { flag: '--subscription-poll-ms <n>', default: '250', rule: integer(10, 60000), description: 'milliseconds between an instance\'s reads of new events for its GraphQL subscribers, when nothing woke it sooner (its own writes and, on PostgreSQL, NOTIFY do)' },
  SUBSCRIPTION_LISTEN: { flag: '--subscription-listen <on|off>', default: 'on', rule: oneOf('on', 'off'), description: 'PostgreSQL: LISTEN for other instances\' events (off behind a pooler that cannot LISTEN, such as PgBouncer in transaction mode: subscribers then wait for the next poll)' },
  AUDIT_LOG_RETENTION_DAYS: { flag: '--audit-log-retention-days <n>', default: '180', rule: integer(1, 36500), description: 'days the audit log keeps a record; older ones are deleted by every instance, hourly' },
  RATE_LIMITS: { flag: '--rate-limits <on|off>', default: 'on', rule: oneOf('on', 'off'), description: 'off turns every rate limit off (benchmarks, bulk loads)' },
  RATE_LIMIT_REQUESTS_PER_HOUR: { flag: '--rate-limit-requests-per-hour <n>', default: String(DEFAULT_RATE_LIMIT_POLICY.authenticatedLimit), rule: integer(1, MAX_LIMIT), description: 'requests per hour for each user (all their tokens together) or app installation' },
  RATE_LIMIT_ANONYMOUS_REQUESTS_PER_HOUR: { flag: '--rate-limit-anonymous-requests-per-hour <n>', default: String(DEFAULT_RATE_LIMIT_POLICY.anonymousLimit), rule: integer(1, MAX_LIMIT), description: 'requests per hour for each client address without valid credentials' },
  RATE_LIMIT_WRITES_PER_MINUTE: { flag: '--rate-limit-writes-per-minute <n>', default: String(DEFAULT_RATE_LIMIT_POLICY.writeLimit), rule: integer(1, MAX_LIMIT), description: 'writes per minute per caller before the "spammed" answer' },
  RATE_LIMIT_SPAMMED_STATUS: { flag: '--rate-limit-spammed-status <status>', default: String(DEFAULT_RATE_LIMIT_POLICY.spammedStatus), rule: oneOf('422', '429'), description: 'status of the "spammed" answer: 422 (as the original answers) or 429 (which Octokit retries)' },
} as const satisfies Record<string, { flag: string; default: string; rule: Rule<unknown>; description: string }>;

export type SettingName = keyof typeof SETTINGS;
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

type Values = { [K in SettingName]: NonNullable<ReturnType<(typeof SETTINGS)[K]['rule']['read']>> };

/** The long flag of a setting, e.g. `--port`. */
export const flagOf = (name: SettingName): string => SETTINGS[name].flag.split(' ')[0]!;

/** Edit distance, to point a mistyped variable at the setting it meant. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * Variables with our prefix that belong to orgsec's clients, not to the server: the README's
 * scripts read the caller's token from ORGSEC_TOKEN, and a shell that exported it still serves.
 */
const CLIENT_VARIABLES = new Set(['ORGSEC_TOKEN']);

/** Variables with our prefixes that are no setting: a typo there must not pass silently. */
function unknownVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((key) => (key.startsWith('ORGSEC_') || key.startsWith('RATE_LIMIT')) && !(key in SETTINGS) && !CLIENT_VARIABLES.has(key))
    .sort()
    .map((key) => {
      const bare = key.replace(/^ORGSEC_/, '');
      const [closest] = [...SETTING_NAMES].sort((a, b) => distance(bare, a) - distance(bare, b));
      const hint = closest && distance(bare, closest) <= 3 ? `did you mean ${closest}?` : `the settings are ${SETTING_NAMES.join(', ')}`;
      return `${key}=${JSON.stringify(env[key])}: not a setting orgsec knows (${hint})`;
    });
}

export interface Config {
  databaseUrl: string;
  port: number;
  host: string;
  logLevel: LogLevel;
  /** The limits in force, or false when RATE_LIMITS=off (benchmarks, bulk test runs). */
  rateLimits: RateLimitPolicy | false;
  trustProxy: boolean;
  graphqlExplorer: boolean;
  /** Origins whose pages may read answers (CORS). */
  corsOrigins: CorsOrigins;
  /** PostgreSQL connections per instance (SQLite always uses one). */
  databasePoolMax: number;
  /** SQLite shortcuts through knex internals (src/database/sqlite-fast-paths.ts); off by default. */
  sqliteFastPaths: boolean;
  /** Bytes of finished read answers kept per instance (0: no response cache). */
  responseCacheBytes: number;
  cacheBytes: number;
  /** The old-generation heap `orgsec serve` runs with (src/cli/serve-thread.ts). */
  heapMb: number;
  /** When snapshots wait for the worker and are refused (src/modules/dependency-graph/snapshot-queue.ts). */
  snapshotQueue: SnapshotQueueSettings;
  /** The public API base for webhook payloads; empty: http://HOST:PORT as the server listens. */
  publicUrl: string;
  /** How long the audit log keeps a record (src/modules/audit-log/audit-retention.ts). */
  auditLogRetentionDays: number;
  /** How GraphQL subscribers learn of new events (SUBSCRIPTION_POLL_MS, SUBSCRIPTION_LISTEN). */
  liveEvents: LiveEventSettings;
  /** The deadline of one webhook delivery attempt. */
  webhookTimeoutMs: number;
  /** Hooks may send to loopback, private and link-local addresses (src/modules/webhooks/target-policy.ts). */
  webhookAllowPrivateTargets: boolean;
  /** The OIDC issuer URL; undefined: the listening URL plus /oidc (src/modules/oidc-tokens/issuer.ts). */
  oidcIssuer: string | undefined;
  /** ATTESTATION_VERIFICATION and the roots of ATTESTATION_TRUSTED_ROOTS with the bundled one (src/modules/attestations/attestation-trust.ts). */
  attestationTrust: AttestationTrust;
}

/** Every bad value at once, one line each naming where it came from, the value and what is allowed. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the configuration once: the environment, then the CLI flags that mirror it (a flag
 * wins over its variable). An empty variable counts as unset; an empty flag is a bad value.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: Partial<Record<SettingName, string>> = {}): Config {
  const problems = unknownVariables(env);
  const values: Partial<Record<SettingName, unknown>> = {};
  for (const name of SETTING_NAMES) {
    const setting = SETTINGS[name];
    const fromFlag = flags[name];
    const fromEnv = env[name];
    const [source, raw] = fromFlag !== undefined ? [flagOf(name), fromFlag] : fromEnv !== undefined && fromEnv !== '' ? [name, fromEnv] : [undefined, setting.default];
    const rule = setting.rule as Rule<unknown>;
    const value = rule.read(raw);
    if (value === undefined) problems.push(`${source}=${JSON.stringify(raw)}: ${rule.why?.(raw) ?? `must be ${rule.allowed}`}`);
    values[name] = value;
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const v = values as Values;
  return {
    databaseUrl: v.DATABASE_URL,
    port: v.PORT,
    host: v.HOST,
    logLevel: v.LOG_LEVEL,
    rateLimits: v.RATE_LIMITS === 'on' && {
      ...DEFAULT_RATE_LIMIT_POLICY,
      authenticatedLimit: v.RATE_LIMIT_REQUESTS_PER_HOUR,
      anonymousLimit: v.RATE_LIMIT_ANONYMOUS_REQUESTS_PER_HOUR,
      writeLimit: v.RATE_LIMIT_WRITES_PER_MINUTE,
      spammedStatus: v.RATE_LIMIT_SPAMMED_STATUS === '429' ? 429 : 422,
    },
    trustProxy: v.TRUST_PROXY === 'true',
    graphqlExplorer: v.GRAPHQL_EXPLORER === 'on',
    corsOrigins: v.CORS_ORIGINS,
    databasePoolMax: v.DATABASE_POOL_MAX,
    sqliteFastPaths: v.SQLITE_FAST_PATHS === 'on',
    responseCacheBytes: v.RESPONSE_CACHE_MB * 2 ** 20,
    cacheBytes: v.CACHE_MB * 2 ** 20,
    heapMb: v.HEAP_MB === 'auto' ? HEAP_BASE_MB + v.CACHE_MB : v.HEAP_MB,
    snapshotQueue: { workerShare: v.SNAPSHOT_WORKER_SHARE / 100, maxDelaySeconds: v.SNAPSHOT_QUEUE_MAX_DELAY },
    publicUrl: v.PUBLIC_URL,
    auditLogRetentionDays: v.AUDIT_LOG_RETENTION_DAYS,
    liveEvents: { pollMs: v.SUBSCRIPTION_POLL_MS, listen: v.SUBSCRIPTION_LISTEN === 'on' },
    webhookTimeoutMs: v.WEBHOOK_TIMEOUT_MS,
    webhookAllowPrivateTargets: v.WEBHOOK_ALLOW_PRIVATE_TARGETS === 'on',
    oidcIssuer: v.OIDC_ISSUER === DERIVED_OIDC_ISSUER ? undefined : v.OIDC_ISSUER,
    attestationTrust: new AttestationTrust(v.ATTESTATION_VERIFICATION, v.ATTESTATION_TRUSTED_ROOTS),
  };
}
