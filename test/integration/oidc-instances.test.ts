import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedDatabase, startInstance, startInstances, type Instance, type SharedDatabase } from '../helpers/instances';
import { ORG, PRIVATE, PUSH_CONTEXT, TT, loadJose, oidcTokensWorld, verifyAsRelyingParty, type Jose } from '../helpers/oidc-tokens-world';

// OIDC signing keys shared by orgsec processes over one database: instances racing to make the
// first key end with one; `orgsec oidc rotate-key` reaches every instance; a new process over
// the same database still verifies earlier tokens (restarts lose nothing).

const CLI = path.join(__dirname, '..', '..', 'dist', 'src', 'cli', 'index.js');
const ISSUER = 'https://tokens.octo.example/oidc';
const AUDIENCE = `https://tokens.octo.example/${ORG}`;
const settings = { OIDC_ISSUER: ISSUER };

let db: SharedDatabase;
let jose: Jose;
const running: Instance[] = [];
const start = async () => {
  const instance = await startInstance(db.url, settings);
  running.push(instance);
  return instance;
};

async function mintThrough(instance: Instance): Promise<string> {
  const res = await fetch(`${instance.url}${`/repos/${PRIVATE}/actions/oidc/token`}`, {
    method: 'POST', headers: { Authorization: `Bearer ${TT.writer}`, 'Content-Type': 'application/json' }, body: JSON.stringify({ context: PUSH_CONTEXT }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { value: string }).value;
}
const jwksOf = async (instance: Instance) => ((await (await fetch(`${instance.url}/oidc/.well-known/jwks`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);
/** As a relying party that knows the issuer and fetches its keys from this instance. */
const verifyAt = (instance: Instance, token: string) => verifyAsRelyingParty(jose, token, { jwksUrl: `${instance.url}/oidc/.well-known/jwks`, issuer: ISSUER, audience: AUDIENCE });

beforeAll(async () => {
  db = await sharedDatabase();
  jose = await loadJose();
  running.push(...(await startInstances(2, db.url, settings)));
  const worldFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-oidc-world-')), 'world.json');
  fs.writeFileSync(worldFile, JSON.stringify(oidcTokensWorld()));
  const load = spawnSync(process.execPath, [CLI, 'load', worldFile, '--database', db.url], { encoding: 'utf8' });
  if (load.status !== 0) throw new Error(load.stderr);
}, 120_000);

afterAll(async () => {
  await Promise.all(running.map((instance) => instance.stop()));
  await db?.drop();
});

let first: { tokens: string[]; kid: string };

it('two instances minting their first tokens at once end with one key, which both sign with', async () => {
  const [a, b] = running as [Instance, Instance];
  const tokens = await Promise.all([a, b, a, b].map(mintThrough));
  const kids = new Set(tokens.map((token) => jose.decodeProtectedHeader(token).kid));
  expect(kids.size).toBe(1);
  const [kid] = [...kids] as [string];
  expect([await jwksOf(a), await jwksOf(b)]).toEqual([[kid], [kid]]);
  for (const token of tokens) expect((await verifyAt(b, token)).payload.iss).toBe(ISSUER);
  first = { tokens, kid };
});

it('orgsec oidc rotate-key makes a new key every instance signs with, keeping the old one in the JWKS', async () => {
  const [a, b] = running as [Instance, Instance];
  // Not spawnSync: a blocked event loop would miss the instances closing idle keep-alive connections.
  const rotated = await promisify(execFile)(process.execPath, [CLI, 'oidc', 'rotate-key', '--database', db.url], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  const [, kid] = /signing key: (\S+) signs from now on; (\S+) stays/.exec(rotated.stdout) ?? [];
  expect(rotated.stdout.trim()).toBe(`Rotated the signing key: ${kid} signs from now on; ${first.kid} stays in the JWKS for a day.`);
  expect(rotated.stderr).toBe('');
  for (const instance of [a, b]) {
    expect(jose.decodeProtectedHeader(await mintThrough(instance)).kid).toBe(kid);
    expect(await jwksOf(instance)).toEqual([kid, first.kid]);
  }
  for (const token of first.tokens) expect((await verifyAt(a, token)).protectedHeader.kid).toBe(first.kid);
});

it('a new process over the same database verifies tokens minted before it started', async () => {
  const [a] = running as [Instance];
  const earlier = await mintThrough(a);
  await a.stop();
  running.shift();
  const restarted = await start();
  for (const token of [...first.tokens, earlier]) await expect(verifyAt(restarted, token)).resolves.toBeDefined();
  // And it signs with the key the others use.
  expect(jose.decodeProtectedHeader(await mintThrough(restarted)).kid).toBe(jose.decodeProtectedHeader(earlier).kid);
});
