import fs from 'node:fs';
import path from 'node:path';
import { AccessOracle, areaTarget, worldCallers } from '../helpers/access-oracle';
import { OPERATIONS as CATALOGUE, type HttpMethod, type OperationName } from '../../src/operations';
import { fillPath, operationsTagged } from '../helpers/operations';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ORG, attestationsWorld } from '../helpers/attestations-world';

// Expected statuses for #21–#22 from the access oracle: the catalogue's requirements and what
// each caller is in the world, in the order the rules apply.

type RepoName = 'secret-app' | 'open-app';

const world = attestationsWorld();
const oracle = new AccessOracle(world);
const CALLERS = worldCallers(world);

interface Operation { name: OperationName; method: HttpMethod; repo: RepoName; path: string; success: number }
const DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';
// The catalogue's #21–#22 on each repository.
const OPERATIONS: Operation[] = (['secret-app', 'open-app'] as const).flatMap((repo) => operationsTagged('attestations').map((entry) => ({
  name: entry.name, method: entry.method, repo, path: fillPath(entry.path, { owner: ORG, repo }, { subject_digest: DIGEST }), success: entry.success,
})));

let t: TestApp;
const bundle = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'sigstore-bundle-v0.3-provenance.json'), 'utf8'));
beforeAll(async () => {
  t = await createTestApp();
  await t.load(attestationsWorld());
});
afterAll(() => t.close());

describe.each(OPERATIONS.map((op) => [`#${CATALOGUE[op.name].number} ${op.method.toUpperCase()} ${op.repo}`, op] as const))('%s', (_title, op) => {
  it.each(CALLERS.map((caller) => [caller.name, caller] as const))('for %s, answers as the rules say', async (_name, caller) => {
    const request = t.http()[op.method](op.path);
    if (caller.header) request.set('Authorization', caller.header);
    const res = await (op.method === 'post' ? request.send({ bundle }) : request);
    expect(res.status).toBe(oracle.expect(caller, op.name, areaTarget({ org: ORG }, op.repo), op.success).status);
  });
});
