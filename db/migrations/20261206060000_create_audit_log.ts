import type { Knex } from 'knex';

// The audit log (src/modules/audit-log): one row per security change, written in the change's
// own transaction by every write path, never updated; deleted only by retention
// (AUDIT_LOG_RETENTION_DAYS), oldest first.
// - `created_at`: milliseconds since the epoch (the record's `@timestamp` and `created_at`).
// - `document_id`: the record's `_document_id`, random, unique.
// - org_id / enterprise_id: the logs that show the record (an organization's record is also
//   its enterprise's); both null for a change of no organization (a classic token's creation).
// - the names (`org`, `repo`, `user`, `team`, `actor`) as they were at the change, so renames
//   and deletions leave the record as it was written; `data`: the action's own fields (JSON).
// No data_versions trigger: the log's reads are never cached (the operation is `uncached`),
// and the retention's deletes must not empty every instance's caches.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('audit_log', (t) => {
    t.bigIncrements('id').primary();
    t.string('document_id', 32).notNullable().unique({ indexName: 'audit_log_document_unique' });
    t.bigInteger('created_at').notNullable();
    t.string('action', 80).notNullable();
    t.string('operation_type', 10).notNullable();
    t.string('actor', 255).nullable();
    t.integer('actor_id').nullable();
    t.boolean('actor_is_bot').notNullable().defaultTo(false);
    t.integer('org_id').nullable();
    t.string('org', 255).nullable();
    t.integer('enterprise_id').nullable();
    t.string('business', 255).nullable();
    t.integer('repo_id').nullable();
    t.string('repo', 512).nullable();
    t.integer('user_id').nullable();
    t.string('user', 255).nullable();
    t.integer('team_id').nullable();
    t.string('team', 512).nullable();
    t.integer('token_id').nullable();
    t.string('programmatic_access_type', 80).nullable();
    t.string('request_id', 128).nullable();
    t.text('data').notNullable();
    // A log is read newest (or oldest) first by (created_at, id): a world's records come in any order.
    t.index(['org_id', 'created_at', 'id'], 'audit_log_org_index');
    t.index(['enterprise_id', 'created_at', 'id'], 'audit_log_enterprise_index');
    t.index(['created_at', 'id'], 'audit_log_created_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('audit_log');
}
