import type { Knex } from 'knex';

// Users and organizations share one login namespace and one id space, as on the
// public code-hosting API our clients follow; `type` tells them apart.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('accounts', (t) => {
    t.increments('id').primary();
    t.string('login', 100).notNullable();
    t.string('login_key', 100).notNullable(); // lower-cased login: names match case-insensitively
    t.string('type', 20).notNullable(); // 'User' | 'Organization'
    t.string('name', 255).nullable();
    t.string('email', 255).nullable();
    t.text('description').nullable();
    t.boolean('site_admin').notNullable().defaultTo(false);
    t.string('created_at', 20).notNullable();
    t.string('updated_at', 20).notNullable();
    t.unique(['login_key'], { indexName: 'accounts_login_key_unique' });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('accounts');
}
