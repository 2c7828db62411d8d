// Paired comparison of two builds by server CPU time per request, which a shared machine
// disturbs far less than throughput (test/bench/README.md, "Before and after the restructuring").
//   node test/bench/compare-builds.mjs BEFORE_DIR AFTER_DIR [ROUNDS] [REQUESTS]
// Each DIR is a built checkout (dist/) with the benchmark's world in .bench/bench.sqlite (one
// `npm run bench` there makes it); AFTER runs twice, SQLITE_FAST_PATHS on and off. Linux (/proc).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
const [BEFORE, AFTER] = process.argv.slice(2, 4);
if (!BEFORE || !AFTER) throw new Error('usage: compare-builds.mjs BEFORE_DIR AFTER_DIR [ROUNDS] [REQUESTS]');
const ROUNDS = Number(process.argv[4] ?? 3), N = Number(process.argv[5] ?? 3000);
const TOKEN = 'bench_owner_token_0123456789', ORG = 'bench-org-0';
const builds = [
  { name: 'old', dir: BEFORE, env: {} },
  { name: 'new-on', dir: AFTER, env: { SQLITE_FAST_PATHS: 'on' } },
  { name: 'new-off', dir: AFTER, env: { SQLITE_FAST_PATHS: 'off' } },
];
const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
let port = 4800;
const ticks = (pid) => { const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(f[11]) + Number(f[12]); };
const req = (method, path, headers = {}, body) => new Promise((resolve, reject) => {
  const r = http.request({ port, method, path, agent, headers: { authorization: `Bearer ${TOKEN}`, ...headers } }, (res) => {
    const chunks = []; res.on('data', (c) => chunks.push(c)); res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
  });
  r.on('error', reject); if (body) r.end(body); else r.end();
});
async function drive(pid, make, n) {
  let i = 0; const before = ticks(pid);
  const worker = async () => { while (i < n) { const k = i++; const r = await make(k); if (r.status >= 400) throw new Error(`${r.status} ${r.body.toString().slice(0, 200)}`); } };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return ((ticks(pid) - before) * 10_000) / n; // µs per request (100 ticks/s)
}
const STATES = ['open', 'dismissed', 'fixed', 'open,dismissed', 'open,fixed', 'auto_dismissed,open'];
const SEVS = ['low', 'medium', 'high', 'critical', 'high,critical', 'low,medium', 'medium,high', 'low,critical'];
const distinct = (k) => `/orgs/${ORG}/dependency-bot/alerts?per_page=${20 + (k % 81)}&state=${STATES[Math.floor(k / 81) % 6]}&severity=${SEVS[Math.floor(k / 486) % 8]}`;
const gqlBody = JSON.stringify({ query: `{ organization(login: "${ORG}") { dependencyAlerts(first: 30) { edges { node { number state createdAt securityAdvisory { svcsaId severity summary } dependency { manifestPath scope } } } } } }` });
async function withServer(build, env, work) {
  port++;
  const db = `${os.tmpdir()}/compare-builds-${build.name}.sqlite`;
  const child = spawn('node', [`${build.dir}/dist/src/cli/index.js`, 'serve', '--port', String(port), '--database', db], { env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...build.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  for (let t = 0; t < 200; t++) { try { if ((await req('GET', '/healthz')).status === 200) break; } catch {} await new Promise((r) => setTimeout(r, 100)); }
  try { return await work(child.pid); } finally { child.kill(); await new Promise((r) => child.once('exit', r)); }
}
const results = {};
const record = (b, s, v) => ((results[s] ??= {})[b] ??= []).push(v);
for (const b of builds) fs.copyFileSync(`${b.dir}/.bench/bench.sqlite`, `${os.tmpdir()}/compare-builds-${b.name}.sqlite`);
for (let round = 0; round < ROUNDS; round++) {
  for (const b of (round % 2 ? [...builds].reverse() : builds)) {
    await withServer(b, {}, async (pid) => {
      const first = `/orgs/${ORG}/dependency-bot/alerts?per_page=30`;
      const etag = (await req('GET', first)).headers.etag;
      await drive(pid, () => req('GET', first), 300); // warm
      record(b.name, 'same page repeated', await drive(pid, () => req('GET', first), N));
      record(b.name, '304', await drive(pid, () => req('GET', first, { 'if-none-match': etag }), N));
      await drive(pid, () => req('POST', '/graphql', { 'content-type': 'application/json' }, gqlBody), 100);
      record(b.name, 'GraphQL same query', await drive(pid, () => req('POST', '/graphql', { 'content-type': 'application/json' }, gqlBody), N));
      await drive(pid, (k) => req('GET', distinct(3000 + k)), 100);
      record(b.name, 'distinct pages', await drive(pid, (k) => req('GET', distinct(k + round * 500)), Math.round(N / 4)));
    });
    await withServer(b, { RESPONSE_CACHE_MB: '0' }, async (pid) => {
      const first = `/orgs/${ORG}/dependency-bot/alerts?per_page=30`;
      await drive(pid, () => req('GET', first), 200);
      record(b.name, 'first page built (cache off)', await drive(pid, () => req('GET', first), Math.round(N / 3)));
      const gq = gqlBody;
      await drive(pid, () => req('POST', '/graphql', { 'content-type': 'application/json' }, gq), 50);
      record(b.name, 'GraphQL built (cache off)', await drive(pid, () => req('POST', '/graphql', { 'content-type': 'application/json' }, gq), Math.round(N / 3)));
    });
    console.error(`round ${round + 1} ${b.name} done ${new Date().toISOString().slice(11, 19)}`);
  }
}
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
console.log(`| scenario (server CPU µs per request, median of ${ROUNDS}) | before | after, fast paths on | after, SQLITE_FAST_PATHS=off | on/before | off/before |`);
console.log('|---|---:|---:|---:|---:|---:|');
for (const [s, r] of Object.entries(results)) {
  const [o, on, off] = [median(r.old), median(r['new-on']), median(r['new-off'])];
  console.log(`| ${s} | ${o.toFixed(0)} | ${on.toFixed(0)} | ${off.toFixed(0)} | ×${(on / o).toFixed(2)} | ×${(off / o).toFixed(2)} |  (all: before ${r.old.map((x) => x.toFixed(0)).join('/')}, on ${r["new-on"].map((x) => x.toFixed(0)).join('/')}, off ${r['new-off'].map((x) => x.toFixed(0)).join('/')})`);
}
agent.destroy();
