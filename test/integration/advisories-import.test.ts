import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createServices } from '../../src/composition';
import { affectedVersionsOf } from '../../src/modules/advisories/stored-vulnerabilities';
import { isVersionAffected } from '../../src/modules/advisories/versions';
import type { Ecosystem } from '../../src/modules/advisories/osv';
import { FIXTURES } from '../unit/osv/osv-fixtures.expected';
import {
  fixtureFiles, importAdvisories, OSV_FIXTURES, readFixture, writeChangedFixture, writeEpssFile, writeZip,
} from '../helpers/advisory-import';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { AdvisoryLookupStore } from '../../src/modules/advisories/advisories.lookup-store';
import { serializeAdvisory } from '../../src/modules/advisories/advisories.serializers';
import { ADVISORY_ALERT_JSON_FORMAT } from '../../src/modules/advisories/advisory-alert-json';

// The advisory import on every dialect (interfaces.md "Advisory database"): the real OSV files
// of test/fixtures/osv stored field by field, idempotency by id and `modified`, withdrawn and
// malformed files, zip and folder layouts, EPSS files, and no partial advisory on failure.

let db: TestDatabase;
let dir: string;
beforeEach(async () => {
  db = await createTestDatabase();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-advisories-'));
});
afterEach(async () => {
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const json = (text: string | null) => (text === null ? null : JSON.parse(text));

async function advisoryRow(svcsaId: string) {
  return db.knex('advisories').where('svcsa_id', svcsaId).first();
}

async function vulnerabilityRows(svcsaId: string) {
  const rows = await db.knex('advisory_vulnerabilities as v')
    .join('advisories as a', 'a.id', 'v.advisory_id')
    .where('a.svcsa_id', svcsaId)
    .orderBy('v.id')
    .select('v.*');
  return rows.map((r) => ({
    ecosystem: r.ecosystem, package_name: r.package_name, package_key: r.package_key, severity: r.severity,
    vulnerable_version_range: r.vulnerable_version_range, first_patched_version: r.first_patched_version,
    vulnerable_functions: json(r.vulnerable_functions), ranges: json(r.ranges), versions: json(r.versions),
  }));
}

async function referenceVersion(): Promise<number> {
  return Number((await db.knex('data_versions').first('reference')).reference);
}

/** What `versions` of a package the stored rows of an advisory cover, by the version engine. */
async function coveredVersions(svcsaId: string, ecosystem: Ecosystem, versions: string[]): Promise<string[]> {
  const rows = await vulnerabilityRows(svcsaId);
  return versions.filter((version) => rows.some((row) => {
    const match = isVersionAffected(ecosystem, affectedVersionsOf(ecosystem, {
      ranges: row.ranges, versions: row.versions, vulnerableVersionRange: row.vulnerable_version_range,
    }), version);
    return match.ok && match.isAffected;
  }));
}

describe('importing the real OSV advisories of test/fixtures/osv', () => {
  it('stores every advisory with every field as the mapping says', async () => {
    const { summary, problems } = await importAdvisories(db, [OSV_FIXTURES]);
    expect(problems).toEqual([]);
    expect(summary).toEqual({ imported: FIXTURES.length, updated: 0, unchanged: 0, withdrawn: 0, skipped: 0, malformed: 0 });
    for (const facts of FIXTURES) {
      const id = path.basename(facts.file, '.json');
      const raw = readFixture(id) as Record<string, any>;
      const cvss = { vector_string: facts.vector, score: facts.score };
      const row = await advisoryRow(id);
      expect(row).toEqual({
        id: expect.any(Number),
        svcsa_id: id,
        cve_id: facts.cveId,
        type: 'reviewed',
        classification: 'general',
        summary: raw.summary,
        description: raw.details,
        severity: facts.severity,
        cvss_vector_string: facts.vector,
        cvss_score: facts.vector === null ? null : facts.score,
        cvss_severities: JSON.stringify({ cvss_v3: cvss, cvss_v4: { vector_string: null, score: 0 } }),
        epss_percentage: null,
        epss_percentile: null,
        cwes: JSON.stringify([facts.cwe]),
        identifiers: JSON.stringify([{ type: 'SVCSA', value: id }, { type: 'CVE', value: facts.cveId }]),
        references: JSON.stringify(raw.references.map(({ url }: { url: string }) => ({ url }))),
        published_at: raw.published,
        updated_at: raw.modified,
        withdrawn_at: null,
        reviewed_at: facts.reviewedAt,
        nvd_published_at: facts.nvdPublishedAt,
        source_code_location: facts.sourceCodeLocation,
        credits: '[]',
        modified: new Date(raw.modified).toISOString(),
        alert_json: expect.any(String),
        alert_json_vulnerabilities: expect.any(String),
        alert_json_format: ADVISORY_ALERT_JSON_FORMAT,
      });
      // As alerts embed it, written in the import's transaction from the rows just stored.
      const record = (await new AdvisoryLookupStore().findByIds(db.knex, [Number(row.id)])).get(Number(row.id))!;
      expect(row.alert_json).toBe(JSON.stringify(serializeAdvisory(record)));
      // GitHub's export of "= 0.2.0" (introduced 0.2.0 and versions [0.2.0]) reads back in its own syntax.
      expect({ id, rows: await vulnerabilityRows(id) }).toEqual({
        id,
        rows: facts.vulnerabilities.map((v) => ({
          ecosystem: v.ecosystem,
          package_name: v.name,
          package_key: v.ecosystem === 'nuget' || v.ecosystem === 'composer' ? v.name.toLowerCase() : v.name,
          severity: facts.severity,
          vulnerable_version_range: v.versions ? `= ${v.introduced}` : v.range,
          first_patched_version: v.fixed,
          vulnerable_functions: [],
          ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: v.introduced }, { fixed: v.fixed }] }],
          versions: v.versions ?? [],
        })),
      });
    }
  });

  it('matches exactly the versions the ranges cover, in each ecosystem', async () => {
    await importAdvisories(db, [OSV_FIXTURES]);
    expect(await coveredVersions('GHSA-25mq-v84q-4j7r', 'composer', ['6.5.7', 'v6.5.8', '6.5.8', '7.0.0-beta.1', '7.0.0', '7.4.4', '7.4.5'])).toEqual(['6.5.7', '7.0.0', '7.4.4']);
    expect(await coveredVersions('GHSA-3fvg-4v2m-98jf', 'npm', ['4.7.9', '4.8.0', '10.5.24', '10.5.25', '10.5.25-beta'])).toEqual(['4.8.0', '10.5.24', '10.5.25-beta']);
    expect(await coveredVersions('GHSA-22p3-qrh9-cx32', 'pip', ['1.61.0', '1.61.1rc1', '1.61.1', '1.61.1.post1'])).toEqual(['1.61.0', '1.61.1rc1']);
    expect(await coveredVersions('GHSA-39r3-h8q6-2phq', 'maven', ['2.0.3', '2.0.4-SNAPSHOT', '2.0.4', '2.0.4.1'])).toEqual(['2.0.3', '2.0.4-SNAPSHOT']);
    expect(await coveredVersions('GHSA-m22m-h4rf-pwq3', 'nuget', ['1.3.2', '1.3.3-RC', '1.3.3', '1.3.3.0'])).toEqual(['1.3.2', '1.3.3-RC']);
    expect(await coveredVersions('GHSA-26qj-cr27-r5c4', 'rubygems', ['0.1.0', '0.2.0', '0.2.1', '0.3.0'])).toEqual(['0.2.0', '0.2.1']);
    expect(await coveredVersions('GHSA-f3fp-gc8g-vw66', 'go', ['v1.1.1', '1.1.2-rc.1', 'v1.1.2'])).toEqual(['v1.1.1', '1.1.2-rc.1']);
    expect(await coveredVersions('GHSA-qc84-gqf4-9926', 'rust', ['0.8.6', '0.8.7'])).toEqual(['0.8.6']);
    expect(await coveredVersions('GHSA-4xh4-v2pq-jvhm', 'pub', ['3.0.2', '3.0.3'])).toEqual(['3.0.2']);
  });

  it('when imported a second time, leaves every advisory unchanged and writes nothing', async () => {
    await importAdvisories(db, [OSV_FIXTURES]);
    const before = await referenceVersion();
    const { summary } = await importAdvisories(db, [OSV_FIXTURES]);
    expect(summary).toEqual({ imported: 0, updated: 0, unchanged: FIXTURES.length, withdrawn: 0, skipped: 0, malformed: 0 });
    expect(await referenceVersion()).toBe(before);
  });
});

