import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { hashTables } from '../helpers/table-hash';
import { PRIVATE, S, snapshot, snapshotsWorld } from '../helpers/snapshots-world';

// Issue 36, part 2: SQLite on a full disk and a read-only database. The file lives on a small
// tmpfs of its own, filled to the last byte, where the machine lets this process mount one
// (root on Linux); elsewhere `PRAGMA max_page_count` makes SQLite itself answer SQLITE_FULL.
// Read-only is SQLite's `query_only`, which answers SQLITE_READONLY as a read-only file does
// (a file system cannot be remounted read-only while the database holds it open for writing).
// Writes answer 503 with Retry-After and change nothing; reads go on; the file stays sound;
// writes succeed again as soon as the space returns.

const MOUNT_SIZE = '24m';

/** A tmpfs of MOUNT_SIZE at a new directory, or undefined where mounting is not allowed. */
function mountSmallFileSystem(): string | undefined {
  if (process.platform !== 'linux') return undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-full-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${MOUNT_SIZE}`, 'tmpfs', dir], { stdio: 'ignore' });
    return dir;
  } catch {
    fs.rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}

const mount = mountSmallFileSystem();
let t: TestApp;
const owner = bearer(S.owner);
let fillerPath: string | undefined;

beforeAll(async () => {
  t = await createTestApp(mount ? { sqliteDirectory: mount } : {});
  await t.load(snapshotsWorld());
}, 60_000);
afterAll(async () => {
  await t?.close();
  if (mount) {
    execFileSync('umount', [mount]);
    fs.rmSync(mount, { recursive: true, force: true });
  }
});

/** Fills the disk the database is on to the last byte (or caps SQLite's file at its size now). */
async function fillDisk(): Promise<void> {
  if (!mount) {
    const [{ page_count: pages }] = await t.db.knex.raw('pragma page_count');
    await t.db.knex.raw(`pragma max_page_count = ${Number(pages)}`);
    return;
  }
  fillerPath = path.join(mount, 'filler');
  const fd = fs.openSync(fillerPath, 'w');
  try {
    for (let chunk = 1 << 20; chunk >= 1;) {
      try {
        fs.writeSync(fd, Buffer.alloc(chunk));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
        chunk >>= 1;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
}

async function freeDisk(): Promise<void> {
  if (!mount) await t.db.knex.raw('pragma max_page_count = 1073741823');
  else fs.rmSync(fillerPath!);
}

/** A snapshot of many dependencies: its rows need new pages of the file. */
function bigSnapshot(id: string) {
  const resolved = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`pkg-${id}-${i}`, { package_url: `pkg:npm/pkg-${id}-${i}@1.0.${i}`, relationship: 'direct', scope: 'runtime' }]));
  return snapshot({ job: { id, correlator: `ci-${id}` }, manifests: { 'package-lock.json': { name: 'package-lock.json', resolved } } });
}

const submit = (body: unknown) => t.http().post(`/repos/${PRIVATE}/dependency-graph/snapshots`).set(owner).send(body as object);
const sbom = () => t.http().get(`/repos/${PRIVATE}/dependency-graph/sbom`).set(owner);
const submitByGraphQL = (body: unknown) => t.http().post('/graphql').set(owner).send({
  query: 'mutation($input: SubmitDependencySnapshotInput!) { submitDependencySnapshot(input: $input) { result } }',
  variables: { input: { owner: PRIVATE.split('/')[0], repository: PRIVATE.split('/')[1], snapshot: body } },
});

function expectUnavailable(res: { status: number; headers: Record<string, string>; body: unknown }, message: string) {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('5');
  expect(res.body).toEqual({ message, documentation_url: expect.stringContaining('/docs/'), status: '503' });
}

it(`on a full disk (${mount ? `a ${MOUNT_SIZE} tmpfs filled to the last byte` : 'PRAGMA max_page_count'}), writes answer 503 and change nothing, reads go on, and writes succeed once space returns`, async () => {
  expect((await submit(bigSnapshot('before'))).body.result).toBe('SUCCESS');
  const sbomBefore = (await sbom()).body;
  await fillDisk();
  const before = await hashTables(t.db.knex);

  for (const id of ['full-1', 'full-2', 'full-3']) {
    expectUnavailable(await submit(bigSnapshot(id)), 'The database has no space left for this change: try again in 5 seconds.');
  }
  const graphql = await submitByGraphQL(bigSnapshot('full-graphql'));
  expect(graphql.body.errors).toEqual([expect.objectContaining({
    message: 'The database has no space left for this change: try again in 5 seconds.',
    extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', retryAfterSeconds: 5 }),
  })]);
  expect(await hashTables(t.db.knex)).toEqual(before);
  const read = await sbom();
  expect(read.status).toBe(200);
  expect(read.body).toEqual(sbomBefore);

  await freeDisk();
  const after = await submit(bigSnapshot('after'));
  expect(after.status).toBe(201);
  expect(after.body.result).toBe('SUCCESS');
  const packages = (await sbom()).body.sbom.packages.map((p: { name: string }) => p.name);
  expect(packages).toContain('pkg-after-399');
  expect(packages).not.toContain('pkg-full-1-0');
  expect((await t.db.knex.raw('pragma integrity_check'))[0]).toEqual({ integrity_check: 'ok' });
}, 60_000);

it('on a read-only database, writes answer 503 and change nothing, reads go on, and writes succeed once it is writable', async () => {
  const before = await hashTables(t.db.knex);
  await t.db.knex.raw('pragma query_only = ON');
  try {
    expectUnavailable(await submit(bigSnapshot('read-only')), 'The database is read-only at the moment: try again in 5 seconds.');
    expect((await sbom()).status).toBe(200);
  } finally {
    await t.db.knex.raw('pragma query_only = OFF');
  }
  expect(await hashTables(t.db.knex)).toEqual(before);
  expect((await submit(bigSnapshot('writable'))).body.result).toBe('SUCCESS');
  expect((await t.db.knex.raw('pragma integrity_check'))[0]).toEqual({ integrity_check: 'ok' });
}, 60_000);
