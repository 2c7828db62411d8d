import path from 'node:path';
import { openDatabase } from '../../src/database/connection';
import { apiClient } from '../durability/api-client';
import { prepareCrashDatabase } from '../durability/crash-database';
import { OWNER_TOKEN } from '../durability/crash-world';
import { stopIfRunning } from '../durability/server-process';
import { acknowledgedSoFar, alertsNotFromHistory, moreWritesAcknowledged, patchMix, readAlertStates } from '../helpers/alert-history';
import { startInstance, type Instance } from '../helpers/instances';
import { hashTables } from '../helpers/table-hash';
import { startPrivateCluster, type PrivateCluster } from './pg-cluster';

// Issue 36, part 3: PostgreSQL is backed up with its own tools, as the README's "Operating
// orgsec" says: `pg_dump -Fc` while an instance serves the PATCH mix, `pg_restore` into an
// empty database. The restored database equals the source at the dump's moment: the test
// holds a transaction on the snapshot it hands pg_dump (`--snapshot`, only to know that
// moment; pg_dump alone takes one snapshot the same way) and compares every table's rows;
// served, the restored database answers each alert as an acknowledged write left it.

let cluster: PrivateCluster;
let instance: Instance;

beforeAll(async () => {
  cluster = await startPrivateCluster();
  await prepareCrashDatabase(cluster.url);
  instance = await startInstance(cluster.url);
}, 120_000);
afterAll(async () => {
  if (instance) await stopIfRunning(instance);
  cluster?.destroy();
});

it('a dump taken during the PATCH mix restores to a database equal to the source at the dump\'s moment', async () => {
  const api = apiClient(instance.url, OWNER_TOKEN);
  const history = await readAlertStates(api);
  let running = true;
  const writing = patchMix(api, history, () => running);
  await moreWritesAcknowledged(history, 5);

  const source = openDatabase(cluster.url, { poolMax: 2 }).knex;
  const dump = path.join(cluster.dir, 'orgsec.dump');
  try {
    const moment = await source.transaction({ isolationLevel: 'repeatable read' });
    try {
      const { rows: [{ snapshot }] } = await moment.raw('select pg_export_snapshot() as snapshot');
      const acknowledgedBefore = acknowledgedSoFar(history);
      await cluster.tool('pg_dump', ['-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres', '-Fc', `--snapshot=${snapshot}`, '-f', dump, 'orgsec']);
      await moreWritesAcknowledged(history, 3); // writes go on after the dump's moment
      running = false;
      await writing;
      const atTheDump = await hashTables(moment);

      cluster.psql('CREATE DATABASE orgsec_restored', 'postgres');
      await cluster.tool('pg_restore', ['-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres', '-d', 'orgsec_restored', '--exit-on-error', dump]);
      const restored = openDatabase(cluster.urlOf('orgsec_restored'), { poolMax: 2 }).knex;
      try {
        expect(await hashTables(restored)).toEqual(atTheDump);
        // The source moved on since: the copy is of the moment, not of now.
        expect(await hashTables(source)).not.toEqual(atTheDump);
      } finally {
        await restored.destroy();
      }

      const served = await startInstance(cluster.urlOf('orgsec_restored'));
      try {
        const copied = await readAlertStates(apiClient(served.url, OWNER_TOKEN));
        expect(alertsNotFromHistory(copied, history, acknowledgedBefore)).toEqual([]);
      } finally {
        await stopIfRunning(served);
      }
    } finally {
      await moment.rollback();
    }
  } finally {
    running = false;
    await writing.catch(() => undefined);
    await source.destroy();
  }
}, 120_000);
