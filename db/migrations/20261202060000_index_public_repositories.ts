import type { Knex } from 'knex';

// Alert lists of callers who may see only public repositories (no token, or one for public
// repositories alone) keep the alerts whose repository is public: `repo_id in (select id from
// repositories where private = false)`. Without an index SQLite built that list by scanning
// every repository for every page (test/integration/alert-list-plans.test.ts). Indexes are
// not rows: data_versions does not move.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('repositories', (t) => {
    t.index(['private', 'id'], 'repositories_private_id_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('repositories', (t) => {
    t.dropIndex(['private', 'id'], 'repositories_private_id_index');
  });
}
