import { AccessOracle, areaTarget, worldCallers } from '../helpers/access-oracle';
import { OPERATIONS as CATALOGUE, type HttpMethod, type OperationName } from '../../src/operations';
import { fillPath, operationsTagged } from '../helpers/operations';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ENTERPRISE, ORG, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';

// Expected statuses for #23–#27 from the access oracle: the catalogue's requirements and what
// each caller is in the world, in the order the rules apply.

type RepoName = 'repo-1' | 'repo-4'; // private, public

const advisories = makeAdvisories();
const world = alertsWorld(makeAlerts(40, 3, advisories, {}), advisories);
const oracle = new AccessOracle(world);
const CALLERS = worldCallers(world);

interface Operation { name: OperationName; method: HttpMethod; path: string; target: 'enterprise' | 'org' | RepoName; success: number }
// The catalogue's #23–#27: the enterprise and organization lists, then the repository operations on each repository.
const ALERT_OPERATIONS = operationsTagged('dependency-alerts');
const operationOn = (entry: (typeof ALERT_OPERATIONS)[number], target: Operation['target']): Operation => ({
  name: entry.name, method: entry.method, target, success: entry.success,
  path: fillPath(entry.path, { enterprise: ENTERPRISE, org: ORG, owner: ORG, repo: target, alert_number: '1' }),
});
const OPERATIONS: Operation[] = [
  ...ALERT_OPERATIONS.filter((entry) => entry.requirement.target !== 'repo').map((entry) => operationOn(entry, entry.requirement.target as 'enterprise' | 'org')),
  ...(['repo-1', 'repo-4'] as const).flatMap((repo) => ALERT_OPERATIONS.filter((entry) => entry.requirement.target === 'repo').map((entry) => operationOn(entry, repo))),
];

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
});
afterAll(() => t.close());

describe.each(OPERATIONS.map((op) => [`#${CATALOGUE[op.name].number} ${op.method.toUpperCase()} ${op.target}`, op] as const))('%s', (_title, op) => {
  it.each(CALLERS.map((caller) => [caller.name, caller] as const))('for %s, answers as the rules say', async (_name, caller) => {
    const request = t.http()[op.method](op.path);
    if (caller.header) request.set('Authorization', caller.header);
    const res = await (op.method === 'patch' ? request.send({ assignees: [] }) : request);
    expect(res.status).toBe(oracle.expect(caller, op.name, areaTarget({ enterprise: ENTERPRISE, org: ORG }, op.target), op.success).status);
  });
});
