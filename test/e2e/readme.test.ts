import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import { freePort } from '../bench/processes';
import path from 'node:path';
import knexFactory from 'knex';
import semver from 'semver';
import { startBudgetsSubgraph } from '../helpers/budgets-subgraph';
import { sharedDatabase, type SharedDatabase } from '../helpers/instances';
import { parsePrinted, printedMatches, readmeBlocks, shellCommands, suiteOverrides, suitePackages, suiteVersions, type ReadmeBlock } from '../helpers/readme';
import { curlStatuses, writeStandIns, type StandIns } from '../helpers/readme-stand-ins';
import { endProcessGroup, ShellSession } from '../helpers/shell-session';
import { eventually } from '../helpers/hook-receiver';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { parseMetrics, valueOf } from '../helpers/prometheus';

// Issue 40: the README as a newcomer follows it. Every code block, in order, in one shell
// session (a `cd` or a variable holds for what follows), in a folder of the clone beside
// `npm start`'s demo world, each shell command as written, checked against the output the
// README prints under it (`# …` lines: `…` is any text, a leading status is the answer's, a
// trailing `(exit N)` the exit status) and, where it prints nothing, held to exit 0 and a 2xx
// answer for each request. What the README runs in a terminal of its own (`npm start`, the
// servers it starts, its scripts that keep running) runs beside the session, and Ctrl-C is SIGINT.
//
// What differs from a newcomer's machine, and only this:
// - addresses: each port the README names is a free port (the suite runs files in parallel);
// - the database: the demo's is a fresh one of the test's (DATABASE_URL), and the PostgreSQL of
//   "Running at scale" is the test's server (its databases named for the run);
// - no network: the README's downloads (OSV's zips, EPSS, the advisory database, the SBOM
//   generator) come from committed data (helpers/readme-stand-ins.ts), and npm installs prefer
//   its cache (npm ci filled it);
// - `npm install` of the quick start is the suite's own `npm ci`, and the packages a script's
//   header says to install are orgsec's own dependencies (checked: name and version).
//
// README_RUN_LOG=FILE appends each command and what it printed to FILE, to write a README's
// printed lines from a real run.

const ROOT = path.join(__dirname, '..', '..');
const SCALE_SECTION = 'Running at scale (PostgreSQL, several instances)';

const blocks = readmeBlocks();

let scratch: string;
let standIns: StandIns;
let demoDatabase: SharedDatabase;
let session: ShellSession;
const terminals = new Map<string, Terminal>();
const ports: Record<string, number> = {};
const scaleDatabases = { deploy: '', restored: '' };

// ---------------------------------------------------------------------------------------------
// Terminals of their own: a command that keeps running, started from the session's folder and
// environment, in a process group of its own (what Ctrl-C reaches).

class Terminal {
  readonly child: ChildProcess;
  output = '';

