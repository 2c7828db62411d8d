import { DataVersionReader } from '../../src/database/data-version';
import { recordStatements } from '../helpers/statements';
import { createTestDatabase, dialect, type TestDatabase } from '../helpers/test-database';

// The data versions are read once per request on a connection of the reader's own
// (src/database/data-version.ts): they must follow every commit, and on PostgreSQL survive
// the loss of that connection without failing a request.

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.close());

const bump = () => db.knex('data_versions').where('id', 1).update({ data: db.knex.raw('data + 1') });

it('reads the counters as committed, once per read, counted as a statement', async () => {
  const reader = new DataVersionReader(db);
  const before = await reader.read();
  await bump();
  const recorded = recordStatements(db);
  try {
    expect((await reader.read()).data).toBe(before.data + 1);
    expect(recorded.sql).toEqual(['select data, reference from data_versions where id = 1']);
  } finally {
    recorded.stop();
  }
});

(dialect === 'postgres' ? it : it.skip)('connects again when PostgreSQL ends its connection, and the read that finds it gone still answers', async () => {
  const readerPids = async () => new Set<number>((await db.knex.raw("select pid from pg_stat_activity where application_name = 'orgsec data versions'")).rows.map((r: { pid: number }) => r.pid));
  const others = await readerPids();
  const reader = new DataVersionReader(db);
  await reader.read();
  const own = [...await readerPids()].filter((pid) => !others.has(pid)); // this reader's (another test file's may open meanwhile: it would survive this too)
  expect(own.length).toBeGreaterThan(0);
  for (const pid of own) await db.knex.raw('select pg_terminate_backend(?)', [pid]);
  await bump();
  const current = Number((await db.knex('data_versions').first('data')).data);
  expect((await reader.read()).data).toBe(current);
  expect((await reader.read()).data).toBe(current);
});