describe('importing a newer or older revision', () => {
  it('when modified is newer, updates the advisory and replaces its vulnerabilities, moving the reference version', async () => {
    await importAdvisories(db, [OSV_FIXTURES]);
    const before = await referenceVersion();
    const file = writeChangedFixture(dir, 'GHSA-25mq-v84q-4j7r', (osv) => {
      osv.modified = '2023-01-01T00:00:00.250Z';
      osv.summary = 'Changed summary';
      (osv.affected as unknown[]).pop();
    });
    const { summary } = await importAdvisories(db, [file]);
    expect(summary).toMatchObject({ imported: 0, updated: 1, unchanged: 0 });
    expect(await advisoryRow('GHSA-25mq-v84q-4j7r')).toMatchObject({ summary: 'Changed summary', updated_at: '2023-01-01T00:00:00Z', modified: '2023-01-01T00:00:00.250Z' });
    expect((await vulnerabilityRows('GHSA-25mq-v84q-4j7r')).map((v) => v.vulnerable_version_range)).toEqual(['< 6.5.8']);
    expect(await referenceVersion()).toBeGreaterThan(before);
  });

  it('when one run holds two revisions of an id, imports the first and updates it with the newer', async () => {
    const newer = writeChangedFixture(dir, 'GHSA-25mq-v84q-4j7r', (osv) => {
      osv.modified = '2023-01-01T00:00:00Z';
      osv.summary = 'Newer summary';
    });
    const first = fixtureFiles().find((f) => f.includes('GHSA-25mq-v84q-4j7r'))!;
    expect((await importAdvisories(db, [first, newer, first])).summary).toEqual({ imported: 1, updated: 1, unchanged: 1, withdrawn: 0, skipped: 0, malformed: 0 });
    expect((await advisoryRow('GHSA-25mq-v84q-4j7r')).summary).toBe('Newer summary');
    expect(await vulnerabilityRows('GHSA-25mq-v84q-4j7r')).toHaveLength(2);
  });

  it('when modified is older or equal, leaves the stored advisory as it is', async () => {
    await importAdvisories(db, [OSV_FIXTURES]);
    const older = writeChangedFixture(dir, 'GHSA-25mq-v84q-4j7r', (osv) => {
      osv.modified = '2022-01-01T00:00:00Z';
      osv.summary = 'Older summary';
    });
    expect((await importAdvisories(db, [older])).summary).toMatchObject({ updated: 0, unchanged: 1 });
    expect((await advisoryRow('GHSA-25mq-v84q-4j7r')).summary).not.toBe('Older summary');
  });

  it('when an advisory is withdrawn, records withdrawn_at and counts it as withdrawn', async () => {
    await importAdvisories(db, [OSV_FIXTURES]);
    const file = writeChangedFixture(dir, 'GHSA-3fvg-4v2m-98jf', (osv) => {
      osv.modified = '2023-02-01T00:00:00Z';
      osv.withdrawn = '2023-02-01T00:00:00Z';
    });
    expect((await importAdvisories(db, [file])).summary).toEqual({ imported: 0, updated: 0, unchanged: 0, withdrawn: 1, skipped: 0, malformed: 0 });
    expect((await advisoryRow('GHSA-3fvg-4v2m-98jf')).withdrawn_at).toBe('2023-02-01T00:00:00Z');
    expect((await importAdvisories(db, [file])).summary).toMatchObject({ withdrawn: 0, unchanged: 1 });
  });

  it('when a world file declared the id, the import replaces it (a world advisory has no revision)', async () => {
    await createServices(db).world.load({
      advisories: [{
        svcsa_id: 'GHSA-3fvg-4v2m-98jf', summary: 'from a world file', severity: 'low', published_at: '2022-01-01T00:00:00Z', updated_at: '2022-01-01T00:00:00Z',
        vulnerabilities: [{ package: { ecosystem: 'npm', name: 'jsrsasign' }, severity: 'low', vulnerable_version_range: '< 1.0.0' }],
      }],
    });
    const file = fixtureFiles().find((f) => f.includes('GHSA-3fvg-4v2m-98jf'))!;
    expect((await importAdvisories(db, [file])).summary).toMatchObject({ updated: 1 });
    expect((await vulnerabilityRows('GHSA-3fvg-4v2m-98jf')).map((v) => v.vulnerable_version_range)).toEqual(['>= 4.8.0, < 10.5.25']);
  });
});

