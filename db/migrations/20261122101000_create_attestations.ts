import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('attestations', (t) => {
    t.increments('id').primary();
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.text('bundle').notNullable(); // the bundle exactly as sent (JSON text)
    t.string('bundle_sha256', 64).notNullable(); // identity: the same bundle twice is one attestation
    t.string('predicate_type', 255).notNullable();
    t.integer('initiator_id').nullable().references('id').inTable('accounts').onDelete('SET NULL');
    t.string('created_at', 20).notNullable();
    t.unique(['repo_id', 'bundle_sha256'], { indexName: 'attestations_repo_id_bundle_sha256_unique' });
  });
  await knex.schema.createTable('attestation_subjects', (t) => {
    t.integer('attestation_id').notNullable().references('id').inTable('attestations').onDelete('CASCADE');
    t.string('digest', 71).notNullable(); // sha256:<64 lowercase hex>
    t.string('name', 1024).nullable();
    t.primary(['attestation_id', 'digest']);
    t.index(['digest', 'attestation_id'], 'attestation_subjects_digest_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('attestation_subjects');
  await knex.schema.dropTable('attestations');
}
