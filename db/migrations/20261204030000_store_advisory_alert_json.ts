import type { Knex } from 'knex';

// Each advisory keeps its JSON as alerts embed it (`security_advisory`, spec §2.9) and its
// vulnerabilities' (`security_vulnerability`), written with the advisory
// (src/modules/advisories/advisory-alert-json.ts): a page of alerts reads them as they are
// instead of building 30 advisories from their rows (2.6 ms a page → 0.5 ms, measured on the
// bench world). `alert_json_format` names the serializer that wrote them; NULL (never written,
// or stale) makes readers build the JSON from the rows. The triggers make any write to what the
// JSON is made of, by whoever (an older release, hand-written SQL), mark it stale, so a stored
// copy never outlives its rows. Ids are never reused, so stale means only "build it".

// The columns serializeAdvisory reads (and no other: a trigger on a column keeps an earlier
// migration from dropping it).
const SOURCE_COLUMNS = [
  'svcsa_id', 'cve_id', 'classification', 'summary', 'description', 'severity', 'cvss_vector_string', 'cvss_score', 'cvss_severities',
  'epss_percentage', 'epss_percentile', 'cwes', 'identifiers', 'references', 'published_at', 'updated_at', 'withdrawn_at',
].map((c) => `"${c}"`).join(', ');

const PG_UP = [
  `CREATE FUNCTION advisories_alert_json_stale() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN NEW.alert_json_format := NULL; RETURN NEW; END $$`,
  `CREATE TRIGGER advisories_alert_json_stale BEFORE UPDATE OF ${SOURCE_COLUMNS} ON advisories
   FOR EACH ROW EXECUTE FUNCTION advisories_alert_json_stale()`,
  `CREATE FUNCTION advisory_vulnerabilities_alert_json_stale() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN UPDATE advisories SET alert_json_format = NULL WHERE id IN (SELECT advisory_id FROM changed) AND alert_json_format IS NOT NULL; RETURN NULL; END $$`,
  `CREATE TRIGGER advisory_vulnerabilities_alert_json_insert AFTER INSERT ON advisory_vulnerabilities
   REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION advisory_vulnerabilities_alert_json_stale()`,
  `CREATE TRIGGER advisory_vulnerabilities_alert_json_delete AFTER DELETE ON advisory_vulnerabilities
   REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION advisory_vulnerabilities_alert_json_stale()`,
  `CREATE FUNCTION advisory_vulnerabilities_alert_json_stale_row() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN UPDATE advisories SET alert_json_format = NULL WHERE id IN (OLD.advisory_id, NEW.advisory_id); RETURN NULL; END $$`,
  `CREATE TRIGGER advisory_vulnerabilities_alert_json_update AFTER UPDATE ON advisory_vulnerabilities
   FOR EACH ROW EXECUTE FUNCTION advisory_vulnerabilities_alert_json_stale_row()`,
];

const PG_DOWN = [
  'DROP TRIGGER IF EXISTS advisory_vulnerabilities_alert_json_update ON advisory_vulnerabilities',
  'DROP TRIGGER IF EXISTS advisory_vulnerabilities_alert_json_delete ON advisory_vulnerabilities',
  'DROP TRIGGER IF EXISTS advisory_vulnerabilities_alert_json_insert ON advisory_vulnerabilities',
  'DROP TRIGGER IF EXISTS advisories_alert_json_stale ON advisories',
  'DROP FUNCTION IF EXISTS advisory_vulnerabilities_alert_json_stale_row()',
  'DROP FUNCTION IF EXISTS advisory_vulnerabilities_alert_json_stale()',
  'DROP FUNCTION IF EXISTS advisories_alert_json_stale()',
];

// SQLite: row-level, and the row is updated again (recursive_triggers is off, and the update
// names no source column, so it fires nothing).
const SQLITE_UP = [
  `CREATE TRIGGER advisories_alert_json_stale AFTER UPDATE OF ${SOURCE_COLUMNS} ON advisories
   FOR EACH ROW WHEN NEW.alert_json_format IS NOT NULL BEGIN UPDATE advisories SET alert_json_format = NULL WHERE id = NEW.id; END`,
  `CREATE TRIGGER advisory_vulnerabilities_alert_json_insert AFTER INSERT ON advisory_vulnerabilities
   BEGIN UPDATE advisories SET alert_json_format = NULL WHERE id = NEW.advisory_id AND alert_json_format IS NOT NULL; END`,
  `CREATE TRIGGER advisory_vulnerabilities_alert_json_delete AFTER DELETE ON advisory_vulnerabilities
   BEGIN UPDATE advisories SET alert_json_format = NULL WHERE id = OLD.advisory_id AND alert_json_format IS NOT NULL; END`,
  `CREATE TRIGGER advisory_vulnerabilities_alert_json_update AFTER UPDATE ON advisory_vulnerabilities
   BEGIN UPDATE advisories SET alert_json_format = NULL WHERE id IN (OLD.advisory_id, NEW.advisory_id); END`,
];

const SQLITE_DOWN = [
  'DROP TRIGGER IF EXISTS advisory_vulnerabilities_alert_json_update',
  'DROP TRIGGER IF EXISTS advisory_vulnerabilities_alert_json_delete',
  'DROP TRIGGER IF EXISTS advisory_vulnerabilities_alert_json_insert',
  'DROP TRIGGER IF EXISTS advisories_alert_json_stale',
];

const isPg = (knex: Knex) => knex.client.config.client === 'pg';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('advisories', (t) => {
    t.text('alert_json').nullable();
    t.text('alert_json_vulnerabilities').nullable();
    t.integer('alert_json_format').nullable();
  });
  for (const statement of isPg(knex) ? PG_UP : SQLITE_UP) await knex.raw(statement);
}

export async function down(knex: Knex): Promise<void> {
  for (const statement of isPg(knex) ? PG_DOWN : SQLITE_DOWN) await knex.raw(statement);
  await knex.schema.alterTable('advisories', (t) => {
    t.dropColumn('alert_json_format');
    t.dropColumn('alert_json_vulnerabilities');
    t.dropColumn('alert_json');
  });
}