  constructor(readonly command: string, cwd: string, env: Record<string, string>) {
    this.child = spawn('bash', ['-c', command], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    this.child.stdout!.on('data', (chunk: Buffer) => { this.output += chunk.toString(); });
    this.child.stderr!.on('data', (chunk: Buffer) => { this.output += chunk.toString(); });
  }

  get running(): boolean { return this.child.exitCode === null && this.child.signalCode === null; }

  /** Ctrl-C: SIGINT to its process group; resolves once it has ended. */
  interrupt(): Promise<void> {
    return endProcessGroup(this.child, 'SIGINT', 10_000);
  }
}

async function startTerminal(name: string, command: string, ready: (terminal: Terminal) => Promise<boolean>, env: Record<string, string> = {}): Promise<Terminal> {
  const state = await session.state();
  const terminal = new Terminal(command, state.cwd, { ...state.env, ...env });
  terminals.set(name, terminal);
  const deadline = Date.now() + 120_000;
  while (!(await ready(terminal).catch(() => false))) {
    if (!terminal.running) throw new Error(`${command} ended before it was ready:\n${terminal.output}`);
    if (Date.now() > deadline) throw new Error(`${command} was not ready within 120 s:\n${terminal.output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return terminal;
}

const demoUrl = () => `http://127.0.0.1:${ports.demo}`;
const orgsecReady = async () => (await fetch(`${demoUrl()}/readyz`)).status === 200;
const listening = (port: number) => () => new Promise<boolean>((resolve) => {
  const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(true); }).on('error', () => resolve(false));
});

// ---------------------------------------------------------------------------------------------
// The README's text, with only the differences listed at the top.

/** Each port the README names, as this run's: 3000 is the demo's, except for the deployment of "Running at scale". */
function addressed(block: ReadmeBlock): string {
  const map: Record<string, number> = block.section === SCALE_SECTION
    ? { 3000: ports.scale1!, 3001: ports.scale2! }
    : { 3000: ports.demo!, 4000: ports.gateway!, 4001: ports.budgets!, 8123: ports.receiver! };
  return block.code.replace(/(127\.0\.0\.1:|PORT=|\.listen\(|port: )(\d{4})\b/g, (whole, before: string, port: string) => (map[port] ? `${before}${map[port]}` : whole));
}

function pgUrl(database: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${database}`;
  return url.toString();
}

/** The deployment's PostgreSQL databases, as this run's on the test's server. */
function withDatabases(code: string): string {
  if (!process.env.TEST_DATABASE_URL) return code; // those blocks are skipped
  const replacements: Array<[string, string]> = [
    ['postgres://orgsec:secret@db.internal:5432/orgsec', pgUrl(scaleDatabases.deploy)],
    ['postgres://orgsec@db.internal:5432/orgsec_restored', pgUrl(scaleDatabases.restored)],
    ['createdb orgsec_restored', `createdb ${scaleDatabases.restored}`],
    ['createdb orgsec ', `createdb ${scaleDatabases.deploy} `],
  ];
  for (const [from, to] of replacements) code = code.replaceAll(from, to);
  return code;
}

// ---------------------------------------------------------------------------------------------
// Running a block.

function fail(what: string, command: string, run: { stdout: string; stderr: string; status: number }): never {
  throw new Error(`${what}\n$ ${command}\n(exit ${run.status})\n--- stdout\n${run.stdout.slice(0, 4000)}\n--- stderr\n${run.stderr.slice(0, 4000)}`);
}

/** Each command in the session, held to what the README prints under it (or to success). */
async function runShell(block: ReadmeBlock, inTerminal: Record<string, (command: string) => Promise<void>> = {}): Promise<void> {
  for (const { command, printed } of shellCommands(withDatabases(addressed(block)))) {
    const own = inTerminal[command.trim()];
    if (own) { await own(command); continue; }
    const run = await session.run(command);
    if (process.env.README_RUN_LOG) fs.appendFileSync(process.env.README_RUN_LOG, `$ ${command}\n${run.stdout}\n--- ${run.stderr.slice(-600)}\n`);
    const { statuses, stderr } = curlStatuses(run.stderr);
    const shown = { ...run, stderr };
    const expected = printed.length > 0 ? parsePrinted(printed) : undefined;
    if (run.status !== (expected?.exit ?? 0)) fail(`exit ${run.status}, the README says ${expected?.exit ?? 0}`, command, shown);
    for (const status of statuses) {
      const documented = expected?.status;
      if (documented !== undefined ? status !== documented : status < 200 || status > 299) fail(`answered ${status}, the README says ${documented ?? 'a success'}`, command, shown);
    }
    if (/npm warn|EBADENGINE|\(node:\d+\) \w*Warning/i.test(stderr)) fail('warned', command, shown);
    // What a terminal shows: the output, then (for a failing command) its errors.
    const seen = expected?.exit ? `${run.stdout}${stderr}` : run.stdout;
    if (expected && !printedMatches(expected.text, seen)) fail(`printed something else than the README's\n${printed.join('\n')}`, command, shown);
  }
}

/** A script block's header, `// FILE (npm install PACKAGES; node FILE)`: its file name and the packages it names. */
function scriptHeader(block: ReadmeBlock): { file: string; packages: string[] } {
  const header = /^\/\/ (\S+)(?: \((.*)\))?\n/.exec(block.code);
  if (!header) throw new Error(`the block at line ${block.line} does not start with // FILE`);
  const install = /npm (?:install|i) ([^;)]+)/.exec(header[2] ?? '');
  return { file: header[1]!, packages: install ? install[1]!.trim().split(/\s+/) : [] };
}

/** Saves a script block in the session's folder, after checking the packages it names are orgsec's own, at versions it has. */
async function saveScript(block: ReadmeBlock, folder?: string): Promise<string> {
  const { file, packages } = scriptHeader(block);
  for (const spec of packages) {
    const at = spec.lastIndexOf('@');
    const [name, range] = at > 0 ? [spec.slice(0, at), spec.slice(at + 1)] : [spec, '*'];
    expect(suitePackages()).toContain(name);
    const version = semver.minVersion(suiteVersions()[name]!)!.version;
    expect({ name, version, satisfies: semver.satisfies(version, range) }).toEqual({ name, version, satisfies: true });
  }
  const target = path.join(folder ?? (await session.state()).cwd, file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, addressed(block));
  return target;
}

async function metric(name: string): Promise<number> {
  return valueOf(parseMetrics(await (await fetch(`${demoUrl()}/metrics`)).text()), name, {});
}

async function graphql(url: string, query: string): Promise<{ data?: any; errors?: unknown[] }> {
  const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${DEMO_OWNER_TOKEN}` }, body: JSON.stringify({ query }) });
  return res.json() as Promise<{ data?: any; errors?: unknown[] }>;
}

// ---------------------------------------------------------------------------------------------
// The playbook: how each block runs, by its first line, in README order.

interface Play { first: string; how: string; play(block: ReadmeBlock): Promise<void>; postgres?: boolean }

const startDemo = (name: string) => async (command: string) => {
  await startTerminal(name, command, orgsecReady, { PORT: String(ports.demo) });
};

const PLAYBOOK: Play[] = [
  {
    first: 'npm install', how: 'npm start in a terminal of its own (npm install is the suite\'s npm ci)',
    play: (block) => runShell(block, { 'npm install': async () => undefined, 'npm start': startDemo('npm start') }),
  },
  { first: 'curl -H "Authorization: Bearer svc_demo_alice_owner"', how: 'in the session', play: (block) => runShell(block) },
  { first: 'T="Authorization: Bearer svc_demo_alice_owner"; B=http://127.0.0.1:3000; R=', how: 'in the session', play: (block) => runShell(block) },
  { first: 'mkdir orgsec-client', how: 'in the session: a real npm install, from the cache', play: (block) => runShell(block) },
  { first: '// client.mjs', how: 'saved in the session\'s folder (orgsec-client)', play: async (block) => { await saveScript(block); } },
  { first: 'node client.mjs', how: 'in the session', play: (block) => runShell(block) },
  {
    first: 'query OrganizationAlerts {', how: 'sent to /graphql as Apollo Sandbox sends it, with the demo token',
    play: async (block) => {
      const answer = await graphql(`${demoUrl()}/graphql`, block.code);
      expect(answer.errors).toBeUndefined();
      expect(answer.data.organization.dependencyAlerts.totalCount).toBeGreaterThan(0);
    },
  },
  {
    first: '// gateway.mjs', how: 'saved and run in a terminal of its own beside a second subgraph of budgets, then asked for both subgraphs\' fields',
    play: async (block) => {
      const budgets = await startBudgetsSubgraph(ports.budgets);
      try {
        await saveScript(block);
        const gateway = await startTerminal('gateway.mjs', 'node gateway.mjs', listening(ports.gateway!));
        const answer = await graphql(`http://127.0.0.1:${ports.gateway}/`, '{ organization(login: "acme-corp") { login budget organizationRoles { name } } }');
        expect(answer).toEqual({ data: { organization: { login: 'acme-corp', budget: 1200, organizationRoles: expect.arrayContaining([{ name: 'security_manager' }]) } } });
        await gateway.interrupt();
      } finally {
        await budgets.stop();
      }
    },
  },
  {
    first: '// watch.mjs', how: 'saved and run in a terminal of its own to the end (it prints the events of the blocks after it, across the restart)',
    play: async (block) => {
      await saveScript(block);
      await startTerminal('watch.mjs', 'node watch.mjs', async () => (await metric('orgsec_graphql_subscriptions')) >= 1);
    },
  },
  {
    first: '// codegen.ts', how: 'saved in a dashboard\'s folder holding schema.graphql and the query above, then npx graphql-codegen there',
    play: async (block) => {
      const dashboard = path.join((await session.state()).cwd, 'dashboard');
      fs.mkdirSync(path.join(dashboard, 'src'), { recursive: true });
      fs.copyFileSync(path.join(ROOT, 'schema.graphql'), path.join(dashboard, 'schema.graphql'));
      fs.writeFileSync(path.join(dashboard, 'src', 'alerts.graphql'), blocks.find((b) => b.lang === 'graphql')!.code);
      await saveScript(block, dashboard);
      await runShell({ ...block, code: '(cd dashboard && npx graphql-codegen)\n' });
      expect(fs.readFileSync(path.join(dashboard, 'src', 'gql', 'graphql.ts'), 'utf8')).toContain('export const OrganizationAlertsDocument');
    },
  },
  { first: 'D=sha256:', how: 'in the session', play: (block) => runShell(block) },
  { first: 'git clone --depth 1 https://github.com/github/advisory-database.git', how: 'in the session', play: (block) => runShell(block) },
  { first: "curl 'http://127.0.0.1:3000/advisories?", how: 'in the session', play: (block) => runShell(block) },
  { first: 'ORGSEC=http://127.0.0.1:3000 TOKEN=', how: 'in the session', play: (block) => runShell(block) },
  { first: 'npx @cyclonedx/cyclonedx-npm --omit dev', how: 'in the session', play: (block) => runShell(block) },
  { first: 'npx @cyclonedx/cyclonedx-npm@6.0.1', how: 'in the session', play: (block) => runShell(block) },
  { first: 'curl -H "$T" -H \'Accept: application/vnd.cyclonedx+json\'', how: 'in the session', play: (block) => runShell(block) },
  { first: 'curl -H "$T" -X POST $B/orgs/acme-corp/dependency-bot/rules', how: 'in the session', play: (block) => runShell(block) },
  {
    first: '// receiver.mjs', how: 'saved and run in a terminal of its own',
    play: async (block) => {
      await saveScript(block);
      await startTerminal('receiver.mjs', 'node receiver.mjs', listening(ports.receiver!));
    },
  },
  {
    first: 'npx orgsec serve --demo --webhook-allow-private-targets on', how: 'npm start stopped with Ctrl-C as the text says, this serve in its terminal (then, at a person\'s pace, watch.mjs reconnected), the rest in the session',
    play: async (block) => {
      await terminals.get('npm start')!.interrupt();
      await runShell(block, {
        'npx orgsec serve --demo --webhook-allow-private-targets on': async (command) => {
          await startDemo('orgsec serve')(command);
          await eventually('watch.mjs reconnected', async () => (await metric('orgsec_graphql_subscriptions')) >= 1, 60_000);
        },
      });
      const receiver = terminals.get('receiver.mjs')!;
      await eventually('receiver.mjs printed the ping and the dismissal, verified', () => receiver.output.includes('ping verified') && receiver.output.includes('dependency_bot_alert verified dismissed'));
      await eventually('watch.mjs printed the dismissal', () => terminals.get('watch.mjs')!.output.includes('"nameWithOwner":"acme-corp/infra"'));
    },
  },
  { first: 'curl -G -H "$T" $B/orgs/acme-corp/audit-log', how: 'in the session', play: (block) => runShell(block) },
  { first: 'B=http://127.0.0.1:3000; T="Authorization: Bearer svc_demo_alice_owner"', how: 'in the session', play: (block) => runShell(block) },
  { first: '// verify.mjs', how: 'saved in the session\'s folder', play: async (block) => { await saveScript(block); } },
  { first: 'JWT=$(curl', how: 'in the session', play: (block) => runShell(block) },
  {
    first: 'createdb orgsec', how: 'in the session, on the test\'s PostgreSQL; then both instances answer', postgres: true,
    play: async (block) => {
      await runShell(block);
      for (const port of [ports.scale1!, ports.scale2!]) await eventually(`the instance on ${port} is ready`, async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200);
    },
  },
  { first: 'pg_dump -Fc -f orgsec.dump', how: 'in the session, on the test\'s PostgreSQL', postgres: true, play: (block) => runShell(block) },
];

