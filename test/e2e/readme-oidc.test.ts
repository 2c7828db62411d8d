import fs from 'node:fs';
import path from 'node:path';
import { runNodeModule } from '../helpers/node-module';
import { demoWorld } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// The README's "OIDC tokens" try-it, as written: its run context previewed and minted against
// the demo world with its token, the answers it shows, and its verification script run as a
// user runs it, with only the server's address changed to this test's.

const ROOT = path.join(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const SECTION = README.slice(README.indexOf('\n## OIDC tokens\n'), README.indexOf('\n## ', README.indexOf('\n## OIDC tokens\n') + 1));
const SHELL = /```sh\n([\s\S]*?)```/.exec(SECTION)![1]!;
const SCRIPT = /```js\n([\s\S]*?)```/.exec(SECTION)![1]!;
const README_HOST = '127.0.0.1:3000';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
});
afterAll(() => t.close());

const token = /Authorization: Bearer (\S+?)"/.exec(SHELL)![1]!;
const run = JSON.parse(/RUN='(.*)'/.exec(SHELL)![1]!);
const paths = [...SHELL.matchAll(/-X POST \$B(\S+)/g)].map((m) => m[1]!);

it('previews and mints what it shows', async () => {
  expect(paths).toEqual(['/repos/acme-corp/api/actions/oidc/customization/sub/preview', '/repos/acme-corp/api/actions/oidc/token']);
  const preview = await t.http().post(paths[0]!).set(bearer(token)).send(run);
  expect([preview.status, preview.body.sub]).toEqual([200, /"sub":"([^"]+)"/.exec(SHELL)![1]]);
  const minted = await t.http().post(paths[1]!).set(bearer(token)).send(run);
  expect(minted.status).toBe(201);
  expect(minted.body.value).toMatch(/^eyJhbGciOiJSUzI1NiIs/);
});

it('verifies the minted token with the script as written', async () => {
  const minted = await t.http().post(paths[1]!).set(bearer(token)).send(run);
  const host = new URL(t.url).host;
  const script = `const token = ${JSON.stringify(minted.body.value)};\n${SCRIPT.replaceAll(README_HOST, host)}\nconsole.log(payload.sub, payload.aud);`;
  const result = await runNodeModule(script, {});
  expect(result.stderr).toBe('');
  expect(result.stdout.trim()).toBe(`${/"sub":"([^"]+)"/.exec(SHELL)![1]} https://${host}/acme-corp`);
});
