import pino from 'pino';
import { openDatabase, type Database } from '../../src/database/connection';
import { migrateLatest } from '../../src/database/migrate';
import { AuditLogStore, type AuditRow } from '../../src/modules/audit-log/audit-log.store';
import { AuditRetention, PRUNE_BATCH } from '../../src/modules/audit-log/audit-retention';
import { sharedDatabase, type SharedDatabase } from '../helpers/instances';

// AUDIT_LOG_RETENTION_DAYS (issue 37): every instance deletes the records past the retention,
// oldest first in bounded batches, and instances pruning at once delete each record once.

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 11, 6, 12);
const store = new AuditLogStore();

let shared: SharedDatabase;
let databases: Database[];
beforeEach(async () => {
  shared = await sharedDatabase();
  databases = [openDatabase(shared.url), openDatabase(shared.url)];
  await migrateLatest(databases[0]!);
});
afterEach(async () => {
  await Promise.all(databases.map((db) => db.close()));
  await shared.drop();
});

function row(i: number, ageDays: number): AuditRow {
  return {
    document_id: `doc-${i}`, created_at: NOW - ageDays * DAY - i, action: 'hook.create', operation_type: 'create', actor: 'alice', actor_id: null,
    actor_is_bot: false, org_id: 1, org: 'acme', enterprise_id: null, business: null, repo_id: null, repo: null, user_id: null, user: null, team_id: null,
    team: null, token_id: null, programmatic_access_type: null, request_id: null, data: '{}',
  };
}

async function insert(rows: AuditRow[]): Promise<void> {
  await databases[0]!.knex.transaction((trx) => store.insert(trx, rows));
}

const retention = (db: Database) => new AuditRetention({ db: db.knex, store, logger: pino({ level: 'silent' }), retentionDays: 180, clock: () => NOW });
const remaining = async () => (await databases[0]!.knex('audit_log').orderBy('id').select('document_id')).map((r) => r.document_id as string);

it('deletes every record older than the retention, in batches, and none younger', async () => {
  const old = Array.from({ length: 2 * PRUNE_BATCH + 17 }, (_, i) => row(i, 181));
  const young = Array.from({ length: 5 }, (_, i) => row(10_000 + i, 179));
  await insert([...old, ...young]);
  expect(await retention(databases[0]!).pruneNow()).toBe(old.length);
  expect(await remaining()).toEqual(young.map((r) => r.document_id));
  expect(await retention(databases[0]!).pruneNow()).toBe(0);
});

it('two instances pruning at once delete each record once between them', async () => {
  const old = Array.from({ length: 3 * PRUNE_BATCH }, (_, i) => row(i, 200));
  await insert([...old, row(99_999, 1)]);
  const deleted = await Promise.all(databases.map((db) => retention(db).pruneNow()));
  expect(deleted[0]! + deleted[1]!).toBe(old.length);
  expect(await remaining()).toEqual(['doc-99999']);
});
