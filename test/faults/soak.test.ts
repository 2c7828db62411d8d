import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { startPrivateCluster, type PrivateCluster } from './pg-cluster';

// The short version of `npm run soak` (issue 36, part 5; the 30-minute run is the README's):
// the benchmark's mixed workload through two instances on PostgreSQL (a server of the test's
// own) for 45 s in 5 s intervals. After the first 15 s each instance's RSS grows at most 10%,
// no answer is an error, and the instances hold no more connections to the database than
// they did then. The tail is reported, not judged (no timed assertion in a test).

const ROOT = path.join(__dirname, '..', '..');
let cluster: PrivateCluster;

beforeAll(async () => {
  // The soak is part of the benchmark's build (.bench/build), which npm test does not make.
  const build = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-b', 'test/bench/tsconfig.json'], { cwd: ROOT, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`the benchmark did not build:\n${build.stdout}${build.stderr}`);
  cluster = await startPrivateCluster();
}, 180_000);
afterAll(() => cluster?.destroy());

it('45 s of the mixed workload over two instances: RSS flat, no error answers, no connection leak', async () => {
  const child = spawn(process.execPath, [path.join(ROOT, '.bench', 'build', 'test', 'bench', 'soak.js')], {
    cwd: ROOT,
    env: {
      ...process.env, SOAK_DATABASE_URL: cluster.url, SOAK_MINUTES: '0.75', SOAK_INTERVAL_SECONDS: '5', SOAK_WARM_MINUTES: '0.25',
      SOAK_ALERTS: '2000', SOAK_CONNECTIONS: '8', SOAK_JUDGE_P99: 'off',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
  child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  const verdicts = stdout.split('\n').filter((line) => /^(ok|FAIL) /.test(line));
  // eslint-disable-next-line no-console
  console.log(stdout);
  expect({ code, stderr: code === 0 ? '' : stderr }).toEqual({ code: 0, stderr: '' });
  expect(verdicts).toHaveLength(5); // two RSS lines, errors, connections, the tail
  expect(verdicts.filter((line) => line.startsWith('FAIL'))).toEqual([]);
}, 180_000);
