import { AccessOracle, areaTarget, worldCallers } from '../helpers/access-oracle';
import { OPERATIONS as CATALOGUE, type HttpMethod, type OperationName } from '../../src/operations';
import { fillPath, operationsTagged } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { ORG, TOKENS, rolesWorld } from '../helpers/roles-world';

// Expected statuses from the access oracle: the catalogue's requirements and what each caller
// is in the world, in the order the rules apply: 401, 404 (invisible), 403 grant, 403 caller.

const world = rolesWorld();
const oracle = new AccessOracle(world);
const CALLERS = worldCallers(world);

interface Operation {
  name: OperationName;
  method: HttpMethod;
  path: (roleId: number) => string;
}

// The catalogue's #1–#10, on the team "plain", the user "newcomer" and the role under test.
const OPERATIONS: Operation[] = operationsTagged('organization-roles').map((entry) => ({
  name: entry.name,
  method: entry.method,
  path: (id) => fillPath(entry.path, { org: ORG, team_slug: 'plain', username: 'newcomer', role_id: String(id) }),
}));

let t: TestApp;
let roleId: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
  roleId = Number((await t.db.knex('organization_roles').where({ name: 'Deployer' }).first('id')).id);
});
afterAll(() => t.close());

describe.each(OPERATIONS)('$name ($method)', (operation) => {
  it.each(CALLERS.map((caller) => [caller.name, caller] as const))('for %s, answers as the rules say', async (_name, caller) => {
    const request = t.http()[operation.method](operation.path(roleId));
    if (caller.header) request.set('Authorization', caller.header);
    const res = await request;
    const expected = oracle.expect(caller, operation.name, areaTarget({ org: ORG }, 'org'), operation.method === 'get' ? 200 : 204).status;
    expect({ status: res.status, message: res.body?.message }).toEqual({ status: expected, message: expected < 300 ? undefined : expect.any(String) });
    if (expected === 404) expect(res.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
    if (caller.token?.scopes !== undefined) expect(res.headers['x-accepted-oauth-scopes']).toBe(CATALOGUE[operation.name].requirement.scopes.join(', '));
  });
});

it('answers an invisible organization exactly like a missing one', async () => {
  const invisible = await t.http().get(`/orgs/${ORG}/organization-roles`).set(bearer(TOKENS.ownerFineGrainedOtherOrg));
  const missing = await t.http().get('/orgs/no-such-org/organization-roles').set(bearer(TOKENS.ownerFineGrainedOtherOrg));
  expect(invisible.status).toBe(404);
  expect(invisible.text).toBe(missing.text);
});
