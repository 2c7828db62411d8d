import type { Knex } from 'knex';

// Rate-limit windows live in the database so that every instance over it counts the same
// requests: one row per caller, resource and fixed window.
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rate_limit_counters', (t) => {
    t.string('bucket', 200).notNullable(); // resource and caller, e.g. core:user:5
    t.bigInteger('window_start').notNullable(); // unix seconds
    t.bigInteger('expires_at').notNullable(); // unix seconds: the window's end
    t.integer('hits').notNullable();
    t.primary(['bucket', 'window_start']);
    t.index(['expires_at'], 'rate_limit_counters_expires_at_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rate_limit_counters');
}
