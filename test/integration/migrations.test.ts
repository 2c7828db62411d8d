import fs from 'node:fs';
import path from 'node:path';
import type { Knex } from 'knex';
import { migrations } from '../../db/migrations';
import { DATA_TABLES as FIRST_DATA_TABLES } from '../../db/migrations/20261123130000_create_data_versions';
import { SNAPSHOT_TABLES } from '../../db/migrations/20261127050000_create_dependency_snapshots';
import { AUTO_TRIAGE_TABLES } from '../../db/migrations/20261127060000_create_dependency_bot_rules';
import { ENGINE_TABLES } from '../../db/migrations/20261127070000_create_alert_engine';
import { WEBHOOK_TABLES } from '../../db/migrations/20261127080000_create_webhooks';
import { OIDC_KEY_TABLES } from '../../db/migrations/20261127080100_create_oidc_signing_keys';
import { openDatabase } from '../../src/database/connection';
import { migrateLatest, migrationSourceFor, rollbackAll } from '../../src/database/migrate';
import { createTestDatabase, dialect, type TestDatabase } from '../helpers/test-database';

const MIGRATIONS_DIR = path.join(__dirname, '..', '..', 'db', 'migrations');

// The schema the migrations build, kept by hand: a table added or dropped without a test noticing fails here.
const APP_TABLES = [
  'accounts', 'advisories', 'advisory_vulnerabilities', 'attestation_subjects', 'attestations', 'audit_log', 'data_versions',
  'dependency_alert_assignees', 'dependency_alerts', 'dependency_bot_presets', 'dependency_bot_rules', 'dependency_snapshot_manifests', 'dependency_snapshot_queue', 'dependency_snapshots',
  'enterprise_members', 'enterprise_oidc_property_inclusions', 'enterprises', 'events', 'oidc_signing_keys',
  'organization_custom_properties', 'organization_members', 'organization_oidc_property_inclusions',
  'organization_oidc_subject_templates', 'organization_role_teams', 'organization_role_users', 'organization_roles',
  'organizations', 'rate_limit_counters', 'repositories', 'repository_collaborators', 'repository_covered_manifests', 'repository_current_snapshots', 'repository_custom_property_values',
  'repository_dependencies', 'repository_deployment_records', 'repository_oidc_subject_templates', 'repository_storage_records',
  'team_members', 'team_repositories', 'teams', 'token_repositories', 'tokens', 'webhook_deliveries', 'webhook_delivery_attempts', 'webhooks',
];
const KNEX_TABLES = ['knex_migrations', 'knex_migrations_lock'];
/** The tables whose writes move data_versions.data, by the migrations that made them so. */
// dependency_snapshot_packages was dropped by 20261127090000 (packages moved into their manifests).
const DATA_TABLES = [...FIRST_DATA_TABLES, ...SNAPSHOT_TABLES.filter((t) => t !== 'dependency_snapshot_packages'), ...AUTO_TRIAGE_TABLES, ...ENGINE_TABLES, ...WEBHOOK_TABLES, ...OIDC_KEY_TABLES];

const PREDEFINED_ROLES = [
  { id: 138, name: 'security_manager' },
  { id: 8132, name: 'all_repo_read' },
  { id: 8133, name: 'all_repo_triage' },
  { id: 8134, name: 'all_repo_write' },
  { id: 8135, name: 'all_repo_maintain' },
  { id: 8136, name: 'all_repo_admin' },
  { id: 26237, name: 'ci_cd_admin' },
  { id: 33679, name: 'app_manager' },
];
const HIGHEST_PREDEFINED_ID = 33679;
const NOW = '2026-02-01T00:00:00Z';

