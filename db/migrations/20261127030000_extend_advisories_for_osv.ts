import type { Knex } from 'knex';

// The global advisory database (interfaces.md "Advisory database"): advisories imported from
// OSV gain the global list's fields and keep what matching needs. Columns are added, never
// rebuilt: SQLite rebuilds a table to change a column, which would drop its data_versions triggers.
//
// advisories:
// - type: reviewed | unreviewed | malware (the global list's `type`); rows of world files are
//   reviewed, or malware when classified so.
// - reviewed_at, nvd_published_at: timestamps in the stored form (as published_at).
// - source_code_location, credits (JSON array).
// - modified: the OSV `modified` of the imported revision, ISO 8601 with milliseconds (fixed
//   width, so text order is time order); null for advisories of world files. An import updates
//   an advisory only when its `modified` is newer.
// - severity keeps its column: `unknown` (no severity and no CVSS vector) is stored as is, as
//   the original's global list shows it.
// - an index on cve_id: EPSS scores are set by CVE.
// advisory_vulnerabilities (one row per vulnerable interval, as the original's global list shows):
// - package_key: the package name normalized per ecosystem (the version engine's
//   normalizePackageName), indexed with ecosystem so `affects` look-ups by package use the index.
// - vulnerable_functions (JSON array).
// - ranges, versions: the OSV ranges (events) and explicit versions the row matches by (JSON).
//   ranges is null on rows written before this migration: their vulnerable_version_range is
//   parsed instead (a world file loaded again writes them).

/** normalizePackageName as of this migration, frozen here (migrations never import src/). */
function packageKey(ecosystem: string, name: string): string {
  const trimmed = name.trim();
  if (ecosystem === 'pip') return trimmed.toLowerCase().replace(/[-_.]+/g, '-');
  if (ecosystem === 'nuget' || ecosystem === 'composer') return trimmed.toLowerCase();
  return trimmed;
}

export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('advisories', (t) => {
    t.string('type', 20).notNullable().defaultTo('reviewed');
    t.string('reviewed_at', 20).nullable();
    t.string('nvd_published_at', 20).nullable();
    t.text('source_code_location').nullable();
    t.text('credits').notNullable().defaultTo('[]');
    t.string('modified', 24).nullable();
    t.index(['cve_id'], 'advisories_cve_id_index');
  });
  await knex('advisories').where('classification', 'malware').update({ type: 'malware' });

  await knex.schema.alterTable('advisory_vulnerabilities', (t) => {
    t.string('package_key', 255).notNullable().defaultTo('');
    t.text('vulnerable_functions').notNullable().defaultTo('[]');
    t.text('ranges').nullable();
    t.text('versions').notNullable().defaultTo('[]');
    t.index(['ecosystem', 'package_key'], 'advisory_vulnerabilities_package_index');
  });
  const rows: Array<{ id: number; ecosystem: string; package_name: string }> = await knex('advisory_vulnerabilities').select('id', 'ecosystem', 'package_name');
  for (const row of rows) {
    await knex('advisory_vulnerabilities').where('id', row.id).update({ package_key: packageKey(row.ecosystem, row.package_name) });
  }
}

// Plain DROP COLUMN on both dialects (SQLite ≥ 3.35), for the reason above; an index goes first.
export async function down(knex: Knex): Promise<void> {
  await knex.raw('DROP INDEX advisory_vulnerabilities_package_index');
  for (const column of ['package_key', 'vulnerable_functions', 'ranges', 'versions']) {
    await knex.raw(`ALTER TABLE advisory_vulnerabilities DROP COLUMN ${column}`);
  }
  await knex.raw('DROP INDEX advisories_cve_id_index');
  for (const column of ['type', 'reviewed_at', 'nvd_published_at', 'source_code_location', 'credits', 'modified']) {
    await knex.raw(`ALTER TABLE advisories DROP COLUMN ${column}`);
  }
}
