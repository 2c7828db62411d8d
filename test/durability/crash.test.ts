import type { Knex } from 'knex';
import { openDatabase } from '../../src/database/connection';
import { sharedDatabase, startInstance, type SharedDatabase } from '../helpers/instances';
import { dialect } from '../helpers/test-database';
import { createSigner } from '../helpers/signed-bundles';
import { AlertLane, alertPath, isWholeUpdate, type AlertUpdate } from './alert-lane';
import { alertRows } from './alert-rows';
import { apiClient } from './api-client';
import { AttestationLane } from './attestation-lane';
import { runCrashLoop } from './crash-loop';
import { prepareCrashDatabase } from './crash-database';
import { ALERT_COUNT, MEMBERS, OWNER_TOKEN } from './crash-world';
import { seededRandom, type Lane, type Random } from './lane';
import { holdRowLock, isRowLocked, type HeldLock, locksHeldBy, waitForBackendBlockedBy, waitForBackendGone } from './pg-locks';
import { sigkill, stopIfRunning } from './server-process';
import { sqliteIntegrityProblems, walBytes } from './sqlite-checks';
import { ToggleLane } from './toggle-lane';
import { oidcInclusions, roleAssignments } from './toggle-targets';

// Nothing acknowledged is lost: real `orgsec serve` processes take a stream of mixed writes
// over HTTP and are killed with SIGKILL at random moments, then restarted over the same
// database. The seed (in the test name) repeats a run's choice of writes and kill delays:
// CRASH_SEED=<seed> npx jest -c test/jest.config.js test/durability

const seed = Number(process.env.CRASH_SEED ?? Date.now() % 2 ** 31);
const describeOn = (wanted: typeof dialect) => (dialect === wanted ? describe : describe.skip);

/** Three alert lanes of four alerts each, role assignments, OIDC inclusions and attestations. */
async function mixedLanes(databaseUrl: string, random: Random): Promise<Lane[]> {
  const roleIds = await prepareCrashDatabase(databaseUrl);
  const alertNumbers = Array.from({ length: ALERT_COUNT }, (_, i) => i + 1);
  return [
    ...[0, 1, 2].map((lane) => new AlertLane(`alerts ${lane}`, alertNumbers.filter((n) => n % 3 === lane), random)),
    new ToggleLane('role assignments', roleAssignments(roleIds), random),
    new ToggleLane('oidc inclusions', oidcInclusions(), random),
    new AttestationLane(await createSigner()),
  ];
}

describeOn('sqlite')(`SQLite: orgsec serve killed with SIGKILL mid-stream (seed ${seed})`, () => {
  let db: SharedDatabase;
  beforeAll(async () => { db = await sharedDatabase(); });
  afterAll(async () => { await db?.drop(); });

  it('after 12 kills, every acknowledged write is there, every write in flight is whole or absent, and integrity_check is ok', async () => {
    const random = seededRandom(seed);
    let killsLeavingLog = 0;
    const result = await runCrashLoop({
      databaseUrl: db.url,
      lanes: await mixedLanes(db.url, random),
      kills: 12,
      random,
      acknowledgedBeforeKill: 5,
      writeMs: { min: 0, max: 450 },
      checkDatabase: sqliteIntegrityProblems,
      afterKill: () => { if (walBytes(db.url) > 0) killsLeavingLog += 1; },
    });
    expect(result.problems).toEqual([]);
    // The kills really landed mid-stream, and each left a write-ahead log for the restart to
    // recover from (a clean close checkpoints and deletes it).
    expect(result.inFlight).toBeGreaterThan(0);
    expect(result.acknowledged).toBeGreaterThanOrEqual(12 * 5);
    expect(killsLeavingLog).toBe(12);
  }, 120_000);
});