async function listTables(db: TestDatabase): Promise<string[]> {
  // Dialect difference: the catalog to ask, and PostgreSQL lists per schema (each test file has its own).
  if (db.dialect === 'postgres') {
    const rows: { table_name: string }[] = await db.knex('information_schema.tables')
      .where({ table_schema: db.schema, table_type: 'BASE TABLE' })
      .select('table_name');
    return rows.map((r) => r.table_name).sort();
  }
  const rows: { name: string }[] = await db.knex('sqlite_master')
    .where({ type: 'table' })
    .andWhereNot('name', 'like', 'sqlite_%')
    .select('name');
  return rows.map((r) => r.name).sort();
}

async function insertAccount(knex: Knex, login: string, type: 'User' | 'Organization'): Promise<number> {
  const [row] = await knex('accounts')
    .insert({ login, login_key: login.toLowerCase(), type, name: login, created_at: NOW, updated_at: NOW })
    .returning('id');
  return (row as { id: number }).id;
}

async function insertCustomRole(knex: Knex, orgId: number, name: string): Promise<number> {
  const [row] = await knex('organization_roles')
    .insert({ org_id: orgId, name, description: null, permissions: '[]', base_role: null, source: 'Organization', created_at: NOW, updated_at: NOW })
    .returning('id');
  return (row as { id: number }).id;
}

async function predefinedRoles(knex: Knex): Promise<{ id: number; name: string }[]> {
  return knex('organization_roles').whereNull('org_id').select('id', 'name').orderBy('id');
}

describe('the migration list', () => {
  it('names exactly the migration files in db/migrations, in sorted order', () => {
    const files = fs.readdirSync(MIGRATIONS_DIR)
      .filter((file) => file.endsWith('.ts') && file !== 'index.ts')
      .map((file) => file.slice(0, -'.ts'.length))
      .sort();
    const names = migrations.map(([name]) => name);
    expect(names).toEqual(files);
    expect(names).toEqual([...names].sort());
  });

  it('pairs every name with the module of the file of that name', async () => {
    for (const [name, migration] of migrations) {
      // require, as the list loads them: import() of a CommonJS file gives a namespace wrapping it (tsconfig module node20).
      const fromFile: unknown = require(path.join(MIGRATIONS_DIR, name));
      expect({ name, same: migration === fromFile }).toEqual({ name, same: true });
    }
  });
});

