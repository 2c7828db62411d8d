import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEMO_OWNER_TOKEN, demoWorld } from '../helpers/operations';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { README, suitePackages } from '../helpers/readme';

// The README's live-alerts example (watch.mjs), run as a user runs it: the code block as written,
// with only the server's address changed to this test's, in a Node process of its own; an alert
// is dismissed through REST and the script prints its event.

const ROOT = path.join(__dirname, '..', '..');
const SCRIPT = /```js\n(\/\/ watch\.mjs[\s\S]*?)```/.exec(README)![1]!;
const README_ORIGIN = '127.0.0.1:3000';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
});
afterAll(() => t.close());

it('installs only packages the suite itself has', () => {
  const installed = /npm install ([^;)]+)/.exec(SCRIPT)![1]!.trim().split(/\s+/);
  expect(installed).toEqual(['graphql-ws', 'ws']);
  for (const name of installed) expect(suitePackages()).toContain(name);
});

it('prints an alert\'s event as it happens', async () => {
  expect(SCRIPT).toContain(`ws://${README_ORIGIN}/graphql`);
  expect(SCRIPT).toContain(DEMO_OWNER_TOKEN);
  const child = spawn(process.execPath, ['--input-type=module'], { cwd: ROOT, env: { PATH: process.env.PATH ?? '' } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  child.stdin.end(SCRIPT.replaceAll(README_ORIGIN, t.url.replace('http://', '')));
  try {
    const open = await t.http().get('/orgs/acme-corp/dependency-bot/alerts?state=open').set('Authorization', `Bearer ${DEMO_OWNER_TOKEN}`);
    const alert = (open.body as Array<{ number: number; repository: { name: string } }>)[0]!;
    const path = `/repos/acme-corp/${alert.repository.name}/dependency-bot/alerts/${alert.number}`;
    // The script subscribes when it has started: the alert is dismissed and reopened until an event is printed.
    for (let round = 0; stdout === '' && round < 100; round++) {
      await t.http().patch(path).set('Authorization', `Bearer ${DEMO_OWNER_TOKEN}`).send(round % 2 === 0 ? { state: 'dismissed', dismissed_reason: 'not_used' } : { state: 'open' });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const first = JSON.parse(stdout.trim().split('\n')[0]!);
    expect(first).toEqual({
      action: expect.stringMatching(/^(DISMISSED|REOPENED)$/), sender: { login: 'alice' },
      alert: { number: alert.number, state: expect.any(String), repository: { nameWithOwner: `acme-corp/${alert.repository.name}` } },
    });
    expect(stderr).toBe('');
    const reopened = await t.http().patch(path).set('Authorization', `Bearer ${DEMO_OWNER_TOKEN}`).send({ state: 'open' });
    expect([200, 409]).toContain(reopened.status);
  } finally {
    child.kill();
  }
}, 30_000);
