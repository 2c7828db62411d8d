import http from 'node:http';
import { openDatabase, type Database } from '../../src/database/connection';
import { loadWorld, sharedDatabase, startInstance, type Instance, type SharedDatabase } from '../helpers/instances';

// The snapshot queue (src/modules/dependency-graph/snapshot-queue.ts) through real `orgsec
// serve` processes: a snapshot that arrives while the instance answers another request is
// stored and queued (201 ACCEPTED), and the worker applies the queue in order; a full queue
// refuses with 503 and Retry-After before storing anything; what is queued survives the
// instance (another applies it), and a snapshot that cannot be applied does not stop the rest.

const ORG = 'sq-org';
const REPO = `${ORG}/app`;
const TOKEN = 'sq_owner_token';
const ADVISORY = 'SVCSA-sq00-0000-0001';
const QUEUED = /queued/;

let shared: SharedDatabase;
let database: Database;
let instance: Instance | undefined;
let scan = 0;

const world = {
  users: [{ login: 'sq-owner' }],
  organizations: [{ login: ORG, owners: ['sq-owner'] }],
  repositories: [{ owner: ORG, name: 'app', private: true }],
  tokens: [{ token: TOKEN, type: 'classic', user: 'sq-owner', scopes: ['repo'] }],
  advisories: [{
    svcsa_id: ADVISORY, classification: 'general', summary: 'left-pad', description: 'left-pad', severity: 'high',
    published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z',
    vulnerabilities: [{ package: { ecosystem: 'npm', name: 'left-pad' }, severity: 'high', vulnerable_version_range: '>= 1.0.0, < 1.3.1', first_patched_version: { identifier: '1.3.1' } }],
  }],
};

/** The next scan of the repository (scanned a minute after the last), holding left-pad at `version`. */
function snapshot(version: string): Record<string, unknown> {
  scan++;
  return {
    version: 0, sha: scan.toString(16).padStart(40, '0'), ref: 'refs/heads/main', scanned: new Date(Date.UTC(2026, 3, 1) + scan * 60_000).toISOString(),
    job: { id: `run-${scan}`, correlator: 'ci' }, detector: { name: 'sq-detector', version: '1', url: 'https://example.com/sq' },
    manifests: { 'package-lock.json': { name: 'package-lock.json', resolved: { 'left-pad': { package_url: `pkg:npm/left-pad@${version}`, relationship: 'direct' } } } },
  };
}

async function post(base: string, body: unknown) {
  const res = await fetch(`${base}/repos/${REPO}/dependency-graph/snapshots`, {
    method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() as Record<string, any> };
}

/** A snapshot sent again after its Retry-After while refused (503), as Octokit's retry plugin does: its answer. */
async function postUntilTaken(base: string, body: unknown) {
  for (let tries = 1; ; tries++) {
    const answer = await post(base, body);
    if (answer.status !== 503 || tries === 5) return answer;
    await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter) * 1000));
  }
}

/**
 * A request the instance is answering until released: its body is announced and never sent,
 * so the server waits for it (the instance then has someone a snapshot would make wait).
 */
function heldRequest(base: string): { release(): void } {
  const request = http.request(`${base}/repos/${REPO}/dependency-bot/alerts/1`, {
    method: 'PATCH', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': '1000' },
  });
  request.on('error', () => undefined);
  request.write('{');
  return { release: () => request.destroy() };
}

async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean, seconds = 30): Promise<T> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what}: still ${JSON.stringify(value)} after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const queueLength = async () => Number((await database.knex('dependency_snapshot_queue').count({ n: '*' }).first())?.n ?? 0);
const storedSnapshots = async () => Number((await database.knex('dependency_snapshots').count({ n: '*' }).first())?.n ?? 0);
const snapshotRows = (ids: number[]) => database.knex('dependency_snapshots').whereIn('id', ids).orderBy('id').select('id', 'result', 'queued_at', 'applied_at');