describe('migrations', () => {
  let db: TestDatabase;
  beforeEach(async () => {
    db = await createTestDatabase({ migrate: false });
  });
  afterEach(() => db.destroy());

  it('when run on an empty database, run every migration in order and create every table', async () => {
    expect(await listTables(db)).toEqual([]);
    expect(await migrateLatest(db)).toEqual(migrations.map(([name]) => name));
    expect(await listTables(db)).toEqual([...APP_TABLES, ...KNEX_TABLES].sort());
  });

  it('make every table answers are built from move data_versions when written (caches depend on it)', async () => {
    await migrateLatest(db);
    // Only the counters themselves, the rate-limit windows (written by every request, read by no answer)
    // the webhook delivery queue (written by workers all the time; its reads are never cached), the
    // engine's dependency index and covered manifests (read by no answer; written only beside snapshot
    // tables, which move them) and the audit log (its reads are never cached; retention deletes must not empty every cache) are left out.
    const unversioned = ['data_versions', 'rate_limit_counters', 'webhook_deliveries', 'webhook_delivery_attempts', 'repository_dependencies', 'repository_covered_manifests', 'dependency_snapshot_queue', 'audit_log'];
    expect([...DATA_TABLES].sort()).toEqual(APP_TABLES.filter((t) => !unversioned.includes(t)));
    const triggered = db.dialect === 'postgres'
      ? (await db.knex('information_schema.triggers').where('trigger_schema', db.schema!).distinct('event_object_table as t')).map((r) => r.t)
      : (await db.knex('sqlite_master').where('type', 'trigger').distinct('tbl_name as t')).map((r) => r.t);
    expect(triggered.sort()).toEqual([...DATA_TABLES].sort());
    const before = await db.knex('data_versions').first('data', 'reference');
    await insertAccount(db.knex, 'version-mover', 'User');
    const after = await db.knex('data_versions').first('data', 'reference');
    expect(Number(after.data)).toBeGreaterThan(Number(before.data));
    expect(Number(after.reference)).toBeGreaterThan(Number(before.reference));
  });

  it('leave no trigger naming the counter by its old name, world (renamed reference)', async () => {
    await migrateLatest(db);
    const bodies: string[] = db.dialect === 'postgres'
      ? (await db.knex('pg_proc').join('pg_namespace as n', 'n.oid', 'pg_proc.pronamespace').where('n.nspname', db.schema!).where('proname', 'like', 'data_versions_bump_%').select('prosrc')).map((r) => r.prosrc)
      : (await db.knex('sqlite_master').where('type', 'trigger').where('name', 'like', 'data_versions_%').select('sql')).map((r) => r.sql);
    expect(bodies).toHaveLength(DATA_TABLES.length * (db.dialect === 'postgres' ? 1 : 3));
    expect(bodies.filter((body) => /\bworld\b/.test(body))).toEqual([]);
    expect(bodies.filter((body) => /reference = reference \+ 1/.test(body))).toHaveLength(4 * (db.dialect === 'postgres' ? 1 : 3));
  });

  it('seed the predefined organization roles with the ids clients know', async () => {
    await migrateLatest(db);
    expect(await predefinedRoles(db.knex)).toEqual(PREDEFINED_ROLES);
    const sources = await db.knex('organization_roles').distinct('source');
    expect(sources).toEqual([{ source: 'Predefined' }]);
  });

  it('when a custom role is created afterwards, give it an id above every predefined one', async () => {
    await migrateLatest(db);
    const orgId = await insertAccount(db.knex, 'custom-role-org', 'Organization');
    const first = await insertCustomRole(db.knex, orgId, 'First custom role');
    const second = await insertCustomRole(db.knex, orgId, 'Second custom role');
    expect(first).toBeGreaterThan(HIGHEST_PREDEFINED_ID);
    expect(second).toBeGreaterThan(first);
  });

  it('when the database was migrated by a newer release, refuse to run, naming what this release does not know, and change nothing', async () => {
    await migrateLatest(db);
    const newer = '20991231000000_from_a_newer_release';
    await db.knex('knex_migrations').insert({ name: newer, batch: 99, migration_time: new Date() });
    await expect(migrateLatest(db)).rejects.toThrow(`this database was migrated by a newer release of orgsec (migrations this release does not know: ${newer}): run that release or a later one`);
    expect(await db.knex('knex_migrations').count({ n: '*' })).toEqual([{ n: migrations.length + 1 }]);
  });

  it('when run a second time, run nothing and change nothing', async () => {
    await migrateLatest(db);
    expect(await migrateLatest(db)).toEqual([]);
    expect(await predefinedRoles(db.knex)).toEqual(PREDEFINED_ROLES);
    expect(await db.knex('knex_migrations').count({ n: '*' })).toEqual([{ n: migrations.length }]);
  });

  it('when rolled back with data in the tables, drop every table, and migrate up again from scratch', async () => {
    await migrateLatest(db);
    const ownerId = await insertAccount(db.knex, 'rollback-owner', 'User');
    const orgId = await insertAccount(db.knex, 'rollback-org', 'Organization');
    await db.knex('organizations').insert({ account_id: orgId, organization_roles_enabled: true });
    await db.knex('organization_members').insert({ org_id: orgId, user_id: ownerId, role: 'admin' });
    await db.knex('repositories').insert([
      { owner_id: orgId, name: 'alpha', name_key: 'alpha', private: false, description: null, fork: false, created_at: NOW, updated_at: NOW },
      { owner_id: ownerId, name: 'Beta', name_key: 'beta', private: true, description: 'kept', fork: true, created_at: NOW, updated_at: NOW },
    ]);
    const roleId = await insertCustomRole(db.knex, orgId, 'Rollback role');
    await db.knex('organization_role_users').insert({ org_id: orgId, role_id: roleId, user_id: ownerId, created_at: NOW });

    await rollbackAll(db);
    expect(await listTables(db)).toEqual(KNEX_TABLES);
    expect(await db.knex('knex_migrations').count({ n: '*' })).toEqual([{ n: 0 }]);

    expect(await migrateLatest(db)).toEqual(migrations.map(([name]) => name));
    expect(await listTables(db)).toEqual([...APP_TABLES, ...KNEX_TABLES].sort());
    expect(await db.knex('accounts').count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await db.knex('repositories').count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await predefinedRoles(db.knex)).toEqual(PREDEFINED_ROLES);
    const newOrgId = await insertAccount(db.knex, 'rollback-org', 'Organization');
    expect(await insertCustomRole(db.knex, newOrgId, 'Rollback role')).toBeGreaterThan(HIGHEST_PREDEFINED_ID);
  });
});

