import type { Knex } from 'knex';

// data_versions.world becomes data_versions.reference: the counter moves with writes to the
// tables cached JSON fragments of other records are built from (the records alerts refer to),
// and "world" already names the world-file format. SQLite's RENAME COLUMN rewrites the
// triggers that name the column; PostgreSQL's trigger functions are plain text and are
// written again for the tables whose writes move the counter.

const REFERENCE_TABLES = ['accounts', 'repositories', 'advisories', 'advisory_vulnerabilities'];

async function rename(knex: Knex, from: string, to: string): Promise<void> {
  await knex.raw(`ALTER TABLE data_versions RENAME COLUMN ${from} TO ${to}`);
  if (knex.client.config.client !== 'pg') return;
  for (const table of REFERENCE_TABLES) {
    await knex.raw(`CREATE OR REPLACE FUNCTION data_versions_bump_${table}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN UPDATE data_versions SET data = data + 1, ${to} = ${to} + 1 WHERE id = 1; RETURN NULL; END $$`);
  }
}

export const up = (knex: Knex): Promise<void> => rename(knex, 'world', 'reference');
export const down = (knex: Knex): Promise<void> => rename(knex, 'reference', 'world');
