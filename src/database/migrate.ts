import knexFactory, { type Knex } from 'knex';
import { migrationSource, migrations, type Migration } from '../../db/migrations';
import type { Database } from './connection';
import { isConcurrentCreate } from './dialect';

function migratorConfig(db: Database): Knex.MigratorConfig {
  return { migrationSource: migrationSourceFor(db), ...(db.schema ? { schemaName: db.schema } : {}) };
}

/** The migrations as `db` runs them. */
export function migrationSourceFor(db: Database): Knex.MigrationSource<readonly [string, Migration]> {
  return db.postgresUrl ? migrationSource : sqliteMigrationSource;
}

/**
 * SQLite runs every migration inside knex's one transaction: `transaction: false` is for
 * PostgreSQL's concurrent index builds. Without that transaction knex does not look again, once
 * it holds its lock, at what another instance migrated while this one listed what to run: two
 * instances starting at once over a new file ran a migration twice ("duplicate column name",
 * test/integration/instances.test.ts in a loaded suite, 2026-12-06).
 */
const sqliteMigrationSource: Knex.MigrationSource<readonly [string, Migration]> = {
  ...migrationSource,
  getMigration: async ([, migration]) => ({ ...migration, config: { ...migration.config, transaction: true } }),
};

const WAIT_FOR_OTHER_INSTANCE_MS = 120_000;
/** PostgreSQL's lock_not_available, raised when lock_timeout ends a wait. */
const LOCK_NOT_AVAILABLE = '55P03';

/** Another instance is migrating (it holds knex's lock, or created its tables a moment ago). */
function isMigrationRace(error: unknown): boolean {
  const { name, code, message } = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown };
  return name === 'MigrationLocked' || isConcurrentCreate(error) || code === 'SQLITE_BUSY'
    || (typeof message === 'string' && message.includes('already locked'));
}

const KNEX_LOCK_TABLE = 'knex_migrations_lock';

/**
 * knex creates its lock row with a read-then-insert, so instances starting at once can
 * insert two; its lock (an UPDATE that must change exactly one row) then never succeeds.
 * Keeping the first row repairs that, and is harmless while a holder has it locked.
 */
async function removeDuplicateLockRows(db: Database): Promise<void> {
  if (!(await db.knex.schema.hasTable(KNEX_LOCK_TABLE))) return;
  const rows = await db.knex(KNEX_LOCK_TABLE).orderBy('index').select('index');
  if (rows.length > 1) await db.knex(KNEX_LOCK_TABLE).where('index', '>', rows[0].index).delete();
}

/**
 * Runs pending migrations; returns the names it ran. When several instances start at once,
 * one migrates and the others wait for it, then find nothing left to run.
 */
export async function migrateLatest(db: Database): Promise<string[]> {
  if (db.postgresUrl) return whileHoldingMigrationLock(db.postgresUrl, db.schema, () => runLatest(db));
  return retryWhileAnotherMigrates(() => runLatest(db));
}

/** knex's record of the migrations run (its default table name). */
const KNEX_MIGRATIONS_TABLE = 'knex_migrations';

/**
 * The migrations the database has run that this build does not know: a newer release
 * migrated it. Migrations are expand-then-contract (README, "Operating orgsec"), so instances
 * of this release already running go on answering; a new one refuses to start rather than
 * serve a schema it was not built for.
 */
async function migrationsUnknownToThisBuild(db: Database): Promise<string[]> {
  const table = db.schema ? `${db.schema}.${KNEX_MIGRATIONS_TABLE}` : KNEX_MIGRATIONS_TABLE;
  const schema = db.schema ? db.knex.schema.withSchema(db.schema) : db.knex.schema;
  if (!(await schema.hasTable(KNEX_MIGRATIONS_TABLE))) return [];
  const known = new Set(migrations.map(([name]) => name));
  const ran: Array<{ name: string }> = await db.knex(table).select('name');
  return ran.map((r) => r.name).filter((name) => !known.has(name));
}

async function runLatest(db: Database): Promise<string[]> {
  if (db.schema) await db.knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [db.schema]);
  const unknown = await migrationsUnknownToThisBuild(db);
  if (unknown.length > 0) {
    throw new Error(`this database was migrated by a newer release of orgsec (migrations this release does not know: ${unknown.join(', ')}): run that release or a later one`);
  }
  await removeDuplicateLockRows(db);
  const [, ran] = (await db.knex.migrate.latest(migratorConfig(db))) as [number, string[]];
  return ran;
}

/**
 * PostgreSQL: instances migrating one database take turns on an advisory lock, held by the
 * session of a connection of its own (so a pool of one still has one to migrate on). Without
 * it, two creating the same schema or table at once fail on the catalog's unique indexes, and
 * knex's own lock table only guards what runs after those tables exist. The session of an
 * instance killed while it waits or migrates ends, and its lock with it. A session lock, not a
 * transaction's: CREATE INDEX CONCURRENTLY (20261205200000_cover_alert_lists) waits for every
 * transaction older than it, the holder's own too, which would wait for it in turn.
 */
async function whileHoldingMigrationLock<T>(postgresUrl: string, schema: string | undefined, run: () => Promise<T>): Promise<T> {
  // One connection, never reaped while idle (min 1): the lock lives as long as its session.
  const lockHolder = knexFactory({ client: 'pg', connection: postgresUrl, pool: { min: 1, max: 1 } });
  try {
    await lockHolder.raw(`SET lock_timeout = ${WAIT_FOR_OTHER_INSTANCE_MS}`);
    // Keyed by schema (named, or the URL's search_path): deployments in other schemas go on.
    await lockHolder.raw("SELECT pg_advisory_lock(hashtext('orgsec migrations ' || coalesce(?, current_schema(), '')))", [schema ?? null]).catch((error: { code?: string }) => {
      if (error.code !== LOCK_NOT_AVAILABLE) throw error;
      throw new Error(`another instance has been migrating this database for over ${WAIT_FOR_OTHER_INSTANCE_MS / 1000} s; start again once it has finished`);
    });
    return await run();
  } finally {
    // Closing the session releases the lock.
    await lockHolder.destroy();
  }
}

/** SQLite: a writer that finds the file locked, or knex's tables made a moment ago, tries again (each try repairs knex's lock rows first). */
async function retryWhileAnotherMigrates<T>(run: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await run();
    } catch (error) {
      if (!isMigrationRace(error) || Date.now() - started > WAIT_FOR_OTHER_INSTANCE_MS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 200));
    }
  }
}

export async function rollbackAll(db: Database): Promise<void> {
  await db.knex.migrate.rollback(migratorConfig(db), true);
}

/** The migrations of this build that the database has not run yet, in order. */
export async function pendingMigrations(db: Database): Promise<string[]> {
  const [, pending] = (await db.knex.migrate.list(migratorConfig(db))) as [unknown[], Array<readonly [string, Migration]>];
  return pending.map((migration) => migrationSource.getMigrationName(migration));
}
