import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('teams', (t) => {
    t.increments('id').primary();
    t.integer('org_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('slug', 100).notNullable();
    t.string('name', 255).notNullable();
    t.text('description').nullable();
    t.string('privacy', 20).notNullable();
    t.string('notification_setting', 40).notNullable();
    t.string('permission', 20).notNullable();
    t.integer('parent_id').nullable().references('id').inTable('teams').onDelete('SET NULL');
    t.string('created_at', 20).notNullable();
    t.string('updated_at', 20).notNullable();
    t.unique(['org_id', 'slug'], { indexName: 'teams_org_id_slug_unique' });
    t.index(['parent_id'], 'teams_parent_id_index');
  });
  await knex.schema.createTable('team_members', (t) => {
    t.integer('team_id').notNullable().references('id').inTable('teams').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.primary(['team_id', 'user_id']);
    t.index(['user_id'], 'team_members_user_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('team_members');
  await knex.schema.dropTable('teams');
}
