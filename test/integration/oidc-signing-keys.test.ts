import { DataVersionReader } from '../../src/database/data-version';
import { SigningKeys } from '../../src/modules/oidc-tokens/signing-keys';
import { SigningKeysStore } from '../../src/modules/oidc-tokens/signing-keys.store';
import { recordStatements } from '../helpers/statements';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { commandActor } from '../../src/modules/audit-log/audit-actors';
import { AuditLogStore } from '../../src/modules/audit-log/audit-log.store';
import { AuditRecorder } from '../../src/modules/audit-log/audit-recorder';

// The signing keys on every dialect, as two instances' key rings over one database: the race
// for the first key and for a rotation, and the in-memory key kept per data version.

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase();
});
afterEach(() => db.destroy());

const ring = (clock = Date.now) => new SigningKeys({ db: db.knex, store: new SigningKeysStore(), clock, audit: new AuditRecorder(new AuditLogStore()) });
const rows = () => db.knex('oidc_signing_keys').orderBy('generation').select('generation', 'kid');

it('two key rings making the first key at once end with one, which both sign with', async () => {
  const [a, b] = [ring(), ring()];
  const keys = await Promise.all([a.current(), b.current(), a.current(), b.current()]);
  const stored = await rows();
  expect(stored).toHaveLength(1);
  expect(new Set(keys.map((key) => key.kid))).toEqual(new Set([stored[0].kid]));
});

it('rotations at once each get a generation of their own, and the newest signs', async () => {
  const [a, b] = [ring(), ring()];
  const first = await a.current();
  const rotated = await Promise.all([a.rotate(commandActor()), b.rotate(commandActor())]);
  const stored = await rows();
  expect(stored.map((row) => Number(row.generation))).toEqual([1, 2, 3]);
  expect(rotated.map((r) => r.kid).sort()).toEqual([stored[1].kid, stored[2].kid].sort());
  expect(rotated.some((r) => r.replaced === first.kid)).toBe(true);
  expect((await b.current()).kid).toBe(stored[2].kid);
});

it('keeps the key in memory while the data version stands, and sees another instance\'s rotation once it moves', async () => {
  const [a, b] = [ring(), ring()];
  const versions = new DataVersionReader(db);
  await a.current(await versions.read()); // makes the first key: a write, which moves the version
  const first = await a.current(await versions.read());
  const recorded = recordStatements(db);
  try {
    expect((await a.current(await versions.read())).kid).toBe(first.kid);
    expect(recorded.sql.filter((sql) => sql.includes('oidc_signing_keys'))).toEqual([]);
  } finally {
    recorded.stop();
  }
  const { kid } = await b.rotate(commandActor());
  expect((await a.current(await versions.read())).kid).toBe(kid);
});

it('the JWKS keeps a replaced key for a day after its successor was made, and no longer', async () => {
  let now = Date.UTC(2026, 10, 27, 8, 0, 0);
  const keys = ring(() => now);
  const old = await keys.current();
  const { kid } = await keys.rotate(commandActor());
  const kids = async () => (await keys.publicKeys()).map((key) => key.kid);
  now += 24 * 60 * 60 * 1000 - 1000;
  expect(await kids()).toEqual([kid, old.kid]);
  now += 1000;
  expect(await kids()).toEqual([kid]);
  // Nothing private in what the JWKS is built from.
  for (const key of await keys.publicKeys()) expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
});
