import type { Executor } from '../../src/database/transaction';
import { withTransaction } from '../../src/database/transaction';
import { DataVersionReader } from '../../src/database/data-version';
import { referenceCachedInWrites } from '../../src/cache/reference-in-writes';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// Reference data read inside write transactions from a cache per committed reference version
// (src/cache/reference-in-writes.ts, the alert engine's advisory reads): answered from memory
// only while the transaction's version is the newest committed one read outside
// transactions; a transaction's own reference writes, rolled back or not, are never kept.
// Accounts move the reference version as advisories do, so the look-up here is of logins.

const NOW = '2026-02-01T00:00:00Z';
let db: TestDatabase;
let reader: DataVersionReader;
let accountId: number;
let storeReads = 0;

const loginsByIds = referenceCachedInWrites(async (executor: Executor, ids: readonly number[]) => {
  storeReads++;
  const rows: Array<{ id: number; login: string }> = await executor('accounts').whereIn('id', [...ids]).select('id', 'login');
  return new Map(rows.map((row) => [Number(row.id), row.login]));
}, { keyOf: String, newestCommitted: () => reader.newestRead()?.reference, budget: { maxBytes: 2 ** 20 } });

const loginIn = async (executor: Executor) => (await loginsByIds(executor, [accountId])).get(accountId);
const rename = (executor: Executor, login: string) => executor('accounts').where('id', accountId).update({ login, login_key: login, updated_at: NOW });

beforeAll(async () => {
  db = await createTestDatabase();
  reader = new DataVersionReader(db);
  const [row] = await db.knex('accounts').insert({ login: 'first', login_key: 'first', type: 'Organization', name: 'first', created_at: NOW, updated_at: NOW }).returning('id');
  accountId = Number((row as { id: number }).id ?? row);
});
afterAll(() => db.destroy());
beforeEach(async () => {
  await reader.read(); // as every request does, outside any transaction
  storeReads = 0;
});

it('inside write transactions at the committed version, answers from memory after the first read', async () => {
  expect(await withTransaction(db.knex, loginIn)).toBe('first');
  expect(await withTransaction(db.knex, loginIn)).toBe('first');
  expect(storeReads).toBe(1);
});

it('outside transactions, always reads the store', async () => {
  expect(await loginIn(db.knex)).toBe('first');
  expect(await loginIn(db.knex)).toBe('first');
  expect(storeReads).toBe(2);
});

it('after the transaction wrote reference data, reads its own write from the store and keeps nothing of it', async () => {
  await expect(withTransaction(db.knex, async (trx) => {
    expect(await loginIn(trx)).toBe('first'); // before its write: the committed version
    await rename(trx, 'uncommitted');
    expect(await loginIn(trx)).toBe('uncommitted');
    throw new Error('roll back');
  })).rejects.toThrow('roll back');
  expect(await withTransaction(db.knex, loginIn)).toBe('first');
  expect(storeReads).toBe(1); // the read after the write; the others from memory
});

it('when a write committed that no read outside transactions has seen yet, reads the store', async () => {
  await withTransaction(db.knex, (trx) => rename(trx, 'second'));
  expect(await withTransaction(db.knex, loginIn)).toBe('second'); // the reader's newest is behind: the store
  expect(storeReads).toBe(1);
  await reader.read();
  expect(await withTransaction(db.knex, loginIn)).toBe('second');
  expect(await withTransaction(db.knex, loginIn)).toBe('second');
  expect(storeReads).toBe(2); // once at the new version, then from memory
});