describeOn('postgres')(`PostgreSQL: orgsec serve killed with SIGKILL (seed ${seed})`, () => {
  it('after 6 kills at random moments, every acknowledged write is there and every write in flight is whole or absent', async () => {
    const db = await sharedDatabase();
    try {
      const random = seededRandom(seed);
      const result = await runCrashLoop({ databaseUrl: db.url, lanes: await mixedLanes(db.url, random), kills: 6, random, acknowledgedBeforeKill: 5, writeMs: { min: 0, max: 700 } });
      expect(result.problems).toEqual([]);
      expect(result.inFlight).toBeGreaterThan(0);
      expect(result.acknowledged).toBeGreaterThanOrEqual(6 * 5);
    } finally {
      await db.drop();
    }
  }, 120_000);

  describe('killed inside a transaction: its alert row updated, its assignee insert waiting on a row lock this test holds', () => {
    const ALERT = 1;
    /** The assignee whose account row the test locks: inserting an assignee row must share-lock it (foreign key). */
    const BLOCKER = MEMBERS[0]!;
    const updates: AlertUpdate[] = [
      { state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'killed mid-transaction', assignees: [BLOCKER, MEMBERS[1]!] },
      { state: 'open', assignees: [BLOCKER] },
    ];
    let db: SharedDatabase;
    let knex: Knex;

    beforeAll(async () => {
      db = await sharedDatabase();
      await prepareCrashDatabase(db.url);
      knex = openDatabase(db.url, { poolMax: 4 }).knex;
    });
    afterAll(async () => {
      await knex?.destroy();
      await db?.drop();
    });

    it.each(updates.map((update) => [update.state, update] as const))(
      'an update to %s rolls back whole, leaves no lock behind, and a restarted instance applies it',
      async (_state, update) => {
        const victim = await startInstance(db.url);
        let held: HeldLock | undefined;
        try {
          const api = apiClient(victim.url, OWNER_TOKEN);
          const before = (await api.send('GET', alertPath(ALERT))).body;
          const stored = await alertRows(knex, ALERT);
          held = await holdRowLock(knex, 'accounts', { login: BLOCKER });
          const patch = api.send('PATCH', alertPath(ALERT), update).then(() => 'answered', () => 'never answered');
          const blocked = await waitForBackendBlockedBy(knex, held.pid);
          // Half-way: the alert row is written (the transaction has an id and holds the row), the assignees are not.
          expect(blocked.query).toMatch(/^insert into "dependency_alert_assignees"/);
          expect(blocked.xid).not.toBeNull();
          expect(await isRowLocked(knex, 'dependency_alerts', { id: stored.alert.id })).toBe(true);

          await sigkill(victim);
          expect(await patch).toBe('never answered');
          await held.release();
          held = undefined;
          await waitForBackendGone(knex, blocked.pid);
          expect(await alertRows(knex, ALERT)).toEqual(stored);
          expect(await isRowLocked(knex, 'dependency_alerts', { id: stored.alert.id })).toBe(false);
          expect(await locksHeldBy(knex, blocked.pid)).toBe(0);

          const restarted = await startInstance(db.url);
          try {
            const answer = await apiClient(restarted.url, OWNER_TOKEN).send('PATCH', alertPath(ALERT), update);
            expect(answer.status).toBe(200);
            expect(isWholeUpdate(answer.body, before, update)).toBe(true);
          } finally {
            await stopIfRunning(restarted);
          }
        } finally {
          await held?.release();
          await sigkill(victim);
        }
      },
      60_000,
    );

    it('PostgreSQL ends a dead instance\'s session while it still waits, freeing its locks (orgsec sets client_connection_check_interval on its connections)', async () => {
      const alert = 2;
      const victim = await startInstance(db.url);
      let held: HeldLock | undefined;
      try {
        const stored = await alertRows(knex, alert);
        held = await holdRowLock(knex, 'accounts', { login: BLOCKER });
        const patch = apiClient(victim.url, OWNER_TOKEN).send('PATCH', alertPath(alert), updates[0]).then(() => 'answered', () => 'never answered');
        const blocked = await waitForBackendBlockedBy(knex, held.pid);
        expect(blocked.xid).not.toBeNull();
        await sigkill(victim);
        expect(await patch).toBe('never answered');
        // The lock it waits on is still held here: without the check it would keep its own locks until then.
        await waitForBackendGone(knex, blocked.pid, 5_000);
        expect(await isRowLocked(knex, 'dependency_alerts', { id: stored.alert.id })).toBe(false);
        expect(await alertRows(knex, alert)).toEqual(stored);
      } finally {
        await held?.release();
        await sigkill(victim);
      }
    });
  });
});
