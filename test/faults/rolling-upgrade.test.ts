import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { openDatabase, type Database } from '../../src/database/connection';
import { migrations } from '../../db/migrations';
import { AlertLane, alertPath } from '../durability/alert-lane';
import { apiClient, type ApiClient } from '../durability/api-client';
import { ALERT_COUNT, ORG, OWNER_TOKEN, REPO, crashWorld } from '../durability/crash-world';
import { seededRandom, type Lane } from '../durability/lane';
import { stopIfRunning } from '../durability/server-process';
import { startInstance, type Instance } from '../helpers/instances';
import { SNAPSHOT_REPO, SnapshotLane, driveThroughFaults, isSnapshotRefusal, patientClient, readLoop, recordingClient, type Recorded } from './outage-workload';
import { startPrivateCluster, type PrivateCluster } from './pg-cluster';
import { buildPreviousRelease, type Release } from './previous-release';

// Issue 36, part 4: a rolling upgrade, as the README's "Operating orgsec" describes it. Two
// instances of the previous release (the commit before the newest migration, built from
// history: ./previous-release.ts) serve one PostgreSQL database behind a round-robin
// balancer; a new-release instance starts (it runs the new migrations), the balancer sends
// to it, one old instance is drained and stopped; then the other. Meanwhile reads, the PATCH
// mix and snapshots run. No answer is a 5xx; the old instance answers as the new one does
// after the migration (migrations are expand-then-contract: they only add); every
// acknowledged write is there at the end.

const seed = Number(process.env.FAULT_SEED ?? Date.now() % 2 ** 31);

let cluster: PrivateCluster;
let previous: Release;
let database: Database;
const running = new Set<Instance>();

