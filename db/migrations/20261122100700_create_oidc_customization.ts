import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('enterprise_oidc_property_inclusions', (t) => {
    t.integer('enterprise_id').notNullable().references('id').inTable('enterprises').onDelete('CASCADE');
    t.string('custom_property_name', 75).notNullable();
    t.string('created_at', 20).notNullable();
    t.primary(['enterprise_id', 'custom_property_name']);
  });
  await knex.schema.createTable('organization_oidc_property_inclusions', (t) => {
    t.integer('org_id').notNullable();
    t.string('custom_property_name', 75).notNullable();
    t.string('created_at', 20).notNullable();
    t.primary(['org_id', 'custom_property_name']);
    // An inclusion never outlives the property definition it names.
    t.foreign(['org_id', 'custom_property_name'], 'organization_oidc_property_inclusions_property_fk')
      .references(['org_id', 'name']).inTable('organization_custom_properties').onDelete('CASCADE');
  });
  await knex.schema.createTable('organization_oidc_subject_templates', (t) => {
    t.integer('org_id').primary().references('id').inTable('accounts').onDelete('CASCADE');
    t.text('include_claim_keys').notNullable(); // JSON array, order kept
    t.boolean('use_immutable_subject').notNullable().defaultTo(false);
    t.string('updated_at', 20).notNullable();
  });
  await knex.schema.createTable('repository_oidc_subject_templates', (t) => {
    t.integer('repo_id').primary().references('id').inTable('repositories').onDelete('CASCADE');
    t.boolean('use_default').notNullable();
    t.text('include_claim_keys').nullable(); // JSON array; null: follow the organization's template
    t.boolean('use_immutable_subject').notNullable().defaultTo(false);
    t.string('updated_at', 20).notNullable();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('repository_oidc_subject_templates');
  await knex.schema.dropTable('organization_oidc_subject_templates');
  await knex.schema.dropTable('organization_oidc_property_inclusions');
  await knex.schema.dropTable('enterprise_oidc_property_inclusions');
}
