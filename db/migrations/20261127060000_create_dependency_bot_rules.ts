import type { Knex } from 'knex';

// Auto-triage (interfaces.md Part 2 "Auto-triage rules"): custom rules and the preset switch,
// each at organization or repository level. A row belongs to exactly one of the two (org_id or
// repo_id set, never both; the service writes them so).
// - dependency_bot_rules.conditions: JSON of the rule's conditions as the API shows them.
// - dependency_bot_presets.low_impact_development: null is the default (on for public
//   repositories, off for private ones); a missing row means null.
// Every new table moves data_versions.data, as the tables of 20261123130000 do.

export const AUTO_TRIAGE_TABLES = ['dependency_bot_rules', 'dependency_bot_presets'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dependency_bot_rules', (t) => {
    t.increments('id').primary();
    t.integer('org_id').nullable().references('account_id').inTable('organizations').onDelete('CASCADE');
    t.integer('repo_id').nullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.string('name', 255).notNullable();
    t.string('enforcement', 10).notNullable(); // enforced | enabled | disabled
    t.text('conditions').notNullable();
    t.string('action', 24).notNullable(); // dismiss | dismiss_until_patch
    t.string('created_at', 20).notNullable();
    t.string('updated_at', 20).notNullable();
    t.index(['org_id'], 'dependency_bot_rules_org_index');
    t.index(['repo_id'], 'dependency_bot_rules_repo_index');
  });
  await knex.schema.createTable('dependency_bot_presets', (t) => {
    t.increments('id').primary();
    t.integer('org_id').nullable().references('account_id').inTable('organizations').onDelete('CASCADE');
    t.integer('repo_id').nullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.boolean('low_impact_development').nullable();
    // Unique per owner; both dialects allow many NULLs under a unique index.
    t.unique(['org_id'], { indexName: 'dependency_bot_presets_org_unique' });
    t.unique(['repo_id'], { indexName: 'dependency_bot_presets_repo_unique' });
  });
  if (knex.client.config.client === 'pg') {
    for (const table of AUTO_TRIAGE_TABLES) {
      const fn = `data_versions_bump_${table}`;
      await knex.raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; RETURN NULL; END $$`);
      await knex.raw(`CREATE TRIGGER ${fn} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    }
    return;
  }
  for (const table of AUTO_TRIAGE_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await knex.raw(`CREATE TRIGGER data_versions_${event}_${table} AFTER ${event.toUpperCase()} ON ${table} BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; END`);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    for (const table of AUTO_TRIAGE_TABLES) await knex.raw(`DROP FUNCTION IF EXISTS data_versions_bump_${table}() CASCADE`);
  }
  // SQLite drops a table's triggers with it.
  for (const table of [...AUTO_TRIAGE_TABLES].reverse()) await knex.schema.dropTable(table);
}
