import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('advisories', (t) => {
    t.increments('id').primary();
    t.string('svcsa_id', 64).notNullable();
    t.string('cve_id', 64).nullable();
    t.string('classification', 20).notNullable(); // general | malware
    t.text('summary').notNullable();
    t.text('description').notNullable();
    t.string('severity', 20).notNullable();
    t.string('cvss_vector_string', 255).nullable();
    t.double('cvss_score').nullable();
    t.text('cvss_severities').nullable(); // JSON
    t.double('epss_percentage').nullable();
    t.string('epss_percentile', 32).nullable();
    t.text('cwes').notNullable(); // JSON
    t.text('identifiers').notNullable(); // JSON
    t.text('references').notNullable(); // JSON
    t.string('published_at', 20).notNullable();
    t.string('updated_at', 20).notNullable();
    t.string('withdrawn_at', 20).nullable();
    t.unique(['svcsa_id'], { indexName: 'advisories_svcsa_id_unique' });
  });
  await knex.schema.createTable('advisory_vulnerabilities', (t) => {
    t.increments('id').primary();
    t.integer('advisory_id').notNullable().references('id').inTable('advisories').onDelete('CASCADE');
    t.string('ecosystem', 20).notNullable();
    t.string('package_name', 255).notNullable();
    t.string('severity', 20).notNullable();
    t.string('vulnerable_version_range', 255).notNullable();
    t.string('first_patched_version', 255).nullable();
    t.index(['advisory_id'], 'advisory_vulnerabilities_advisory_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('advisory_vulnerabilities');
  await knex.schema.dropTable('advisories');
}
