import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CommanderError, type Command } from 'commander';
import { buildProgram } from '../../src/cli/program';
import { SETTINGS, SETTING_NAMES, type SettingName } from '../../src/config';
import { CLI, cleanEnv, serveBuilt } from './built-cli';

// The built CLI as users run it: configuration comes from the environment and the flags
// that mirror it, and a bad value stops it before it touches the database or listens.

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-config-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs the built CLI to its end; a refused configuration never gets as far as the database. */
function runCli(args: string[], env: Record<string, string>) {
  if (!fs.existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` before these tests');
  const database = path.join(tmp, `never-${Math.random().toString(36).slice(2)}.sqlite`);
  const run = spawnSync(process.execPath, [CLI, ...args, '--database', database], { encoding: 'utf8', timeout: 20_000, env: cleanEnv(env) });
  return { ...run, databaseCreated: fs.existsSync(database) };
}

/** A trusted-roots file whose second line is no trusted root (ATTESTATION_TRUSTED_ROOTS). */
const BAD_ROOTS = path.join(tmp, 'bad-roots.jsonl');
fs.writeFileSync(BAD_ROOTS, '\n{"mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1", "tlogs": [\n');

/** `error: invalid configuration (n problems):` and one indented line per problem. */
const refusal = (...problems: string[]) =>
  `error: invalid configuration (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  ${p}`).join('\n')}`;

const BAD: Array<[SettingName, string, string]> = [
  ['DATABASE_URL', 'mysql://db/orgsec', 'must be a SQLite file path, or a postgres:// (postgresql://) URL'],
  ['DATABASE_URL', 'postgres://[bad', 'must be a SQLite file path, or a postgres:// (postgresql://) URL'],
  ['PORT', 'abc', 'must be an integer from 0 to 65535'],
  ['PORT', '65536', 'must be an integer from 0 to 65535'],
  ['PORT', '1e3', 'must be an integer from 0 to 65535'],
  ['HOST', 'bad host', 'must be an IP address or a host name (e.g. 127.0.0.1, 0.0.0.0, ::, localhost)'],
  ['LOG_LEVEL', 'loud', 'must be one of fatal, error, warn, info, debug, trace, silent'],
  ['TRUST_PROXY', 'yes', 'must be true or false'],
  ['GRAPHQL_EXPLORER', 'maybe', 'must be on or off'],
  ['CORS_ORIGINS', 'https://dash.example.com/app', 'must be *, off, or a comma-separated list of origins such as https://dash.example.com,http://localhost:5173'],
  ['DATABASE_POOL_MAX', '0', 'must be an integer from 1 to 1000'],
  ['SQLITE_FAST_PATHS', 'yes', 'must be on or off'],
  ['RESPONSE_CACHE_MB', '4097', 'must be an integer from 0 to 4096'],
  ['HEAP_MB', '31', 'must be auto or an integer from 32 to 65536'],
  ['CACHE_MB', '0', 'must be an integer from 1 to 16384'],
  ['PUBLIC_URL', 'orgsec.example.com', 'must be an http:// or https:// URL without query or fragment, such as https://orgsec.example.com/api'],
  ['PUBLIC_URL', 'https://orgsec.example.com/?x=1', 'must be an http:// or https:// URL without query or fragment, such as https://orgsec.example.com/api'],
  ['WEBHOOK_TIMEOUT_MS', '60000', 'must be an integer from 100 to 10000'],
  ['WEBHOOK_ALLOW_PRIVATE_TARGETS', 'true', 'must be on or off'],
  ['OIDC_ISSUER', 'https://orgsec.example.com/oidc/', 'must be an http:// or https:// URL without query, fragment or trailing slash, e.g. https://orgsec.example.com/oidc'],
  ['OIDC_ISSUER', 'ftp://orgsec.example.com/oidc', 'must be an http:// or https:// URL without query, fragment or trailing slash, e.g. https://orgsec.example.com/oidc'],
  ['ATTESTATION_VERIFICATION', 'strict', 'must be signature or full'],
  ['ATTESTATION_TRUSTED_ROOTS', BAD_ROOTS, 'line 2 is not a trusted root: not JSON'],
  ['SNAPSHOT_WORKER_SHARE', '101', 'must be an integer from 0 to 100'],
  ['SNAPSHOT_QUEUE_MAX_DELAY', '0', 'must be an integer from 1 to 3600'],
  ['AUDIT_LOG_RETENTION_DAYS', '0', 'must be an integer from 1 to 36500'],
  ['SUBSCRIPTION_POLL_MS', '5', 'must be an integer from 10 to 60000'],
  ['SUBSCRIPTION_LISTEN', 'yes', 'must be on or off'],
  ['RATE_LIMITS', 'false', 'must be on or off'],
  ['RATE_LIMIT_REQUESTS_PER_HOUR', '-5', 'must be an integer from 1 to 1000000000'],
  ['RATE_LIMIT_ANONYMOUS_REQUESTS_PER_HOUR', '0x10', 'must be an integer from 1 to 1000000000'],
  ['RATE_LIMIT_WRITES_PER_MINUTE', '2.5', 'must be an integer from 1 to 1000000000'],
  ['RATE_LIMIT_SPAMMED_STATUS', '500', 'must be 422 or 429'],
];

describe('a bad configuration value', () => {
  it('is tested here for every setting', () => {
    expect(new Set(BAD.map(([name]) => name))).toEqual(new Set(SETTING_NAMES));
  });

  for (const [name, value, allowed] of BAD) {
    it(`${name}=${value} stops serve with exit 1 and one line naming the variable, the value and what is allowed, before touching the database`, () => {
      // DATABASE_URL is given as --database below, so its bad values go through the flag.
      const run = name === 'DATABASE_URL'
        ? spawnSync(process.execPath, [CLI, 'serve', '--port', '0', '--database', value], { encoding: 'utf8', timeout: 20_000, env: cleanEnv({}) })
        : runCli(['serve', '--port', name === 'PORT' ? value : '0'], { [name]: value });
      const source = name === 'DATABASE_URL' ? '--database' : name === 'PORT' ? '--port' : name;
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr.trimEnd()).toBe(refusal(`${source}=${JSON.stringify(value)}: ${allowed}`));
      if ('databaseCreated' in run) expect(run.databaseCreated).toBe(false);
    });
  }

  it('in the environment (PORT, DATABASE_URL) is refused the same way as through the flag', () => {
    const run = spawnSync(process.execPath, [CLI, 'serve'], { encoding: 'utf8', timeout: 20_000, env: cleanEnv({ PORT: 'abc', DATABASE_URL: 'mysql://db' }) });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd()).toBe(refusal(
      'DATABASE_URL="mysql://db": must be a SQLite file path, or a postgres:// (postgresql://) URL',
      'PORT="abc": must be an integer from 0 to 65535',
    ));
  });

  it('several at once are all reported together, flags and variables alike, in one run', () => {
    const run = runCli(['serve', '--port', '70000', '--log-level', 'chatty'], {
      HOST: '-x', TRUST_PROXY: '1', RATE_LIMITS: 'of', RATE_LIMIT_SPAMMED_STATUS: '403', LOG_LEVEL: 'info',
    });
    expect(run.status).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd()).toBe(refusal(
      '--port="70000": must be an integer from 0 to 65535',
      'HOST="-x": must be an IP address or a host name (e.g. 127.0.0.1, 0.0.0.0, ::, localhost)',
      '--log-level="chatty": must be one of fatal, error, warn, info, debug, trace, silent',
      'TRUST_PROXY="1": must be true or false',
      'RATE_LIMITS="of": must be on or off',
      'RATE_LIMIT_SPAMMED_STATUS="403": must be 422 or 429',
    ));
    expect(run.databaseCreated).toBe(false);
  });

  it('--trust-proxy alone means true; with a value, the value is checked like TRUST_PROXY', () => {
    const alone = runCli(['serve', '--trust-proxy', '--port', 'x'], {});
    expect(alone.stderr.trimEnd()).toBe(refusal('--port="x": must be an integer from 0 to 65535'));
    const valued = runCli(['serve', '--trust-proxy', 'maybe', '--port', '0'], { TRUST_PROXY: 'true' });
    expect(valued.status).toBe(1);
    expect(valued.stderr.trimEnd()).toBe(refusal('--trust-proxy="maybe": must be true or false'));
  });

  it('a mistyped RATE_LIMIT_ or ORGSEC_ variable is refused, pointing at the setting it resembles', () => {
    const run = runCli(['serve', '--port', '0'], { RATE_LIMIT_WRITE_PER_MINUTE: '3', ORGSEC_PORT: '80' });
    expect(run.status).toBe(1);
    expect(run.stderr.trimEnd()).toBe(refusal(
      'ORGSEC_PORT="80": not a setting orgsec knows (did you mean PORT?)',
      'RATE_LIMIT_WRITE_PER_MINUTE="3": not a setting orgsec knows (did you mean RATE_LIMIT_WRITES_PER_MINUTE?)',
    ));
  });

  it('leaves ORGSEC_TOKEN alone: the variable the README\'s clients read their token from, exported in the same shell', () => {
    const run = runCli(['migrate'], { ORGSEC_TOKEN: 'svc_demo_alice_owner' });
    expect([run.status, run.stderr]).toEqual([0, '']);
  });

  it('also stops migrate, load and token create before they touch the database', () => {
    for (const args of [['migrate'], ['load', path.join(tmp, 'missing.json')], ['token', 'create', '--user', 'alice', '--scopes', 'read:org']]) {
      const run = runCli(args, { LOG_LEVEL: 'loud' });
      expect([args[0], run.status, run.stderr.trimEnd(), run.databaseCreated]).toEqual([
        args[0], 1, refusal('LOG_LEVEL="loud": must be one of fatal, error, warn, info, debug, trace, silent'), false,
      ]);
    }
  });
});

