import type { Knex } from 'knex';

// An alert's recorded changes, for its page's history (issue 40): its events, in order, read by
// (alert_id, id) instead of every event of its repository. Events are only inserted, so the
// index costs each transition one more entry.

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.index(['alert_id', 'id'], 'events_alert_index');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('events', (t) => {
    t.dropIndex(['alert_id', 'id'], 'events_alert_index');
  });
}