const playOf = (block: ReadmeBlock) => PLAYBOOK.filter((entry) => block.code.startsWith(entry.first));

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  // Inside the clone, so `npx orgsec` finds its package.json; under test/ so the top stays the design's.
  scratch = fs.mkdtempSync(path.join(ROOT, 'test', '.readme-run-'));
  for (const name of ['demo', 'gateway', 'budgets', 'receiver', 'scale1', 'scale2']) ports[name] = await freePort();
  const advisories = demoWorld().advisories as Array<{ cve_id?: string }>;
  const cves = [...new Set(advisories.flatMap((a) => (a.cve_id ? [a.cve_id] : [])))];
  standIns = await writeStandIns(path.join(scratch, '.stand-ins'), cves);
  demoDatabase = await sharedDatabase('sqlite');
  const id = crypto.randomBytes(4).toString('hex');
  Object.assign(scaleDatabases, { deploy: `orgsec_readme_${id}`, restored: `orgsec_readme_${id}_restored` });
  const pg = process.env.TEST_DATABASE_URL ? new URL(process.env.TEST_DATABASE_URL) : undefined;
  const work = path.join(scratch, 'work');
  fs.mkdirSync(work);
  session = new ShellSession(work, {
    PATH: `${standIns.bin}:${process.env.PATH}`,
    HOME: process.env.HOME ?? work,
    LANG: 'C.UTF-8',
    DATABASE_URL: demoDatabase.url,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...(pg ? { PGHOST: pg.hostname, PGPORT: pg.port || '5432', PGUSER: decodeURIComponent(pg.username) } : {}),
  }, path.join(scratch, 'outputs'));
}, 60_000);

