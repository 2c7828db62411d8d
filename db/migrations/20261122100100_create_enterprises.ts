import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('enterprises', (t) => {
    t.increments('id').primary();
    t.string('slug', 100).notNullable();
    t.string('slug_key', 100).notNullable();
    t.string('name', 255).notNullable();
    t.string('created_at', 20).notNullable();
    t.string('updated_at', 20).notNullable();
    t.unique(['slug_key'], { indexName: 'enterprises_slug_key_unique' });
  });
  await knex.schema.createTable('enterprise_members', (t) => {
    t.integer('enterprise_id').notNullable().references('id').inTable('enterprises').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('role', 20).notNullable(); // 'owner' | 'member'
    t.primary(['enterprise_id', 'user_id']);
    t.index(['user_id'], 'enterprise_members_user_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('enterprise_members');
  await knex.schema.dropTable('enterprises');
}
