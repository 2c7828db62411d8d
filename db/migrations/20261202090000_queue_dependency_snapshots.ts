import type { Knex } from 'knex';

// Snapshots an instance stores now and applies later (src/modules/dependency-graph/snapshot-queue.ts):
// - dependency_snapshot_queue: one row per stored snapshot not yet applied, taken by a worker
//   of any instance in id order per repository, deleted in the transaction that applies it.
//   No data_versions trigger: no answer is built from it (the snapshot's own rows move the
//   counters when it is stored and when it is applied).
// - dependency_snapshots.queued_at / applied_at (UTC, milliseconds): when it was queued (null:
//   applied in its request) and when it was applied (null: not applied), so the delay between
//   is read from the database.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dependency_snapshot_queue', (t) => {
    t.integer('snapshot_id').primary().references('id').inTable('dependency_snapshots').onDelete('CASCADE');
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.integer('attempts').notNullable().defaultTo(0);
    t.index(['repo_id', 'snapshot_id'], 'dependency_snapshot_queue_repo_index');
  });
  await knex.schema.alterTable('dependency_snapshots', (t) => {
    t.string('queued_at', 24).nullable();
    t.string('applied_at', 24).nullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dependency_snapshot_queue');
  await knex.schema.alterTable('dependency_snapshots', (t) => {
    t.dropColumn('queued_at');
    t.dropColumn('applied_at');
  });
}