async function alerts(base: string): Promise<Array<Record<string, any>>> {
  const res = await fetch(`${base}/repos/${REPO}/dependency-bot/alerts?per_page=100`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return await res.json() as Array<Record<string, any>>;
}

async function restart(env: Record<string, string> = {}): Promise<Instance> {
  await instance?.stop();
  instance = await startInstance(shared.url, env);
  return instance;
}

beforeAll(async () => {
  shared = await sharedDatabase();
  instance = await startInstance(shared.url); // migrates
  loadWorld(shared.url, world);
  database = openDatabase(shared.url);
}, 120_000);

afterAll(async () => {
  await instance?.stop();
  await database?.close();
  await shared?.drop();
});

it('alone, a snapshot is applied in its request (SUCCESS) and its alert is there at once', async () => {
  const base = instance!.url;
  const answer = await post(base, snapshot('1.0.0'));
  expect(answer.status).toBe(201);
  expect(answer.body.result).toBe('SUCCESS');
  expect((await alerts(base)).map((a) => [a.number, a.state])).toEqual([[1, 'open']]);
  const [row] = await snapshotRows([answer.body.id]);
  expect(row.queued_at).toBeNull();
  expect(row.applied_at).not.toBeNull();
});

it('while another request is answered, snapshots are queued (ACCEPTED) and applied in the order they came', async () => {
  const base = instance!.url;
  const held = heldRequest(base);
  try {
    await new Promise((resolve) => setTimeout(resolve, 100)); // the server has the held request
    // Fixed, vulnerable again, fixed, vulnerable again: only the order they came in ends open.
    const answers = [];
    // Past the snapshots' share of the instance one is refused for a moment, and sent again.
    for (const version of ['1.3.1', '1.2.0', '1.4.0', '1.1.0']) answers.push(await postUntilTaken(base, snapshot(version)));
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      expect(answer.body.result).toBe('ACCEPTED');
      expect(answer.body.message).toMatch(QUEUED);
    }
    const ids = answers.map((answer) => Number(answer.body.id));
    const rows = await until('the queued snapshots applied', () => snapshotRows(ids), (rs) => rs.every((r) => r.applied_at !== null));
    expect(rows.map((r) => r.result)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect(rows.every((r) => r.queued_at !== null && r.queued_at <= r.applied_at)).toBe(true);
    const appliedOrder = [...rows].sort((p, q) => (p.applied_at < q.applied_at ? -1 : p.applied_at > q.applied_at ? 1 : p.id - q.id));
    expect(appliedOrder.map((r) => r.id)).toEqual(ids);
    expect(await queueLength()).toBe(0);
  } finally {
    held.release();
  }
  // The last one came vulnerable: the alert is open again, and it is still the only one.
  expect((await alerts(base)).map((a) => [a.number, a.state])).toEqual([[1, 'open']]);
});

it('a full queue refuses with 503 and Retry-After before storing anything, on REST and GraphQL', async () => {
  // A 1% share and a 1 s bound: while another request is answered, even an empty queue would wait longer than allowed.
  const base = (await restart({ SNAPSHOT_WORKER_SHARE: '1', SNAPSHOT_QUEUE_MAX_DELAY: '1' })).url;
  const stored = await storedSnapshots();
  const held = heldRequest(base);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const answer = await post(base, snapshot('1.0.0'));
  expect(answer.status).toBe(503);
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(answer.body).toEqual({ message: expect.stringMatching(/try again in \d+ seconds?/), documentation_url: expect.any(String), status: '503' });
  const graphql = await fetch(`${base}/graphql`, {
    method: 'POST', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: 'mutation($s: JSON!) { submitDependencySnapshot(input: { owner: "sq-org", repository: "app", snapshot: $s }) { id result } }', variables: { s: snapshot('1.0.0') } }),
  });
  const result = await graphql.json() as { data: { submitDependencySnapshot: unknown }; errors: Array<{ extensions: Record<string, unknown> }> };
  expect(result.data.submitDependencySnapshot).toBeNull();
  expect(result.errors[0]!.extensions).toEqual({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: expect.any(Number) });
  expect(await storedSnapshots()).toBe(stored);
  held.release();
  // Nobody else answered: nobody to keep the share for, so the same snapshot is applied.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const alone = await post(base, snapshot('1.0.0'));
  expect([alone.status, alone.body.result]).toEqual([201, 'SUCCESS']);
  // What the operator sees: both refusals counted, and the applied snapshot's time.
  const metrics = await (await fetch(`${base}/metrics`)).text();
  expect(Number(/^orgsec_snapshots_refused_total (\S+)$/m.exec(metrics)?.[1])).toBe(2);
  expect(Number(/^orgsec_snapshot_work_seconds_total (\S+)$/m.exec(metrics)?.[1])).toBeGreaterThan(0);
});

