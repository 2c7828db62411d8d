import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI, cleanEnv, serveBuilt } from './built-cli';

// `orgsec serve` runs the server in a thread whose heap HEAP_MB sets (auto: 96 MB plus
// CACHE_MB), as the built CLI is run: the limit in force is what V8 reports in
// /metrics, the stop signals still stop it gracefully, and running out of that heap ends
// the process with a line saying which settings to change.

const MB = 2 ** 20;
/** src/cli/serve-thread.ts: the young generation added to HEAP_MB. */
const YOUNG_GENERATION_MB = 12;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-serve-thread-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function heapLimitOf(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^orgsec_heap_limit_bytes (\d+)$/m.exec(text)?.[1]);
}

it.each([
  ['the defaults', {}, 96 + 64],
  ['CACHE_MB (the response cache\'s buffers live outside the heap)', { CACHE_MB: '16', RESPONSE_CACHE_MB: '8' }, 96 + 16],
  ['HEAP_MB', { HEAP_MB: '300', CACHE_MB: '16' }, 300],
])('sizes the server\'s heap by %s', async (_name, env, heapMb) => {
  const serving = await serveBuilt(['--port', '0', '--log-level', 'warn'], { DATABASE_URL: path.join(dir, `${heapMb}.sqlite`), ...env });
  try {
    expect(await heapLimitOf(serving.url)).toBe((heapMb + YOUNG_GENERATION_MB) * MB);
  } finally {
    await serving.stop();
  }
}, 60_000);

it('--heap-mb wins over HEAP_MB, and the listening line reports the limit', async () => {
  // The log line (pino, written asynchronously) and the banner may reach stdout in either order.
  const bothLines = /^(?=[\s\S]*"msg":"orgsec listening"[^\n]*\n)(?=[\s\S]*serving at http:\/\/\S+\n)/;
  const serving = await serveBuilt(['--port', '0', '--heap-mb', '128'], { DATABASE_URL: path.join(dir, 'flag.sqlite'), HEAP_MB: '400' }, bothLines);
  try {
    expect(await heapLimitOf(serving.url)).toBe((128 + YOUNG_GENERATION_MB) * MB);
    expect(serving.output).toContain(`"heapLimitMb":${128 + YOUNG_GENERATION_MB}`);
  } finally {
    await serving.stop();
  }
}, 60_000);

it('stops gracefully on SIGINT, naming the signal, and exits 0', async () => {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0'], { env: cleanEnv({ DATABASE_URL: path.join(dir, 'sigint.sqlite') }), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  await new Promise<void>((resolve) => child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (/serving at http/.test(stdout)) resolve();
  }));
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  child.kill('SIGINT');
  expect(await exit).toBe(0);
  expect(stdout).toMatch(/"signal":"SIGINT","msg":"shutting down"/);
}, 60_000);

it('a server that outgrows HEAP_MB ends with exit 1 and says which settings to change', async () => {
  // The serve thread's runner over a script that only allocates: the real out-of-memory path.
  const hog = path.join(dir, 'hog.js');
  fs.writeFileSync(hog, 'const kept = []; for (;;) kept.push(new Array(1e5).fill(Math.random()));\n');
  const runner = `require(${JSON.stringify(path.join(path.dirname(CLI), 'serve-thread.js'))}).runServeThread(${JSON.stringify(hog)}, [], 64)`;
  const child = spawn(process.execPath, ['-e', runner], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  expect(code).toBe(1);
  expect(stderr.trim()).toBe('error: orgsec ran out of its 64 MB heap: raise HEAP_MB (--heap-mb), or lower CACHE_MB');
}, 60_000);