beforeAll(async () => {
  previous = buildPreviousRelease();
  cluster = await startPrivateCluster();
  // The previous release makes the database and loads the world, as it did in production.
  const world = crashWorld();
  const file = path.join(cluster.dir, 'world.json');
  fs.writeFileSync(file, JSON.stringify({ ...world, repositories: [...world.repositories, { owner: ORG, name: SNAPSHOT_REPO, private: true }] }));
  const load = spawnSync(process.execPath, [previous.cli, 'load', file, '--database', cluster.url], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
  if (load.status !== 0) throw new Error(`the previous release could not load the world: ${load.stderr}`);
  database = openDatabase(cluster.url, { poolMax: 2 });
}, 300_000);

afterAll(async () => {
  await Promise.all([...running].map(stopIfRunning));
  await database?.close();
  cluster?.destroy();
});

async function start(release: 'previous' | 'new'): Promise<Instance> {
  const instance = await startInstance(cluster.url, {}, [], release === 'previous' ? previous.cli : undefined);
  running.add(instance);
  return instance;
}

/** A balancer over the instances in rotation: each request goes to the next; an instance taken out gets no new ones. */
function balancer(log: Recorded[]) {
  const rotation: Instance[] = [];
  let next = 0;
  const clients = new Map<Instance, ApiClient>();
  const client: ApiClient = {
    send(method, requestPath, body) {
      const instance = rotation[next++ % rotation.length]!;
      return clients.get(instance)!.send(method, requestPath, body);
    },
  };
  return {
    client,
    add(instance: Instance) {
      clients.set(instance, recordingClient(instance.url, OWNER_TOKEN, log, true));
      rotation.push(instance);
    },
    /** Out of rotation, then a graceful stop: the requests it has finish. */
    async drain(instance: Instance) {
      rotation.splice(rotation.indexOf(instance), 1);
      await stopIfRunning(instance);
      running.delete(instance);
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The answers an instance gives to every alert and the list: what "answering correctly" compares. */
async function answersOf(instance: Instance): Promise<unknown[]> {
  const api = apiClient(instance.url, OWNER_TOKEN);
  const answers: unknown[] = [await api.send('GET', `/repos/${ORG}/${REPO}/dependency-bot/alerts?per_page=100&sort=created&direction=asc`)];
  for (let number = 1; number <= ALERT_COUNT; number++) answers.push(await api.send('GET', alertPath(number)));
  return answers;
}

it(`two previous-release instances replaced one at a time by the new release, under load: no 5xx, the old answers as the new after the migration, nothing lost (seed ${seed})`, async () => {
  const newMigrations = migrations.map(([name]) => name).filter((name) => !previous.migrations.includes(name));
  expect(newMigrations.length).toBeGreaterThan(0);

  const log: Recorded[] = [];
  const lb = balancer(log);
  const [oldA, oldB] = await Promise.all([start('previous'), start('previous')]);
  lb.add(oldA!);
  lb.add(oldB!);

  const random = seededRandom(seed);
  const numbers = Array.from({ length: ALERT_COUNT }, (_, i) => i + 1);
  const lanes: Lane[] = [...[0, 1, 2].map((lane) => new AlertLane(`alerts ${lane}`, numbers.filter((n) => n % 3 === lane), random)), new SnapshotLane()];
  const verifier = patientClient(lb.client);
  for (const lane of lanes) await lane.verify(verifier, database.knex);
  let writing = true;
  const isRunning = () => writing;
  const work = [
    ...lanes.map((lane, i) => driveThroughFaults(lane, lb.client, verifier, database.knex, isRunning, i === 3 ? 250 : 0)),
    readLoop(lb.client, `/repos/${ORG}/${REPO}/dependency-bot/alerts?per_page=100`, isRunning),
  ];
  await sleep(1_500);

  // The first new instance migrates as it starts; the old ones go on serving.
  const newC = await start('new');
  const applied: string[] = (await database.knex('knex_migrations').select('name')).map((r: { name: string }) => r.name.replace(/\.(ts|js)$/, ''));
  expect(newMigrations.filter((name) => !applied.includes(name))).toEqual([]);
  lb.add(newC);
  await sleep(1_000);
  await lb.drain(oldB!);
  await sleep(1_500);

  // Between the steps: the old instance left answers what the new one answers, read at a quiet moment.
  writing = false;
  const problems = (await Promise.all(work)).flat();
  expect(await answersOf(oldA!)).toEqual(await answersOf(newC));
  writing = true;
  const work2 = lanes.map((lane) => driveThroughFaults(lane, lb.client, verifier, database.knex, isRunning, lane instanceof SnapshotLane ? 250 : 0));
  await sleep(1_000);

  const newD = await start('new');
  lb.add(newD);
  await sleep(500);
  await lb.drain(oldA!);
  await sleep(1_000);
  writing = false;
  problems.push(...(await Promise.all(work2)).flat());

  // Settled through the new instances: every acknowledged write is there.
  for (const lane of lanes) problems.push(...(await lane.verify(verifier, database.knex)));
  expect(problems).toEqual([]);
  // A snapshot refused for its share of the instance (503, Retry-After) is an answer the README documents, not a failure.
  expect(log.filter((r) => r.status >= 500 && !isSnapshotRefusal(r)).map((r) => `${r.method} ${r.path} ${r.status} ${JSON.stringify(r.body)}`)).toEqual([]);
  expect(log.filter((r) => r.method === 'PATCH' && r.status === 200).length).toBeGreaterThan(10);
  // eslint-disable-next-line no-console
  console.log(`rolling upgrade from ${previous.commit.slice(0, 12)} (migrations added: ${newMigrations.join(', ')}): ${log.length} answers, none 5xx`);
}, 180_000);

it('an instance of the previous release does not start over the migrated database: it says a newer release migrated it', () => {
  const started = spawnSync(process.execPath, [previous.cli, 'migrate', '--database', cluster.url], { encoding: 'utf8', env: { ...process.env, DATABASE_URL: '' } });
  expect(started.status).toBe(1);
  expect(started.stderr).toMatch(/missing|newer/);
});
