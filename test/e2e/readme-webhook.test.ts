import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '../bench/processes';
import path from 'node:path';
import { DEMO_OWNER_TOKEN } from '../helpers/operations';
import { eventually } from '../helpers/hook-receiver';
import { sharedDatabase, startInstance, type Instance, type SharedDatabase } from '../helpers/instances';

// The README's "Webhooks" try-it, as a user runs it: its receiver script (verifying with
// @octokit/webhooks-methods) in a Node process of its own, `orgsec serve` with the flags it
// shows, its hook created with the body it shows; then an alert dismissed. Only the ports
// are changed, to free ones (the suite runs on both databases at once).

const ROOT = path.join(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const start = README.indexOf('\n## Webhooks\n');
const SECTION = README.slice(start, README.indexOf('\n## ', start + 1));
const RECEIVER = /```js\n([\s\S]*?)```/.exec(SECTION)![1]!;
const SHELL = /```sh\n([\s\S]*?)```/.exec(SECTION)![1]!;
const README_PORT = '8123';

let receiver: ChildProcess;
let receiverPort: string;
const printed: string[] = [];
let database: SharedDatabase;
let orgsec: Instance;

beforeAll(async () => {
  const port = String(await freePort());
  // As the README says: `npm install @octokit/webhooks-methods; node receiver.mjs` (the package is a dev dependency here).
  receiver = spawn(process.execPath, ['--input-type=module'], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let buffered = '';
  receiver.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const lines = buffered.split('\n');
    buffered = lines.pop()!;
    printed.push(...lines);
  });
  receiver.stdin!.end(RECEIVER.replaceAll(README_PORT, port));
  const serve = /^npx orgsec serve (.*)$/m.exec(SHELL)![1]!.split(' ');
  expect(serve).toEqual(['--demo', '--webhook-allow-private-targets', 'on']);
  database = await sharedDatabase();
  orgsec = await startInstance(database.url, {}, serve);
  receiverPort = port;
}, 90_000);

afterAll(async () => {
  await orgsec?.stop();
  receiver?.kill();
  await database?.drop();
});

const send = (method: string, url: string, body: unknown) => fetch(`${orgsec.url}${url}`, {
  method, headers: { authorization: `Bearer ${DEMO_OWNER_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
});

it('delivers to the receiver as written, which verifies every signature: the ping, then an alert dismissed', async () => {
  const [, hookPath, hookBody] = /-X POST \$B(\S+) -d '([\s\S]*?)'/.exec(SHELL)!;
  // $T is the README's demo owner token (its "Using the REST API" section).
  expect(SHELL).toContain('curl -H "$T" -X POST');
  expect(README).toContain(`T="Authorization: Bearer ${DEMO_OWNER_TOKEN}"`);
  const created = await send('POST', hookPath!, JSON.parse(hookBody!.replaceAll(README_PORT, receiverPort)));
  expect(created.status).toBe(201);
  await eventually('the ping', () => printed.includes('ping verified '));

  const [alert] = await (await fetch(`${orgsec.url}/repos/acme-corp/api/dependency-bot/alerts?state=open&per_page=1`, { headers: { authorization: `Bearer ${DEMO_OWNER_TOKEN}` } })).json() as Array<{ number: number }>;
  const dismissed = await send('PATCH', `/repos/acme-corp/api/dependency-bot/alerts/${alert!.number}`, { state: 'dismissed', dismissed_reason: 'tolerable_risk' });
  expect(dismissed.status).toBe(200);
  await eventually('the alert event', () => printed.includes('dependency_bot_alert verified dismissed'));
  expect(printed.filter((line) => line.includes('bad signature'))).toEqual([]);
}, 60_000);
