import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('dependency_alerts', (t) => {
    t.increments('id').primary();
    t.integer('repo_id').notNullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.integer('number').notNullable();
    t.integer('advisory_id').notNullable().references('id').inTable('advisories').onDelete('RESTRICT');
    t.string('ecosystem', 20).notNullable();
    t.string('package_name', 255).notNullable();
    t.string('manifest_path', 1024).notNullable();
    t.string('scope', 20).notNullable(); // development | runtime
    t.string('relationship', 20).notNullable(); // unknown | direct | transitive | inconclusive
    t.string('state', 20).notNullable(); // auto_dismissed | dismissed | fixed | open
    t.string('created_at', 20).notNullable();
    t.string('updated_at', 20).notNullable(); // the time the state last changed
    t.string('fixed_at', 20).nullable();
    t.string('auto_dismissed_at', 20).nullable();
    t.string('dismissed_at', 20).nullable();
    t.integer('dismissed_by_id').nullable().references('id').inTable('accounts').onDelete('SET NULL');
    t.string('dismissed_reason', 20).nullable();
    t.text('dismissed_comment').nullable();
    t.integer('version').notNullable().defaultTo(1); // bumped on every change
    // Copies of what the lists filter and sort on, so a page is one indexed range scan:
    // the repository's owner and the advisory's facts (kept current by the alerts store).
    t.integer('owner_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.string('severity', 20).notNullable();
    t.string('classification', 20).notNullable();
    t.double('epss_percentage').nullable();
    t.double('epss_sort').notNullable(); // epss_percentage, or -1 when there is none: sortable, never null
    t.boolean('has_patch').notNullable();
    t.unique(['repo_id', 'number'], { indexName: 'dependency_alerts_repo_id_number_unique' });
    t.index(['owner_id', 'created_at', 'id'], 'dependency_alerts_owner_created_index');
    t.index(['owner_id', 'updated_at', 'id'], 'dependency_alerts_owner_updated_index');
    t.index(['owner_id', 'epss_sort', 'id'], 'dependency_alerts_owner_epss_index');
    t.index(['repo_id', 'created_at', 'id'], 'dependency_alerts_repo_created_index');
    t.index(['repo_id', 'updated_at', 'id'], 'dependency_alerts_repo_updated_index');
    t.index(['repo_id', 'epss_sort', 'id'], 'dependency_alerts_repo_epss_index');
    t.index(['advisory_id'], 'dependency_alerts_advisory_id_index');
  });
  await knex.schema.createTable('dependency_alert_assignees', (t) => {
    t.integer('alert_id').notNullable().references('id').inTable('dependency_alerts').onDelete('CASCADE');
    t.integer('user_id').notNullable().references('id').inTable('accounts').onDelete('CASCADE');
    t.primary(['alert_id', 'user_id']);
    t.index(['user_id'], 'dependency_alert_assignees_user_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('dependency_alert_assignees');
  await knex.schema.dropTable('dependency_alerts');
}
