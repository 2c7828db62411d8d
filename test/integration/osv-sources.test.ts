import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ZipFile } from 'yazl';
import { readOsvSources, type OsvSourceItem } from '../../src/modules/advisories/osv';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'osv');
const FIXTURE_IDS = [
  'GHSA-m22m-h4rf-pwq3',
  'GHSA-qc84-gqf4-9926',
  'GHSA-f3fp-gc8g-vw66',
  'GHSA-22p3-qrh9-cx32',
  'GHSA-25mq-v84q-4j7r',
  'GHSA-26qj-cr27-r5c4',
  'GHSA-2gqg-2rg7-gh33',
  'GHSA-39r3-h8q6-2phq',
  'GHSA-3fvg-4v2m-98jf',
  'GHSA-4xh4-v2pq-jvhm',
];

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-osv-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Each item as `path → id` or `path ✗ reason`, the way a summary would list it. */
async function outcomes(paths: string[]): Promise<string[]> {
  const seen: string[] = [];
  for await (const item of readOsvSources(paths)) seen.push(describeItem(item));
  return seen;
}

function describeItem(item: OsvSourceItem): string {
  return 'document' in item ? `${item.path} → ${item.document.id}` : `${item.path} ✗ ${item.error.reason}`;
}

async function writeZip(file: string, entries: Array<[string, string | null]>): Promise<void> {
  const zip = new ZipFile();
  for (const [name, text] of entries) {
    if (text === null) zip.addEmptyDirectory(name);
    else zip.addBuffer(Buffer.from(text), name);
  }
  zip.end();
  await new Promise<void>((resolve, reject) => {
    zip.outputStream.pipe(fs.createWriteStream(file)).on('close', resolve).on('error', reject);
  });
}

describe('readOsvSources', () => {
  it('walks a folder in the advisory database layout recursively, in name order', async () => {
    const seen = await outcomes([FIXTURES]);
    expect(seen).toEqual(FIXTURE_IDS.map((id) => `${fixtureFile(id)} → ${id}`));
  });

  it('reads a single OSV file, and ignores files of a folder that are not *.json', async () => {
    const file = path.join(dir, 'PYSEC-2024-1.json');
    fs.writeFileSync(file, JSON.stringify({ id: 'PYSEC-2024-1', modified: '2024-01-01T00:00:00Z' }));
    fs.writeFileSync(path.join(dir, 'README.md'), '# not an advisory');
    expect(await outcomes([file])).toEqual([`${file} → PYSEC-2024-1`]);
    expect(await outcomes([dir])).toEqual([`${file} → PYSEC-2024-1`]);
  });

  it('names each malformed file with its reason and goes on with the others', async () => {
    const files: Array<[string, string]> = [
      ['a-bad-json.json', '{"id": "GHSA-1",'],
      ['b-array.json', '[]'],
      ['c-no-id.json', '{"modified": "2024-01-01T00:00:00Z"}'],
      ['d-good.json', '\uFEFF{"id": "GHSA-2"}'],
    ];
    for (const [name, text] of files) fs.writeFileSync(path.join(dir, name), text);
    const seen = await outcomes([dir]);
    expect(seen).toEqual([
      expect.stringMatching(/a-bad-json\.json ✗ not JSON \(.+\)$/),
      `${path.join(dir, 'b-array.json')} ✗ not an OSV object (the JSON is not an object)`,
      `${path.join(dir, 'c-no-id.json')} ✗ not an OSV advisory: "id" is missing or not a non-empty string`,
      `${path.join(dir, 'd-good.json')} → GHSA-2`,
    ]);
  });

  it('reads the .json entries of a zip dump one by one, naming each as zip!/entry', async () => {
    const zip = path.join(dir, 'all.zip');
    await writeZip(zip, [
      ['GHSA-1.json', JSON.stringify({ id: 'GHSA-1' })],
      ['nested/', null],
      ['nested/MAL-2.json', JSON.stringify({ id: 'MAL-2' })],
      ['broken.json', 'not json'],
      ['notes.txt', 'skipped'],
    ]);
    expect(await outcomes([zip])).toEqual([
      `${zip}!/GHSA-1.json → GHSA-1`,
      `${zip}!/nested/MAL-2.json → MAL-2`,
      expect.stringMatching(/all\.zip!\/broken\.json ✗ not JSON/),
    ]);
  });

  it('names a damaged zip entry and reads the entries after it', async () => {
    const zip = path.join(dir, 'damaged.zip');
    await writeZip(zip, [
      ['one.json', JSON.stringify({ id: 'GHSA-1', details: 'a'.repeat(2000) })],
      ['two.json', JSON.stringify({ id: 'GHSA-2' })],
    ]);
    const bytes = fs.readFileSync(zip);
    // The first entry's deflate data follows its local header (30 bytes, the name, the extra field).
    const dataStart = 30 + bytes.readUInt16LE(26) + bytes.readUInt16LE(28);
    fs.writeFileSync(zip, bytes.fill(0xff, dataStart, dataStart + 8));
    expect(await outcomes([zip])).toEqual([`${zip}!/one.json ✗ unreadable zip entry (invalid block type)`, `${zip}!/two.json → GHSA-2`]);
  });

  it('reads a zip of the real fixtures to the same documents as their folder', async () => {
    const zip = path.join(dir, 'fixtures.zip');
    const files = FIXTURE_IDS.map((id) => fs.readFileSync(fixtureFile(id), 'utf8'));
    await writeZip(zip, FIXTURE_IDS.map((id, i) => [`${id}.json`, files[i] ?? ''] as [string, string]));
    const fromZip: unknown[] = [];
    for await (const item of readOsvSources([zip])) if ('document' in item) fromZip.push(item.document);
    expect(fromZip).toEqual(files.map((text) => JSON.parse(text)));
  });

  it('reports a missing PATH and a corrupt zip, then goes on with the next PATH', async () => {
    const corrupt = path.join(dir, 'corrupt.zip');
    fs.writeFileSync(corrupt, 'PK but not really a zip file at all');
    const good = path.join(dir, 'good.json');
    fs.writeFileSync(good, JSON.stringify({ id: 'GHSA-3' }));
    const seen = await outcomes([path.join(dir, 'missing'), corrupt, good]);
    expect(seen).toEqual([
      `${path.join(dir, 'missing')} ✗ no such file or folder`,
      expect.stringMatching(/corrupt\.zip ✗ unreadable \(.+\)$/),
      `${good} → GHSA-3`,
    ]);
  });

  it('reads a folder file by file: a file removed while the walk is under way is reported, not already read', async () => {
    for (const name of ['a.json', 'b.json']) fs.writeFileSync(path.join(dir, name), JSON.stringify({ id: name }));
    const seen: string[] = [];
    for await (const item of readOsvSources([dir])) {
      seen.push(describeItem(item));
      if (seen.length === 1) fs.rmSync(path.join(dir, 'b.json'));
    }
    expect(seen).toEqual([`${path.join(dir, 'a.json')} → a.json`, `${path.join(dir, 'b.json')} ✗ no such file or folder`]);
  });
});

/** Where a fixture lies in the advisory database layout (advisories/github-reviewed/YYYY/MM/ID/ID.json). */
function fixtureFile(id: string): string {
  const month = { 'GHSA-m22m-h4rf-pwq3': '02', 'GHSA-qc84-gqf4-9926': '02', 'GHSA-f3fp-gc8g-vw66': '05', 'GHSA-4xh4-v2pq-jvhm': '09' }[id] ?? '06';
  return path.join(FIXTURES, 'advisories/github-reviewed/2022', month, id, `${id}.json`);
}
