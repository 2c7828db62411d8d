import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { explainListenError } from '../../src/cli/listen-errors';
import { describeToken } from '../../src/cli/token-abilities';
import { worldSchema } from '../../src/modules/world/world.schema';
import { CLI, cleanEnv, serveBuilt } from './built-cli';

// Issue 18, a newcomer's first minutes: what the built `orgsec serve --demo` (npm start)
// prints once it listens, and what it says when it cannot listen.

const ROOT = path.join(__dirname, '..', '..');
const DEMO = worldSchema.parse(JSON.parse(fs.readFileSync(path.join(ROOT, 'db', 'demo-world.json'), 'utf8')));

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-banner-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
beforeAll(() => {
  if (!fs.existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` before these tests');
});

const QUIET = { LOG_LEVEL: 'warn' };
const freshDatabase = () => path.join(tmp, `serve-${Math.random().toString(36).slice(2)}.sqlite`);

/** Starts the built `orgsec serve --demo` (what npm start runs); resolves with its banner, up to the "Try:" line. */
async function serveDemo(args: string[], database = freshDatabase()): Promise<{ banner: string[]; url: string; stop: () => Promise<void> }> {
  const server = await serveBuilt(['--demo', '--port', '0', '--host', '127.0.0.1', ...args, '--database', database], QUIET, /^Try: .*\n/m);
  const lines = server.output.split('\n');
  const start = lines.findIndex((line) => line.startsWith('orgsec is serving at '));
  return { banner: lines.slice(start, lines.findIndex((line) => line.startsWith('Try: ')) + 1), url: server.url, stop: server.stop };
}

/** The banner's URL table: label → URL. */
const urlsOf = (banner: string[], url: string) =>
  Object.fromEntries(banner.filter((line) => line.includes(`${url}/`) && !line.startsWith('Try:')).map((line) => {
    const [label, address] = line.trim().split(/ {2,}/);
    return [label!, address!];
  }));

describe('the start banner', () => {
  it('says so when a restart keeps the data of earlier runs instead of loading the demo again', async () => {
    const database = freshDatabase();
    const first = await serveDemo([], database);
    await first.stop();
    expect(first.banner.join('\n')).not.toContain('was not loaded');
    const again = await serveDemo([], database);
    await again.stop();
    expect(again.banner).toContain(`The demo world was not loaded: ${database} already holds data (earlier runs' changes are kept). To start afresh, stop orgsec and delete ${database}.`);
  }, 60_000);

  it('lists every URL a newcomer needs, aligned, and each one answers', async () => {
    const server = await serveDemo([]);
    try {
      const urls = urlsOf(server.banner, server.url);
      expect(urls).toEqual({
        'Start here': `${server.url}/`,
        'REST API': `${server.url}/orgs/{org}/organization-roles`,
        GraphQL: `${server.url}/graphql`,
        GraphiQL: `${server.url}/graphiql`,
        'API docs': `${server.url}/docs`,
        OpenAPI: `${server.url}/openapi.json`,
        Health: `${server.url}/healthz`,
        Metrics: `${server.url}/metrics`,
      });
      expect(server.banner.join('\n')).toContain('also under /api/v3');
      // Aligned: every URL starts in the same column.
      const columns = server.banner.slice(1, 9).map((line) => line.indexOf('http://'));
      expect(new Set(columns).size).toBe(1);
      // The root page is another part of issue 18; every other address answers now.
      for (const [label, address] of Object.entries(urls).filter(([label]) => label !== 'Start here')) {
        const res = await fetch(address.replace('{org}', 'acme-corp'), { headers: { Authorization: 'Bearer svc_demo_alice_owner', Accept: 'text/html, application/json' } });
        expect([label, res.status]).toEqual([label, 200]);
      }
      const v3 = await fetch(`${server.url}/api/v3/orgs/acme-corp/organization-roles`, { headers: { Authorization: 'Bearer svc_demo_alice_owner' } });
      expect(v3.status).toBe(200);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('leaves out GraphiQL and the Sandbox when the explorer is off', async () => {
    const server = await serveDemo(['--graphql-explorer', 'off']);
    try {
      expect(Object.keys(urlsOf(server.banner, server.url))).toEqual(['Start here', 'REST API', 'GraphQL', 'API docs', 'OpenAPI', 'Health', 'Metrics']);
      expect(server.banner.join('\n')).not.toMatch(/graphiql|Sandbox/i);
    } finally {
      await server.stop();
    }
  }, 60_000);

  it('shows each demo token once with who it acts as and what it may do, within 100 columns', async () => {
    const server = await serveDemo([]);
    try {
      const tokens = DEMO.tokens.flatMap((t) => (t.token ? [t.token] : []));
      const block = server.banner.slice(server.banner.findIndex((line) => line.startsWith('Demo tokens')) + 1, -1);
      expect(block.filter((line) => /^ {2}\S/.test(line)).map((line) => line.trim().split(' ')[0])).toEqual(tokens);
      for (const line of block) expect(line.length).toBeLessThanOrEqual(100);
      const entry = (token: string) => {
        const start = block.findIndex((line) => line.startsWith(`  ${token} `));
        const end = block.findIndex((line, i) => i > start && /^ {2}\S/.test(line));
        return block.slice(start, end === -1 ? undefined : end).map((line) => line.trim()).join(' ').replace(/\s+/g, ' ');
      };
      expect(entry('svc_demo_alice_owner')).toBe(
        'svc_demo_alice_owner alice: owner of acme-corp, acme-labs; enterprise owner of acme classic token: administer organizations, administer enterprises, full repository access, organization webhooks, repository webhooks');
      expect(entry('svc_demo_dave_outside')).toBe(
        'svc_demo_dave_outside dave: outside read collaborator on acme-corp/api (private) classic token: full repository access');
      expect(entry('svc_demo_carol_role_reader')).toContain('carol: member of acme-corp; roles all_repo_read, Role reader, Auditor in acme-corp');
      expect(entry('svc_demo_alice_fine_grained')).toContain('fine-grained token, only acme-corp (all repositories): write members, org administration, Actions (OIDC), attestations, dependency alerts; read custom roles');
      expect(entry('svc_demo_audit_bot')).toBe(
        'svc_demo_audit_bot app audit-bot installed on acme-corp, no user app installation token: read custom roles, members, dependency alerts on repositories api');
      expect(server.banner.at(-1)).toBe(`Try: curl -H "Authorization: Bearer svc_demo_alice_owner" ${server.url}/orgs/acme-corp/organization-roles`);
    } finally {
      await server.stop();
    }
  }, 60_000);
});

describe('a demo token description', () => {
  const world = (extra: object) => worldSchema.parse({
    users: [{ login: 'ann' }, { login: 'ben' }],
    organizations: [{ login: 'org-a', owners: ['ann'] }],
    repositories: [{ owner: 'org-a', name: 'app', private: true, collaborators: [{ login: 'ben', permission: 'write' }] }, { owner: 'org-a', name: 'site' }],
    tokens: [{ token: 'test_token_ben', type: 'classic', user: 'ben', scopes: ['read:org', 'admin:org', 'public_repo'] }],
    ...extra,
  });

  it('follows the world: a collaborator outside the organization is "outside", a member is not', () => {
    const outside = world({});
    expect(describeToken(outside.tokens[0]!, outside)).toEqual({
      who: 'ben: outside write collaborator on org-a/app (private)',
      can: 'classic token: administer organizations, public repositories',
    });
    const member = world({ organizations: [{ login: 'org-a', owners: ['ann'], members: ['ben'] }] });
    expect(describeToken(member.tokens[0]!, member).who).toBe('ben: member of org-a; write collaborator on org-a/app (private)');
  });

  it('names a user with no standing, and a token without scopes', () => {
    const bare = world({ repositories: [], tokens: [{ token: 'test_token_ben', type: 'oauth', user: 'ben', scopes: [] }] });
    expect(describeToken(bare.tokens[0]!, bare)).toEqual({ who: 'ben: no organization or repository access', can: 'OAuth token: no scopes (public data only)' });
  });
});

describe('when serve cannot listen', () => {
  /** Runs the built `orgsec serve` to its end. */
  const serveFailing = (args: string[]) =>
    spawnSync(process.execPath, [CLI, 'serve', ...args, '--database', freshDatabase()], { encoding: 'utf8', timeout: 30_000, env: cleanEnv(QUIET) });

  it('a taken port exits 1 with one line naming host:port and how to choose another, no stack', async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as net.AddressInfo).port;
    try {
      const run = serveFailing(['--port', String(port), '--host', '127.0.0.1']);
      expect([run.status, run.stderr.trimEnd(), run.stdout]).toEqual([
        1, `error: 127.0.0.1:${port} is already in use by another process: serve on another port with --port 3001 (or PORT=3001), or stop the other process.`, '',
      ]);
    } finally {
      taken.close();
    }
  }, 40_000);

  it('an address this machine does not have exits 1 with one line suggesting --host', () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never assigned to a real interface.
    const run = serveFailing(['--port', '0', '--host', '192.0.2.1']);
    expect([run.status, run.stderr.trimEnd()]).toEqual([
      1, 'error: cannot listen on 192.0.2.1:0: this machine has no such address; use --host 127.0.0.1 (this machine only) or --host 0.0.0.0 (every interface), or set HOST.',
    ]);
  }, 40_000);

  it('a privileged port names the rule and a port to use instead', () => {
    const denied = Object.assign(new Error('listen EACCES: permission denied 0.0.0.0:80'), { code: 'EACCES', syscall: 'listen' });
    expect(explainListenError(denied, '0.0.0.0', 80)).toBe(
      'not allowed to listen on 0.0.0.0:80: ports below 1024 need administrator rights; use a port from 1024 up, e.g. --port 3000 (or PORT=3000).');
    // An EACCES that is not the listen (the database file, say) is not explained as a port problem.
    expect(explainListenError(Object.assign(new Error('open'), { code: 'EACCES', syscall: 'open' }), '0.0.0.0', 80)).toBeUndefined();
  });

  // As root (CI, this machine), the CLI runs as nobody through setpriv, so the port is really refused.
  const asRoot = process.getuid?.() === 0;
  const hasSetpriv = spawnSync('setpriv', ['--version']).status === 0;
  (asRoot && !hasSetpriv ? it.skip : it)('without privileges, port 80 exits 1 with that line', () => {
    // Its own directory, which nobody may write to (the suite's temporary directory is root's alone).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-unprivileged-'));
    fs.chmodSync(dir, 0o777);
    const command = [CLI, 'serve', '--port', '80', '--host', '127.0.0.1', '--database', path.join(dir, 'db.sqlite')];
    const run = asRoot
      ? spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, ...command], { encoding: 'utf8', timeout: 30_000, env: cleanEnv(QUIET) })
      : spawnSync(process.execPath, command, { encoding: 'utf8', timeout: 30_000, env: cleanEnv(QUIET) });
    fs.rmSync(dir, { recursive: true, force: true });
    expect([run.status, run.stderr.trimEnd()]).toEqual([1, `error: ${explainListenError({ code: 'EACCES', syscall: 'listen' }, '127.0.0.1', 80)}`]);
  }, 40_000);
});

describe('npm start', () => {
  // npm runs a script through sh; without exec, a SIGTERM to npm left the server running (issue 40).
  it('stops the server when npm itself is sent SIGTERM', async () => {
    const npm = spawn('npm', ['start', '--ignore-scripts', '--silent', '--', '--port', '0', '--host', '127.0.0.1', '--database', freshDatabase()], {
      cwd: ROOT, env: cleanEnv(QUIET), stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    await new Promise<void>((resolve, reject) => {
      npm.once('exit', (code) => reject(new Error(`npm start exited (${code}) before serving:\n${stdout}`)));
      npm.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); if (/^Try: /m.test(stdout)) resolve(); });
    });
    const url = /serving at (http:\/\/\S+)/.exec(stdout)![1]!;
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    npm.removeAllListeners('exit');
    const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
    npm.kill('SIGTERM');
    await exited;
    // The server is gone with npm: nothing answers at its address any more.
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  }, 60_000);
});
