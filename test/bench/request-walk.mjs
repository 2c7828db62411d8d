// Which product files one request runs, counted with V8's precise coverage: the closing notes'
// "walk of a request through the house" (issue 19). Starts the built server in this process on
// the demo world, warms it, then counts the dist/src files with any function called by one
// request: a REST alert list after a write (every cache cold), with warm caches but a URL the
// response cache has not seen, and repeated (answered from the response cache); a GraphQL
// alert query after a write.
//   npm run build && node test/bench/request-walk.mjs
import fs from 'node:fs';
import inspector from 'node:inspector/promises';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const DIST = path.join(ROOT, 'dist', 'src') + path.sep;
const { startServer } = require(path.join(DIST, 'main.js'));
const { loadConfig } = require(path.join(DIST, 'config.js'));
const { readWorldFile } = require(path.join(DIST, 'cli', 'load.command.js'));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-walk-'));
const config = loadConfig({ DATABASE_URL: path.join(dir, 'walk.sqlite'), PORT: '0', LOG_LEVEL: 'silent', RATE_LIMITS: 'off' });
const running = await startServer(config, { beforeListen: async (services) => { await services.world.load(readWorldFile(path.join(ROOT, 'db', 'demo-world.json'))); } });
const TOKEN = 'svc_demo_alice_owner';
const send = async (method, url, body, headers = {}) => {
  const res = await fetch(running.url + url, { method, headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', ...headers }, body: body && JSON.stringify(body) });
  await res.arrayBuffer();
  if (res.status >= 400) throw new Error(`${method} ${url}: ${res.status}`);
};
const session = new inspector.Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

async function filesOf(request) {
  await session.post('Profiler.takePreciseCoverage'); // resets the counts
  await request();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  return result
    .filter((script) => script.url.startsWith('file://' + DIST) && script.functions.some((f) => f.ranges.some((r) => r.count > 0)))
    .map((script) => script.url.slice(('file://' + DIST).length)).sort();
}
const ALERTS = '/orgs/acme-corp/dependency-bot/alerts?state=open&per_page=10';
const QUERY = { query: '{ organization(login: "acme-corp") { dependencyAlerts(first: 10) { totalCount edges { node { number state securityAdvisory { svcsaId severity } repository { nameWithOwner } assignees { login } } } } } }' };
const write = () => send('PATCH', '/repos/acme-corp/api/dependency-bot/alerts/1', { assignees: [] });
for (let i = 0; i < 3; i++) { await send('GET', ALERTS); await send('POST', '/graphql', QUERY); }
const walks = {
  'REST alert list, after a write': await (async () => { await write(); return filesOf(() => send('GET', ALERTS)); })(),
  'REST alert list, caches warm, built': await filesOf(() => send('GET', ALERTS + '&direction=desc')),
  'REST alert list, repeated': await filesOf(() => send('GET', ALERTS)),
  'GraphQL alert query, after a write': await (async () => { await write(); return filesOf(() => send('POST', '/graphql', QUERY)); })(),
};
for (const [name, files] of Object.entries(walks)) console.log(`\n${name}: ${files.length} files\n  ${files.join('\n  ')}`);
await running.close();
fs.rmSync(dir, { recursive: true, force: true });