afterAll(async () => {
  for (const terminal of terminals.values()) await terminal.interrupt();
  await session?.close();
  await demoDatabase?.drop();
  if (process.env.TEST_DATABASE_URL && scaleDatabases.deploy) {
    const admin = knexFactory({ client: 'pg', connection: process.env.TEST_DATABASE_URL });
    for (const name of Object.values(scaleDatabases)) await admin.raw('DROP DATABASE IF EXISTS ?? WITH (FORCE)', [name]);
    await admin.destroy();
  }
  if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
}, 60_000);

it('has one way to run every block of the README, and every way is for a block it has', () => {
  const unplayed = blocks.filter((block) => playOf(block).length !== 1).map((block) => `line ${block.line}: ${block.code.split('\n')[0]}`);
  expect(unplayed).toEqual([]);
  const unused = PLAYBOOK.filter((entry) => blocks.filter((block) => block.code.startsWith(entry.first)).length !== 1).map((entry) => entry.first);
  expect(unused).toEqual([]);
});

it('installs the client only from packages the suite has, at the versions it has, overridden as it overrides them (Node 20)', () => {
  const shell = blocks.find((block) => block.code.startsWith('mkdir orgsec-client'))!.code;
  const installed = /npm install (.+)/.exec(shell)![1]!.trim().split(/\s+/);
  expect(installed.length).toBeGreaterThan(0);
  for (const spec of installed) {
    const at = spec.lastIndexOf('@');
    expect([spec.slice(0, at), spec.slice(at + 1)]).toEqual([spec.slice(0, at), suiteVersions()[spec.slice(0, at)]]);
  }
  const [, parent, child, version] = /npm pkg set 'overrides\.(@[^.]+)\.([^=]+)=(\S+)'/.exec(shell)!;
  expect(suiteOverrides()[parent!]).toEqual({ [child!]: version });
});