describe('when instances raced and left knex two lock rows', () => {
  it('migrating still succeeds instead of waiting forever', async () => {
    const database = await createTestDatabase({ migrate: false });
    try {
      await database.knex.schema.createTable('knex_migrations_lock', (t) => {
        t.increments('index').primary();
        t.integer('is_locked');
      });
      await database.knex('knex_migrations_lock').insert([{ is_locked: 0 }, { is_locked: 0 }]);
      const ran = await migrateLatest(database);
      expect(ran.length).toBeGreaterThan(0);
      expect(await database.knex('knex_migrations_lock').select('is_locked')).toEqual([{ is_locked: 0 }]);
    } finally {
      await database.destroy();
    }
  });
});

describe('when several instances start at once over one fresh database', () => {
  it('one runs every migration, the others wait for it and run none, and none fails', async () => {
    // The race (two creating knex_migrations at once: 42710 on PostgreSQL) shows in about one round
    // of fifteen with eight instances, so a few rounds, each on a database of its own.
    for (let round = 0; round < 5; round++) {
      const database = await createTestDatabase({ migrate: false });
      const instances = Array.from({ length: 8 }, () => openDatabase(database.url));
      try {
        const ran = await Promise.all(instances.map((instance) => migrateLatest(instance)));
        expect(ran.map((names) => names.length).sort()).toEqual([0, 0, 0, 0, 0, 0, 0, migrations.length]);
        expect(await listTables(database)).toEqual([...APP_TABLES, ...KNEX_TABLES].sort());
      } finally {
        await Promise.all(instances.map((instance) => instance.close()));
        await database.destroy();
      }
    }
  });
});

// SQLite: an instance lists what to run, then takes knex's lock. Another that ran everything
// in between must leave it nothing to run (PostgreSQL lists under its advisory lock: migrate.ts).
(dialect === 'sqlite' ? describe : describe.skip)('when an instance listed the migrations before another ran them', () => {
  it('runs none of them again', async () => {
    const database = await createTestDatabase({ migrate: false });
    const late = openDatabase(database.url);
    try {
      const source = migrationSourceFor(late);
      await late.knex.migrate.list({ migrationSource: source }); // knex's own tables made: both instances only read them first
      let listed!: () => void;
      const wasListed = new Promise<void>((resolve) => (listed = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      // Its list of migrations is held until the other instance has run them all.
      const lateRun = late.knex.migrate.latest({
        migrationSource: { ...source, getMigrations: async (extensions) => { const all = await source.getMigrations(extensions); listed(); await released; return all; } },
      });
      await wasListed;
      await new Promise((resolve) => setTimeout(resolve, 100)); // and it has read that none ran
      expect(await migrateLatest(database)).toHaveLength(migrations.length);
      release();
      const [, ran] = (await lateRun) as [number, string[]];
      expect(ran).toEqual([]);
      expect(await listTables(database)).toEqual([...APP_TABLES, ...KNEX_TABLES].sort());
    } finally {
      await late.close();
      await database.destroy();
    }
  });
});