it('what an instance queued and did not apply, the next instance applies, in order', async () => {
  // A 5% share with no bound to speak of: after each application the worker rests 19 times as long.
  let base = (await restart({ SNAPSHOT_WORKER_SHARE: '5', SNAPSHOT_QUEUE_MAX_DELAY: '3600' })).url;
  const held = heldRequest(base);
  await new Promise((resolve) => setTimeout(resolve, 100));
  const ids: number[] = [];
  for (const version of ['1.3.1', '1.2.0', '1.3.2']) ids.push(Number((await postUntilTaken(base, snapshot(version))).body.id));
  held.release();
  instance!.process.kill('SIGKILL'); // nothing is given back: what it had not applied stays queued
  await new Promise((resolve) => instance!.process.once('exit', resolve));
  base = (await restart()).url;
  const rows = await until('the snapshots applied after the restart', () => snapshotRows(ids), (rs) => rs.every((r) => r.applied_at !== null));
  expect(rows.map((r) => r.result)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
  expect([...rows].sort((p, q) => (p.applied_at < q.applied_at ? -1 : 1)).map((r) => r.id)).toEqual(ids);
  expect((await alerts(base)).map((a) => [a.number, a.state])).toEqual([[1, 'fixed']]);
});

it('a queued snapshot that cannot be applied leaves the queue after its attempts; the ones behind it are applied', async () => {
  await instance?.stop();
  instance = undefined;
  // Two snapshots queued by hand behind a stopped instance, the first with packages that no longer read.
  const template = await database.knex('dependency_snapshots').orderBy('id', 'desc').first();
  const manifest = await database.knex('dependency_snapshot_manifests').where('snapshot_id', template.id).first();
  const ids: number[] = [];
  for (const [i, packages] of ['not json', manifest.packages.replaceAll('1.3.2', '1.0.5')].entries()) {
    const { id: _id, ...row } = template;
    const [inserted] = await database.knex('dependency_snapshots')
      .insert({ ...row, job_id: `poison-${i}`, scanned: new Date(Date.UTC(2026, 5, 1) + i * 60_000).toISOString(), result: 'ACCEPTED', queued_at: new Date().toISOString(), applied_at: null })
      .returning('id');
    const id = Number((inserted as { id: number }).id ?? inserted);
    const { id: _manifestId, ...manifestRow } = manifest;
    await database.knex('dependency_snapshot_manifests').insert({ ...manifestRow, snapshot_id: id, packages });
    await database.knex('dependency_snapshot_queue').insert({ snapshot_id: id, repo_id: template.repo_id, attempts: 0 });
    ids.push(id);
  }
  const base = (await restart()).url;
  await until('the queue emptied', queueLength, (n) => n === 0);
  const [poisoned, good] = await snapshotRows(ids);
  expect([poisoned.result, poisoned.applied_at]).toEqual(['ACCEPTED', null]);
  expect(good.result).toBe('SUCCESS');
  expect((await alerts(base)).map((a) => [a.number, a.state])).toEqual([[1, 'open']]);
}, 60_000);