describe('files that are skipped', () => {
  it('names a malformed file with its reason and imports the others', async () => {
    const good = writeChangedFixture(dir, 'GHSA-3fvg-4v2m-98jf', () => undefined);
    fs.writeFileSync(path.join(dir, 'broken.json'), '{"id": "GHSA-broken", "modified": ');
    fs.writeFileSync(path.join(dir, 'no-modified.json'), JSON.stringify({ id: 'GHSA-nomod' }));
    const { summary, problems } = await importAdvisories(db, [dir]);
    expect(summary).toEqual({ imported: 1, updated: 0, unchanged: 0, withdrawn: 0, skipped: 2, malformed: 2 });
    expect(problems.map((p) => [path.basename(p.path), p.kind])).toEqual([['broken.json', 'malformed'], ['no-modified.json', 'malformed']]);
    expect(problems[0]!.reason).toMatch(/^not JSON/);
    expect(problems[1]!.reason).toMatch(/modified/);
    expect(await advisoryRow('GHSA-3fvg-4v2m-98jf')).toBeDefined();
    expect(path.dirname(good)).toBe(dir);
  });

  it('skips an advisory whose only package is in an unknown ecosystem, and one too wide for its columns', async () => {
    const unknown = writeChangedFixture(dir, 'GHSA-3fvg-4v2m-98jf', (osv) => {
      (osv.affected as Array<{ package: { ecosystem: string } }>)[0]!.package.ecosystem = 'Hex';
    });
    const wide = writeChangedFixture(dir, 'GHSA-qc84-gqf4-9926', (osv) => {
      (osv.affected as Array<{ package: { name: string } }>)[0]!.package.name = 'x'.repeat(300);
    });
    const { summary, problems } = await importAdvisories(db, [unknown, wide]);
    expect(summary).toEqual({ imported: 0, updated: 0, unchanged: 0, withdrawn: 0, skipped: 2, malformed: 0 });
    expect(problems.map((p) => [p.id, p.kind, p.reason.slice(0, 44)])).toEqual([
      ['GHSA-3fvg-4v2m-98jf', 'skipped', 'no affected package in an ecosystem orgsec k'],
      ['GHSA-qc84-gqf4-9926', 'skipped', 'its package name is longer than 255 characte'],
    ]);
    expect(await db.knex('advisories').count({ n: '*' })).toEqual([{ n: 0 }]);
  });

  it('notes a range with a version the ecosystem cannot read, and imports the rest of the advisory', async () => {
    const file = writeChangedFixture(dir, 'GHSA-25mq-v84q-4j7r', (osv) => {
      (osv.affected as Array<{ ranges: Array<{ events: unknown[] }> }>)[0]!.ranges[0]!.events = [{ introduced: '0' }, { fixed: 'not a version!' }];
    });
    const { summary, problems } = await importAdvisories(db, [file]);
    expect(summary).toMatchObject({ imported: 1, skipped: 0 });
    expect(problems).toEqual([{ path: file, id: 'GHSA-25mq-v84q-4j7r', kind: 'note', reason: expect.stringMatching(/^a range of composer\/guzzlehttp\/guzzle was skipped: fixed: /) }]);
    expect((await vulnerabilityRows('GHSA-25mq-v84q-4j7r')).map((v) => v.vulnerable_version_range)).toEqual(['>= 7.0.0, < 7.4.5']);
  });
});

