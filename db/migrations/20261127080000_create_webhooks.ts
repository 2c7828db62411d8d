import type { Knex } from 'knex';

// Webhooks (interfaces.md Part 2 "Webhooks"; the database is the queue):
// - webhooks: organization and repository hooks (org_id or repo_id set, never both). `events`
//   is a JSON array of event names (`*` for all). `secret` is never shown by any answer, log
//   line or delivery record; null: deliveries are not signed. Moves data_versions.data like
//   every table answers are built from.
// - webhook_deliveries: the queue, one row per (hook, event) to deliver, written in the
//   transaction that writes the event (so nothing acknowledged is lost), or by a ping or a
//   person's redelivery. `payload` is the body when no events row holds it (a ping).
//   state: pending | delivered | failed (gave up: 24 hours of retries). A worker claims a row
//   by moving `claimed_until` forward (FOR UPDATE SKIP LOCKED on PostgreSQL); a hook's rows go
//   out in id order, one at a time. `guid` (X-Service-Delivery) is given at the first attempt
//   and kept by every later one and by redeliveries.
// - webhook_delivery_attempts: one row per attempt (what the deliveries list shows), with the
//   request and response as sent and received, bounded.
// The two delivery tables do not move data_versions: workers write them all the time, and no
// cached answer is built from them (their reads are never cached).

export const WEBHOOK_TABLES = ['webhooks'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhooks', (t) => {
    t.increments('id').primary();
    t.integer('org_id').nullable().references('account_id').inTable('organizations').onDelete('CASCADE');
    t.integer('repo_id').nullable().references('id').inTable('repositories').onDelete('CASCADE');
    t.string('name', 20).notNullable(); // web
    t.boolean('active').notNullable();
    t.text('events').notNullable(); // JSON array
    t.string('url', 2048).notNullable();
    t.string('content_type', 10).notNullable(); // json | form
    t.text('secret').nullable();
    t.string('insecure_ssl', 1).notNullable(); // "0" | "1"
    t.string('created_at', 20).notNullable();
    t.string('updated_at', 20).notNullable();
    t.index(['org_id'], 'webhooks_org_index');
    t.index(['repo_id'], 'webhooks_repo_index');
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id').primary();
    t.integer('hook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    t.bigInteger('event_id').nullable(); // events.id; null for a ping
    t.string('event', 40).notNullable();
    t.string('action', 40).nullable();
    t.integer('repo_id').nullable();
    t.text('payload').nullable();
    t.string('guid', 36).nullable();
    t.boolean('redelivery').notNullable().defaultTo(false);
    t.string('state', 10).notNullable(); // pending | delivered | failed
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('next_attempt_at').notNullable(); // epoch ms
    t.bigInteger('claimed_until').nullable(); // epoch ms
    t.string('created_at', 20).notNullable();
    t.bigInteger('created_ms').notNullable(); // epoch ms: the 24 hours of retries count from here
    t.index(['hook_id', 'state', 'id'], 'webhook_deliveries_hook_index');
    t.index(['state', 'next_attempt_at'], 'webhook_deliveries_due_index');
  });
  await knex.schema.createTable('webhook_delivery_attempts', (t) => {
    t.bigIncrements('id').primary();
    t.bigInteger('delivery_id').notNullable().references('id').inTable('webhook_deliveries').onDelete('CASCADE');
    t.integer('hook_id').notNullable().references('id').inTable('webhooks').onDelete('CASCADE');
    t.string('guid', 36).notNullable();
    t.boolean('redelivery').notNullable();
    t.string('delivered_at', 20).notNullable();
    t.double('duration').notNullable(); // seconds
    t.string('status', 255).notNullable(); // "OK", "Invalid HTTP Response: 500", "timed out", …
    t.integer('status_code').notNullable(); // 0 when no answer came
    t.string('event', 40).notNullable();
    t.string('action', 40).nullable();
    t.integer('repo_id').nullable();
    t.string('url', 2048).notNullable();
    t.text('request_headers').notNullable(); // JSON object
    t.text('request_body').notNullable(); // bounded
    t.text('response_headers').nullable(); // JSON object
    t.text('response_body').nullable(); // bounded
    t.index(['hook_id', 'id'], 'webhook_delivery_attempts_hook_index');
    t.index(['delivery_id'], 'webhook_delivery_attempts_delivery_index');
  });
  if (knex.client.config.client === 'pg') {
    for (const table of WEBHOOK_TABLES) {
      const fn = `data_versions_bump_${table}`;
      await knex.raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; RETURN NULL; END $$`);
      await knex.raw(`CREATE TRIGGER ${fn} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    }
    return;
  }
  for (const table of WEBHOOK_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await knex.raw(`CREATE TRIGGER data_versions_${event}_${table} AFTER ${event.toUpperCase()} ON ${table} BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; END`);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    for (const table of WEBHOOK_TABLES) await knex.raw(`DROP FUNCTION IF EXISTS data_versions_bump_${table}() CASCADE`);
  }
  // SQLite drops a table's triggers with it.
  for (const table of ['webhook_delivery_attempts', 'webhook_deliveries', 'webhooks']) await knex.schema.dropTable(table);
}
