import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('organizations', (t) => {
    t.integer('account_id').primary().references('id').inTable('accounts').onDelete('CASCADE');
    t.integer('enterprise_id').nullable().references('id').inTable('enterprises').onDelete('SET NULL');
    t.boolean('organization_roles_enabled').notNullable().defaultTo(true);
    t.index(['enterprise_id'], 'organizations_enterprise_id_index');
  });
  await knex.schema.createTable('organization_members', (t) => {
    t.integer('org_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('role', 20).notNullable(); // 'admin' (an owner) | 'member'
    t.primary(['org_id', 'user_id']);
    t.index(['user_id'], 'organization_members_user_id_index');
  });
  await knex.schema.createTable('organization_custom_properties', (t) => {
    t.integer('org_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('name', 75).notNullable();
    t.string('value_type', 20).notNullable(); // string | single_select | multi_select | true_false
    t.boolean('required').notNullable().defaultTo(false);
    t.text('default_value').nullable(); // JSON
    t.text('allowed_values').nullable(); // JSON array
    t.text('description').nullable();
    t.primary(['org_id', 'name']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('organization_custom_properties');
  await knex.schema.dropTable('organization_members');
  await knex.schema.dropTable('organizations');
}