describe('layouts', () => {
  it('reads a .zip of OSV files, as the public OSV dumps ship them', async () => {
    const zip = path.join(dir, 'all.zip');
    await writeZip(zip, fixtureFiles().map((file) => [path.basename(file), fs.readFileSync(file, 'utf8')]));
    expect((await importAdvisories(db, [zip])).summary).toMatchObject({ imported: FIXTURES.length });
  });

  it('reads the advisory database repository layout, and several PATHs at once (a file given twice is unchanged the second time)', async () => {
    const [first] = fixtureFiles();
    expect((await importAdvisories(db, [first!, path.join(OSV_FIXTURES, 'advisories')])).summary)
      .toMatchObject({ imported: FIXTURES.length, unchanged: 1 });
  });
});

describe('no partial advisory', () => {
  it('when the database refuses a vulnerability, leaves nothing of that advisory and stops', async () => {
    // A trigger stands for any failure part way through the advisory's writes.
    if (db.dialect === 'postgres') {
      await db.knex.raw(`CREATE FUNCTION refuse_guzzle() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.package_name LIKE 'guzzlehttp/%' AND NEW.first_patched_version = '7.4.5' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
      await db.knex.raw('CREATE TRIGGER refuse_guzzle BEFORE INSERT ON advisory_vulnerabilities FOR EACH ROW EXECUTE FUNCTION refuse_guzzle()');
    } else {
      await db.knex.raw(`CREATE TRIGGER refuse_guzzle BEFORE INSERT ON advisory_vulnerabilities WHEN NEW.package_name LIKE 'guzzlehttp/%' AND NEW.first_patched_version = '7.4.5' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
    }
    // The fixtures are one batch: it fails whole, then each file is written in its own transaction, in order.
    const outcome = await importAdvisories(db, [OSV_FIXTURES]).then((run) => JSON.stringify(run), (error: Error) => error.message);
    expect(outcome).toMatch(/refused/);
    expect(await advisoryRow('GHSA-25mq-v84q-4j7r')).toBeUndefined();
    const before = fixtureFiles().findIndex((f) => f.includes('GHSA-25mq-v84q-4j7r'));
    expect(await db.knex('advisories').orderBy('svcsa_id').pluck('svcsa_id')).toEqual(fixtureFiles().slice(0, before).map((f) => path.basename(f, '.json')).sort());
    expect(await db.knex('advisory_vulnerabilities').count({ n: '*' })).toEqual([{ n: before }]);
  });
});

describe('EPSS scores', () => {
  it.each(['epss.csv', 'epss.csv.gz'])('from %s, set the scores of the advisories with those CVEs, and only write what changed', async (name) => {
    await importAdvisories(db, [OSV_FIXTURES]);
    const file = path.join(dir, name);
    writeEpssFile(file, [['CVE-2022-25898', '0.00231', '0.61234'], ['CVE-2022-31090', '0.5', '0.97'], ['CVE-1999-0001', '0.1', '0.2']]);
    const services = createServices(db);
    const lineErrors: unknown[] = [];
    const summary = await services.epssImport.importFile(file, (error) => lineErrors.push(error));
    expect(summary).toEqual({ scores: 3, updated: 2, model: { version: 'v2025.03.14', scoreDate: '2026-11-26T12:55:00Z' } });
    expect(lineErrors).toEqual([]);
    expect(await advisoryRow('GHSA-3fvg-4v2m-98jf')).toMatchObject({ epss_percentage: 0.00231, epss_percentile: '0.61234' });
    expect(await advisoryRow('GHSA-25mq-v84q-4j7r')).toMatchObject({ epss_percentage: 0.5, epss_percentile: '0.97' });
    const before = await referenceVersion();
    expect((await services.epssImport.importFile(file, () => undefined)).updated).toBe(0);
    expect(await referenceVersion()).toBe(before);
  });

  it('moves the copies alerts keep of an advisory: its EPSS percentage, and its severity when a newer revision changes it', async () => {
    const services = createServices(db);
    await services.world.load({
      users: [{ login: 'epss-owner' }], organizations: [{ login: 'epss-org', owners: ['epss-owner'] }], repositories: [{ owner: 'epss-org', name: 'r' }],
      advisories: [{
        svcsa_id: 'GHSA-3fvg-4v2m-98jf', cve_id: 'CVE-2022-25898', summary: 's', severity: 'low', published_at: '2022-01-01T00:00:00Z', updated_at: '2022-01-01T00:00:00Z',
        vulnerabilities: [{ package: { ecosystem: 'npm', name: 'jsrsasign' }, severity: 'low', vulnerable_version_range: '< 10.5.25' }],
      }],
      alerts: [{ repository: 'epss-org/r', number: 1, advisory: 'GHSA-3fvg-4v2m-98jf', package: { ecosystem: 'npm', name: 'jsrsasign' }, manifest_path: 'package.json' }],
    });
    const alert = () => db.knex('dependency_alerts').first('severity', 'epss_percentage', 'has_patch', 'version');
    const before = await alert();
    await importAdvisories(db, [OSV_FIXTURES]);
    expect(await alert()).toMatchObject({ severity: 'high', epss_percentage: null });
    expect(Boolean((await alert()).has_patch)).toBe(true);
    const file = path.join(dir, 'epss.csv');
    writeEpssFile(file, [['CVE-2022-25898', '0.25', '0.9']]);
    await services.epssImport.importFile(file, () => undefined);
    expect(await alert()).toMatchObject({ severity: 'high', epss_percentage: 0.25 });
    expect(Number((await alert()).version)).toBeGreaterThan(Number(before.version));
  });

  it('reports a bad line with its number and sets the others', async () => {
    await importAdvisories(db, [OSV_FIXTURES]);
    const file = path.join(dir, 'epss.csv');
    writeEpssFile(file, [['CVE-2022-25898', 'high', '0.6'], ['CVE-2022-31090', '0.5', '0.97']]);
    const lineErrors: unknown[] = [];
    const summary = await createServices(db).epssImport.importFile(file, (error) => lineErrors.push(error));
    expect(lineErrors).toEqual([{ line: 3, reason: 'epss "high" is not a number from 0 to 1' }]);
    expect(summary.updated).toBe(1);
  });
});

describe('advisories of world files', () => {
  const worldAdvisory = (range: string) => ({
    advisories: [{
      svcsa_id: 'SVCSA-world-range', summary: 's', severity: 'high', published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
      vulnerabilities: [
        { package: { ecosystem: 'pip', name: 'Django_Rest' }, severity: 'high', vulnerable_version_range: '>= 1.0, < 1.2.3', first_patched_version: { identifier: '1.2.3' } },
        { package: { ecosystem: 'npm', name: 'left-pad' }, severity: 'high', vulnerable_version_range: range },
      ],
    }],
  });

  it('store their ranges as the events an import would, matched by the same code', async () => {
    await createServices(db).world.load(worldAdvisory('= 1.3.0'));
    expect(await vulnerabilityRows('SVCSA-world-range')).toEqual([
      {
        ecosystem: 'pip', package_name: 'Django_Rest', package_key: 'django-rest', severity: 'high', vulnerable_version_range: '>= 1.0, < 1.2.3',
        first_patched_version: '1.2.3', vulnerable_functions: [], ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '1.0' }, { fixed: '1.2.3' }] }], versions: [],
      },
      {
        ecosystem: 'npm', package_name: 'left-pad', package_key: 'left-pad', severity: 'high', vulnerable_version_range: '= 1.3.0',
        first_patched_version: null, vulnerable_functions: [], ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '1.3.0' }, { last_affected: '1.3.0' }] }], versions: [],
      },
    ]);
    expect(await coveredVersions('SVCSA-world-range', 'pip', ['0.9', '1.0', '1.2.3rc1', '1.2.3'])).toEqual(['1.0', '1.2.3rc1']);
    expect((await advisoryRow('SVCSA-world-range')).type).toBe('reviewed');
  });

  it('refuse a range that does not parse with a load error naming the entry, and write nothing', async () => {
    await expect(createServices(db).world.load(worldAdvisory('< 2'))).rejects.toThrow(
      'advisories[0] "SVCSA-world-range" vulnerabilities[1]: vulnerable_version_range: "2" is not a npm version',
    );
    expect(await db.knex('advisories').count({ n: '*' })).toEqual([{ n: 0 }]);
  });
});