/** Starts the built `orgsec serve` on a fresh SQLite file. */
const serve = (args: string[], env: Record<string, string>) =>
  serveBuilt([...args, '--database', path.join(tmp, `serve-${Math.random().toString(36).slice(2)}.sqlite`)], env);

describe('flags mirror the environment', () => {
  it('a flag overrides its variable (even a bad one), and a variable without a flag applies', async () => {
    const server = await serve(
      ['--port', '0', '--host', '127.0.0.1', '--rate-limits', 'on', '--rate-limit-anonymous-requests-per-hour', '2', '--graphql-explorer', 'off'],
      { PORT: 'not-a-port', HOST: 'bad host', RATE_LIMITS: 'off', RATE_LIMIT_ANONYMOUS_REQUESTS_PER_HOUR: '1000', LOG_LEVEL: 'silent', GRAPHQL_EXPLORER: 'on' },
    );
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${server.url}/orgs/acme-corp/organization-roles`);
        expect(res.headers.get('x-ratelimit-limit')).toBe('2');
        statuses.push(res.status);
      }
      expect(statuses.map((status) => status === 429)).toEqual([false, false, true]);
    } finally {
      await server.stop();
    }
  });

  it('without flags the variables apply', async () => {
    const server = await serve([], { PORT: '0', RATE_LIMIT_ANONYMOUS_REQUESTS_PER_HOUR: '7', LOG_LEVEL: 'silent' });
    try {
      const res = await fetch(`${server.url}/orgs/acme-corp/organization-roles`);
      expect(res.headers.get('x-ratelimit-limit')).toBe('7');
    } finally {
      await server.stop();
    }
  });
});

/** Every command of the program, with the words that run it. */
function commandsOf(command: Command, words: string[] = []): Array<[string[], Command]> {
  return [[words, command], ...command.commands.flatMap((sub) => commandsOf(sub, [...words, sub.name()]))];
}

/** What `orgsec ...words --help` prints, in-process. */
async function helpOf(words: string[]): Promise<string> {
  const out: string[] = [];
  const program = buildProgram({ out: (line) => out.push(line), err: (line) => out.push(line) }).exitOverride();
  for (const [, c] of commandsOf(program)) c.exitOverride();
  const error = await program.parseAsync(['node', 'orgsec', ...words, '--help']).then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(CommanderError);
  expect((error as CommanderError).code).toBe('commander.helpDisplayed');
  return out.join('\n');
}

const squash = (text: string) => text.replace(/\s+/g, ' ');

describe('help', () => {
  const program = buildProgram({ out: () => undefined, err: () => undefined });
  const commands = commandsOf(program);

  it('covers the commands of the interface', () => {
    expect(commands.map(([words]) => words.join(' '))).toEqual(expect.arrayContaining(['', 'serve', 'migrate', 'load', 'token', 'token create']));
  });

  for (const [words, command] of commands) {
    it(`of "orgsec ${words.join(' ')}" lists every option the command defines with its description, default and variable`, async () => {
      const help = squash(await helpOf(words));
      for (const option of command.options) {
        expect(help).toContain(option.flags);
        expect(help).toContain(squash(option.description));
        if (option.defaultValue !== undefined) expect(help).toContain(`default: ${JSON.stringify(option.defaultValue)}`);
        const mirrored = SETTING_NAMES.find((name) => SETTINGS[name].flag === option.flags);
        if (mirrored) expect(help).toContain(`(env: ${mirrored}, default: ${SETTINGS[mirrored].default})`);
      }
      for (const sub of command.commands) expect(help).toContain(sub.name());
    });
  }

  it('of serve has a flag for every variable, and orgsec --help names every variable with its flag', async () => {
    const serveOptions = program.commands.find((c) => c.name() === 'serve')!.options.map((o) => o.flags);
    expect(serveOptions).toEqual(expect.arrayContaining(SETTING_NAMES.map((name) => SETTINGS[name].flag)));
    const help = await helpOf([]);
    for (const name of SETTING_NAMES) expect(help).toMatch(new RegExp(`^ {2}${name} +${SETTINGS[name].flag.split(' ')[0]}, default: `, 'm'));
  });

  it('of the built CLI prints to stdout and exits 0', () => {
    const run = spawnSync(process.execPath, [CLI, 'serve', '--help'], { encoding: 'utf8', timeout: 20_000, env: cleanEnv({}) });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('Usage: orgsec serve [options]');
    expect(run.stderr).toBe('');
  });

  it('read by a reader that stops early (`orgsec --help | head -1`) ends with exit 0 and no stack', async () => {
    const child = spawn(process.execPath, [CLI, '--help'], { env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader is gone before the help is written: the write fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect([code, stderr]).toEqual([0, '']);
  });
});

describe('the README Configuration table', () => {
  it('lists every setting with its flag and default, and nothing else', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Configuration'), readme.indexOf('\n## ', readme.indexOf('## Configuration') + 1));
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| `(--[a-z-]+)` \| `([^`]*)` \|/gm)].map(([, name, flag, def]) => [name, flag, def]);
    expect(rows).toEqual(SETTING_NAMES.map((name) => [name, SETTINGS[name].flag.split(' ')[0], SETTINGS[name].default]));
  });
});
