import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../../src/composition';
import { PRIVATE, attestationsWorld } from '../helpers/attestations-world';
import { TEST_SAN, createTestAuthority } from '../helpers/sigstore-test-ca';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { CLI, cleanEnv } from './built-cli';

// `orgsec attestations verify` as users run it: the built CLI on a database holding three
// attestations of one digest (the real public-good bundle, the same with its checkpoint
// damaged, and a bundle of a CA of the test's own), with each identity option.

const FIXTURES = path.join(__dirname, '..', 'fixtures');
const read = (file: string) => JSON.parse(fs.readFileSync(path.join(FIXTURES, file), 'utf8')) as Record<string, unknown>;
const HEX = '8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';
const DIGEST = `sha256:${HEX}`;
const CLI_SAN = 'https://github.com/cli/cli/.github/workflows/deployment.yml@refs/heads/trunk';
const PROVENANCE = 'https://slsa.dev/provenance/v1';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let db: TestDatabase;
let dir: string;
let rootsFile: string;
let ids: { real: number; damaged: number; testCa: number };

/** `orgsec attestations verify` of the digest in att-org/secret-app, with more arguments. */
const orgsec = (args: string[], env: Record<string, string> = {}) => spawnRun(['attestations', 'verify', '--repo', PRIVATE, '--digest', DIGEST, ...args], env);

function spawnRun(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const child = spawn(process.execPath, [CLI, ...args, '--database', db.url], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (!fs.existsSync(CLI)) throw new Error('dist/ is missing: run `npm run build` before these tests');
  db = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-attestations-cli-'));
  const authority = await createTestAuthority();
  rootsFile = path.join(dir, 'roots.jsonl');
  fs.writeFileSync(rootsFile, `${JSON.stringify(authority.trustedRoot)}\n`);
  const bundles = [read('sigstore-bundle-v0.3-provenance.verifiable.json'), read('sigstore-bundle-v0.3-provenance.json'), await authority.bundle({ digest: HEX })];
  await createServices(db).world.load({ ...attestationsWorld(), attestations: bundles.map((bundle) => ({ repository: PRIVATE, bundle })) });
  const rows = await db.knex('attestations').orderBy('id').select('id');
  const [real, damaged, testCa] = rows.map((r) => Number(r.id));
  ids = { real: real!, damaged: damaged!, testCa: testCa! };
});
afterAll(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const verifiedLine = (id: number, san = CLI_SAN) => `attestation ${id} (${PROVENANCE}): verified, signed by ${san} (issuer https://token.actions.githubusercontent.com)`;
const untrustedLines = () => [
  `attestation ${ids.damaged} (${PROVENANCE}): not verified: the transparency log's checkpoint in the bundle does not check out: the bundle was altered after the log issued it, or comes from another log (checkpoint: missing checkpoint separator against the bundled public-good root)`,
  `attestation ${ids.testCa} (${PROVENANCE}): not verified: it was not signed under a Sigstore root you trust (add that instance's roots with ATTESTATION_TRUSTED_ROOTS) (trusted root: no trusted root for certificates issued by "orgsec test CA")`,
];
const NONE_WITH_SIGNER = 'error: none of the 3 attestation(s) verified with the signer asked for\n';

describe('orgsec attestations verify', () => {
  it('without an identity option, prints one line per attestation and exits 0 as one verifies', async () => {
    expect(await orgsec([])).toEqual({ code: 0, stdout: [verifiedLine(ids.real), ...untrustedLines(), ''].join('\n'), stderr: '' });
  }, 30_000);

  it('--cert-identity matches the SAN exactly, never as a pattern or a part of it', async () => {
    expect((await orgsec(['--cert-identity', CLI_SAN])).code).toBe(0);
    for (const near of ['https://github.com/cli/cli/', 'https://github.com/cli/cli/.github/workflows/deployment.yml@refs/heads/.*', CLI_SAN.replace('github.com', 'github.co.')]) {
      const run = await orgsec(['--cert-identity', near]);
      expect([run.code, run.stderr]).toEqual([1, NONE_WITH_SIGNER]);
      expect(run.stdout.split('\n')[0]).toBe(`attestation ${ids.real} (${PROVENANCE}): verified, but not by the signer asked for: the identity is ${JSON.stringify(CLI_SAN)}, not ${JSON.stringify(near)}`);
    }
  }, 60_000);

  it('--cert-identity-regex is anchored at the start', async () => {
    expect((await orgsec(['--cert-identity-regex', 'https://github\\.com/cli/'])).code).toBe(0);
    const unanchored = await orgsec(['--cert-identity-regex', 'github\\.com/cli/']);
    expect([unanchored.code, unanchored.stderr]).toEqual([1, NONE_WITH_SIGNER]);
    expect(await orgsec(['--cert-identity-regex', '(unclosed'])).toMatchObject({ code: 1, stdout: '', stderr: expect.stringMatching(/^error: --cert-identity-regex: not a valid regular expression/) });
  }, 60_000);

  it('--signer-workflow matches a run of that workflow at any ref, and --cert-oidc-issuer the issuer', async () => {
    expect((await orgsec(['--signer-workflow', 'cli/cli/.github/workflows/deployment.yml', '--cert-oidc-issuer', 'https://token.actions.githubusercontent.com'])).code).toBe(0);
    expect((await orgsec(['--signer-workflow', 'cli/cli/.github/workflows/deploy'])).code).toBe(1);
    expect((await orgsec(['--cert-oidc-issuer', 'https://accounts.google.com'])).code).toBe(1);
  }, 60_000);

  it('verifies the test CA\'s attestation once ATTESTATION_TRUSTED_ROOTS lists its root', async () => {
    const run = await orgsec(['--cert-identity', TEST_SAN], { ATTESTATION_TRUSTED_ROOTS: rootsFile });
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n')[2]).toBe(verifiedLine(ids.testCa, TEST_SAN));
  }, 30_000);

  it('refuses two identity options, a malformed digest, and a trusted-roots file with a bad line, naming each', async () => {
    expect(await orgsec(['--cert-identity', CLI_SAN, '--signer-workflow', 'cli/cli/x.yml'])).toEqual({
      code: 1, stdout: '', stderr: 'error: --signer-workflow, --cert-identity and --cert-identity-regex exclude each other: give one\n',
    });
    const digest = spawnRun(['attestations', 'verify', '--repo', PRIVATE, '--digest', 'sha256:8aad']);
    expect(await digest).toEqual({ code: 1, stdout: '', stderr: 'error: --digest: must be "sha256:" followed by 64 hexadecimal digits\n' });
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, '{"mediaType": "application/vnd.dev.sigstore.trustedroot+json;version=0.1"}\n');
    expect(await orgsec([], { ATTESTATION_TRUSTED_ROOTS: bad })).toEqual({
      code: 1, stdout: '', stderr: `error: invalid configuration (1 problem):\n  ATTESTATION_TRUSTED_ROOTS=${JSON.stringify(bad)}: line 1 is not a trusted root: it lists no certificate authority\n`,
    });
  }, 60_000);
});

