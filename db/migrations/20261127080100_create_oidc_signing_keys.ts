import type { Knex } from 'knex';

// The keys orgsec signs OIDC tokens with (interfaces.md Part 2 "OIDC tokens"): RS256, 2048 bits,
// shared by every instance over the database.
// - `generation` orders them: the highest is the signing key. The first key is generation 1,
//   inserted with ON CONFLICT DO NOTHING, so instances creating it at once end with one key;
//   a rotation inserts the next generation the same way. A key's successor's created_at is
//   when it stopped signing: the JWKS keeps it for a day after that.
// - `private_key` (PKCS #8 PEM) is read only by the signer: no answer, log line or command
//   output shows it. `public_jwk` is the JWKS entry ({kty, n, e}), `kid` its RFC 7638 thumbprint.
// Moves data_versions.data like every table answers are built from: the JWKS is, and each
// instance's cached signing key is kept per data version, so a rotation by another instance
// (or `orgsec oidc rotate-key`) reaches every instance at its next request.

export const OIDC_KEY_TABLES = ['oidc_signing_keys'];

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oidc_signing_keys', (t) => {
    t.integer('generation').primary();
    t.string('kid', 64).notNullable().unique({ indexName: 'oidc_signing_keys_kid_unique' });
    t.string('algorithm', 10).notNullable(); // RS256
    t.text('public_jwk').notNullable(); // JSON {kty, n, e}
    t.text('private_key').notNullable(); // PKCS #8 PEM
    t.string('created_at', 20).notNullable();
  });
  if (knex.client.config.client === 'pg') {
    for (const table of OIDC_KEY_TABLES) {
      const fn = `data_versions_bump_${table}`;
      await knex.raw(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; RETURN NULL; END $$`);
      await knex.raw(`CREATE TRIGGER ${fn} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${table} FOR EACH STATEMENT EXECUTE FUNCTION ${fn}()`);
    }
    return;
  }
  for (const table of OIDC_KEY_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await knex.raw(`CREATE TRIGGER data_versions_${event}_${table} AFTER ${event.toUpperCase()} ON ${table} BEGIN UPDATE data_versions SET data = data + 1 WHERE id = 1; END`);
    }
  }
}

export async function down(knex: Knex): Promise<void> {
  if (knex.client.config.client === 'pg') {
    for (const table of OIDC_KEY_TABLES) await knex.raw(`DROP FUNCTION IF EXISTS data_versions_bump_${table}() CASCADE`);
  }
  // SQLite drops a table's triggers with it.
  await knex.schema.dropTable('oidc_signing_keys');
}