for (const block of blocks) {
  const [play] = playOf(block);
  const title = `${block.section || 'Quick start'}, line ${block.line}: ${block.code.split('\n')[0]!.slice(0, 70)} (${play?.how ?? 'no way to run it'})`;
  const skip = play?.postgres && !process.env.TEST_DATABASE_URL;
  (skip ? it.skip : it)(title, async () => {
    if (!play) throw new Error('no way to run this block: add one to the playbook');
    await play.play(block);
  }, 180_000);
}

it('watch.mjs printed only alert events of the blocks after it, the engine\'s and alice\'s; receiver.mjs no bad signature', () => {
  const printed = terminals.get('watch.mjs')!.output;
  const events = printed.trim().split('\n').map((line) => JSON.parse(line));
  for (const event of events) {
    expect(event).toEqual({ action: expect.any(String), sender: event.sender === null ? null : { login: 'alice' }, alert: { number: expect.any(Number), state: expect.any(String), repository: { nameWithOwner: expect.stringMatching(/^acme-corp\//) } } });
  }
  expect(events).toContainEqual({ action: 'FIXED', sender: null, alert: { number: 1, state: 'FIXED', repository: { nameWithOwner: 'acme-corp/web' } } });
  expect(events.at(-1)).toEqual({ action: 'DISMISSED', sender: { login: 'alice' }, alert: { number: 1, state: 'DISMISSED', repository: { nameWithOwner: 'acme-corp/infra' } } });
  expect(terminals.get('receiver.mjs')!.output).not.toContain('bad signature');
});
