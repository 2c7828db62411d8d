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

const readerPids = async () => new Set<number>((await db.knex.raw("select pid from pg_stat_activity where application_name = 'orgsec data versions'")).rows.map((r: { pid: number }) => r.pid));
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

(dialect === 'postgres' ? it : it.skip)('closes its connection after 10 s without a read, and opens another at the next', async () => {
  const reader = new DataVersionReader(db);
  const before = await readerPids();
  await reader.read();
  const own = [...await readerPids()].filter((pid) => !before.has(pid));
  expect(own.length).toBeGreaterThan(0);
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  const open = await readerPids();
  expect(own.filter((pid) => open.has(pid))).toEqual([]);
  await bump();
  expect((await reader.read()).data).toBe(Number((await db.knex('data_versions').first('data')).data));
}, 20_000);

it('answers many reads at once, one at a time on its connection, with no warning', async () => {
  const reader = new DataVersionReader(db);
  const warnings: string[] = [];
  const onWarning = (warning: Error) => warnings.push(warning.message);
  process.on('warning', onWarning);
  try {
    const current = Number((await db.knex('data_versions').first('data')).data);
    const reads = await Promise.all(Array.from({ length: 50 }, () => reader.read()));
    expect(reads.map((v) => v.data)).toEqual(Array.from({ length: 50 }, () => current));
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings).toEqual([]);
  } finally {
    process.off('warning', onWarning);
  }
});

(dialect === 'postgres' ? it : it.skip)('shares a round trip among the reads that arrive while another is in flight, each seeing the writes committed before it was asked', async () => {
  const reader = new DataVersionReader(db);
  await reader.read(); // connected
  await bump();
  const current = Number((await db.knex('data_versions').first('data')).data);
  const recorded = recordStatements(db);
  try {
    const reads = await Promise.all(Array.from({ length: 20 }, () => reader.read()));
    expect(reads.map((v) => v.data)).toEqual(Array.from({ length: 20 }, () => current));
    // The first is sent at once; the nineteen asked while it was in flight share the next.
    expect(recorded.sql).toEqual(['select data, reference from data_versions where id = 1', 'select data, reference from data_versions where id = 1']);
  } finally {
    recorded.stop();
  }
});
