import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('tokens', (t) => {
    t.increments('id').primary();
    t.string('token_hash', 64).notNullable(); // sha256 hex; the raw token is never stored
    t.string('type', 20).notNullable(); // classic | oauth | fine_grained | app_user | installation
    t.integer('user_id').nullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('app_name', 100).nullable();
    t.text('scopes').notNullable(); // JSON array (classic, oauth)
    t.text('permissions').notNullable(); // JSON object key -> read|write (fine-grained kinds)
    t.integer('owner_account_id').nullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.integer('owner_enterprise_id').nullable().references('id').inTable('enterprises').onDelete('CASCADE');
    t.string('repository_selection', 20).nullable(); // all | selected
    t.string('expires_at', 20).nullable();
    t.string('revoked_at', 20).nullable();
    t.string('declaration_key', 64).nullable(); // world-file identity of a token declared without a value
    t.string('created_at', 20).notNullable();
    t.unique(['token_hash'], { indexName: 'tokens_token_hash_unique' });
    t.unique(['declaration_key'], { indexName: 'tokens_declaration_key_unique' });
  });
  await knex.schema.createTable('token_repositories', (t) => {
    t.integer('token_id').notNullable().references('id').inTable('tokens').onDelete('CASCADE');
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.primary(['token_id', 'repo_id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('token_repositories');
  await knex.schema.dropTable('tokens');
}