describe('the demo world\'s attestation, as the README verifies it', () => {
  let demo: TestDatabase;
  beforeAll(async () => {
    demo = await createTestDatabase();
    await createServices(demo).world.load(JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', 'db', 'demo-world.json'), 'utf8')));
  });
  afterAll(() => demo?.destroy());

  /** The built CLI over the demo database (`--database` added unless asked for help). */
  const run = (args: string[]) => new Promise<Run>((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args, ...(args.includes('--help') ? [] : ['--database', demo.url])], { env: cleanEnv({}), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
    child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  const verify = (args: string[]) => run(['attestations', 'verify', '--repo', 'acme-corp/web', '--digest', DIGEST, ...args]);

  // Issue 40: a newcomer verifies an attestation successfully in one command.
  it('verifies fully, offline, against the signer it names; another signer is refused in words', async () => {
    const [id] = (await demo.knex('attestations').select('id')).map((r) => Number(r.id));
    expect(await verify(['--signer-workflow', 'cli/cli/.github/workflows/deployment.yml', '--cert-oidc-issuer', 'https://token.actions.githubusercontent.com']))
      .toEqual({ code: 0, stdout: `${verifiedLine(id!)}\n`, stderr: '' });
    const other = await verify(['--signer-workflow', 'acme-corp/web/.github/workflows/release.yml']);
    expect(other).toEqual({
      code: 1,
      stdout: `attestation ${id} (${PROVENANCE}): verified, but not by the signer asked for: the identity ${JSON.stringify(CLI_SAN)} is not a run of the workflow acme-corp/web/.github/workflows/release.yml\n`,
      stderr: 'error: none of the 1 attestation(s) verified with the signer asked for\n',
    });
  }, 60_000);

  it('the help\'s examples of the demo\'s attestation verify it', async () => {
    const helps = [(await run(['--help'])).stdout, (await run(['attestations', 'verify', '--help'])).stdout].join('\n');
    const examples = [...helps.replace(/ \\\n\s+/g, ' ').matchAll(/^\s*\$ orgsec (attestations verify .*?)(?:\s+# .*)?$/gm)]
      .map((m) => m[1]!).filter((line) => line.includes(DIGEST));
    expect(examples.length).toBeGreaterThanOrEqual(2);
    for (const example of examples) {
      const args = [...example.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]!);
      const answer = await run(args);
      expect({ example, code: answer.code, stderr: answer.stderr }).toEqual({ example, code: 0, stderr: '' });
    }
  }, 60_000);
});
