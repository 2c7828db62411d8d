import { migrationSource } from '../../db/migrations';
import { migrateLatest } from '../../src/database/migrate';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

const NAME = '20261127030000_extend_advisories_for_osv';
const NOW = '2026-02-01T00:00:00Z';

let db: TestDatabase;
beforeEach(async () => {
  db = await createTestDatabase({ migrate: false });
});
afterEach(() => db.destroy());

function config(): { migrationSource: typeof migrationSource; schemaName?: string } {
  return { migrationSource, ...(db.schema ? { schemaName: db.schema } : {}) };
}

async function migrateTo(name: string): Promise<void> {
  await db.knex.migrate.up({ ...config(), name });
}

async function insertWorldAdvisory(svcsaId: string, classification: string, packages: Array<[string, string]>): Promise<number> {
  const [row] = await db.knex('advisories').insert({
    svcsa_id: svcsaId, cve_id: null, classification, summary: 's', description: 'd', severity: 'high', cwes: '[]',
    identifiers: '[]', references: '[]', published_at: NOW, updated_at: NOW,
  }).returning('id');
  const id = Number((row as { id: number }).id);
  for (const [ecosystem, name] of packages) {
    await db.knex('advisory_vulnerabilities').insert({
      advisory_id: id, ecosystem, package_name: name, severity: 'high', vulnerable_version_range: '< 1.0', first_patched_version: '1.0',
    });
  }
  return id;
}

async function triggerCount(): Promise<number> {
  const rows = db.dialect === 'postgres'
    ? await db.knex('information_schema.triggers').where('trigger_schema', db.schema!).select('trigger_name')
    : await db.knex('sqlite_master').where('type', 'trigger').select('name');
  return rows.length;
}

describe('the migration that extends advisories for OSV', () => {
  it('when advisories of a world file exist, gives them their type and their vulnerabilities a normalized package key', async () => {
    const names = (await migrationSource.getMigrations([])).map(([name]) => name);
    for (const name of names.slice(0, names.indexOf(NAME))) await migrateTo(name);
    await insertWorldAdvisory('SVCSA-general', 'general', [['pip', 'Django_REST.framework'], ['nuget', 'Newtonsoft.Json'], ['npm', 'JSONStream']]);
    await insertWorldAdvisory('SVCSA-malware', 'malware', [['composer', 'Vendor/Pkg']]);
    await migrateTo(NAME);

    expect(await db.knex('advisories').orderBy('svcsa_id').select('svcsa_id', 'type', 'modified', 'credits')).toEqual([
      { svcsa_id: 'SVCSA-general', type: 'reviewed', modified: null, credits: '[]' },
      { svcsa_id: 'SVCSA-malware', type: 'malware', modified: null, credits: '[]' },
    ]);
    expect(await db.knex('advisory_vulnerabilities').orderBy('id').select('package_key', 'ranges', 'versions', 'vulnerable_functions')).toEqual([
      { package_key: 'django-rest-framework', ranges: null, versions: '[]', vulnerable_functions: '[]' },
      { package_key: 'newtonsoft.json', ranges: null, versions: '[]', vulnerable_functions: '[]' },
      { package_key: 'JSONStream', ranges: null, versions: '[]', vulnerable_functions: '[]' },
      { package_key: 'vendor/pkg', ranges: null, versions: '[]', vulnerable_functions: '[]' },
    ]);
  });

  it('when rolled back alone, drops its columns, keeps every data_versions trigger, and migrates up again', async () => {
    await migrateLatest(db);
    const triggers = await triggerCount();
    await insertWorldAdvisory('SVCSA-kept', 'general', [['npm', 'left-pad']]);
    await db.knex.migrate.down({ ...config(), name: NAME });
    expect(await db.knex.schema.hasColumn('advisories', 'modified')).toBe(false);
    expect(await db.knex.schema.hasColumn('advisory_vulnerabilities', 'package_key')).toBe(false);
    expect(await triggerCount()).toBe(triggers);
    await migrateLatest(db);
    expect(await db.knex('advisory_vulnerabilities').select('package_name', 'package_key')).toEqual([{ package_name: 'left-pad', package_key: 'left-pad' }]);
    expect(await triggerCount()).toBe(triggers);
  });
});
