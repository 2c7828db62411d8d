import type { Permissions, Scope } from '../../src/auth/grants';
import { grantMeets } from '../helpers/grant-check';
import { OPERATIONS as CATALOGUE, type HttpMethod, type OperationName } from '../../src/operations';
import { fillPath, operationsTagged } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { ORG, TOKENS, rolesWorld } from '../helpers/roles-world';

// Expected statuses are computed from the catalogue's requirements and what each caller is
// in the world, in the order the rules apply: 401, 404 (invisible), 403 grant, 403 caller.

type Caller =
  | { name: string; credentials: 'none' }
  | { name: string; credentials: 'invalid'; token: string }
  | { name: string; credentials: 'scopes'; token: string; scopes: Scope[]; isOwner: boolean; readsRoles: boolean }
  | { name: string; credentials: 'permissions'; token: string; permissions: Permissions; ownsOrg: boolean; user: { isOwner: boolean; readsRoles: boolean } | null };

const world = rolesWorld();
const declared = (token: string) => world.tokens.find((t) => t.token === token)!;
const permissionsOf = (token: string) => (declared(token) as { permissions: Permissions }).permissions;

const CALLERS: Caller[] = [
  { name: 'no token', credentials: 'none' },
  { name: 'an expired token', credentials: 'invalid', token: TOKENS.expired },
  { name: 'a revoked token', credentials: 'invalid', token: TOKENS.revoked },
  { name: 'an owner with admin:org', credentials: 'scopes', token: TOKENS.ownerClassic, scopes: ['admin:org'], isOwner: true, readsRoles: true },
  { name: 'an owner with only read:org and repo', credentials: 'scopes', token: TOKENS.ownerWithoutScope, scopes: ['read:org', 'repo'], isOwner: true, readsRoles: true },
  { name: 'an owner through an OAuth app', credentials: 'scopes', token: TOKENS.ownerOauth, scopes: ['admin:org'], isOwner: true, readsRoles: true },
  { name: 'a member without a role', credentials: 'scopes', token: TOKENS.memberClassic, scopes: ['admin:org'], isOwner: false, readsRoles: false },
  { name: 'a member holding the role-reader permission directly', credentials: 'scopes', token: TOKENS.roleReaderClassic, scopes: ['admin:org'], isOwner: false, readsRoles: true },
  { name: 'a member holding it through a team', credentials: 'scopes', token: TOKENS.teamRoleReaderClassic, scopes: ['admin:org'], isOwner: false, readsRoles: true },
  { name: 'an outsider', credentials: 'scopes', token: TOKENS.outsiderClassic, scopes: ['admin:org'], isOwner: false, readsRoles: false },
  { name: 'an owner\'s fine-grained token', credentials: 'permissions', token: TOKENS.ownerFineGrained, permissions: permissionsOf(TOKENS.ownerFineGrained), ownsOrg: true, user: { isOwner: true, readsRoles: true } },
  { name: 'an owner\'s fine-grained token without the permission', credentials: 'permissions', token: TOKENS.ownerFineGrainedNoPermission, permissions: permissionsOf(TOKENS.ownerFineGrainedNoPermission), ownsOrg: true, user: { isOwner: true, readsRoles: true } },
  { name: 'an owner\'s fine-grained token for another organization', credentials: 'permissions', token: TOKENS.ownerFineGrainedOtherOrg, permissions: permissionsOf(TOKENS.ownerFineGrainedOtherOrg), ownsOrg: false, user: { isOwner: true, readsRoles: true } },
  { name: 'an owner\'s fine-grained token owned by the organization\'s enterprise', credentials: 'permissions', token: TOKENS.ownerFineGrainedEnterprise, permissions: permissionsOf(TOKENS.ownerFineGrainedEnterprise), ownsOrg: false, user: { isOwner: true, readsRoles: true } },
  { name: 'an owner\'s app user token', credentials: 'permissions', token: TOKENS.ownerAppUser, permissions: permissionsOf(TOKENS.ownerAppUser), ownsOrg: true, user: { isOwner: true, readsRoles: true } },
  { name: 'an installation token', credentials: 'permissions', token: TOKENS.installation, permissions: permissionsOf(TOKENS.installation), ownsOrg: true, user: null },
  { name: 'an installation token without the permission', credentials: 'permissions', token: TOKENS.installationNoPermission, permissions: permissionsOf(TOKENS.installationNoPermission), ownsOrg: true, user: null },
  { name: 'an installation on another organization', credentials: 'permissions', token: TOKENS.installationOtherOrg, permissions: permissionsOf(TOKENS.installationOtherOrg), ownsOrg: false, user: null },
];

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

function expectedStatus(operation: Operation, caller: Caller): number {
  const requirement = CATALOGUE[operation.name].requirement;
  const success = operation.method === 'get' ? 200 : 204;
  if (caller.credentials === 'none' || caller.credentials === 'invalid') return 401;
  let person: { isOwner: boolean; readsRoles: boolean } | null;
  if (caller.credentials === 'scopes') {
    if (!grantMeets(requirement, caller)) return 403;
    person = caller;
  } else {
    if (!caller.ownsOrg) return 404;
    if (!grantMeets(requirement, caller)) return 403;
    person = caller.user;
  }
  if (person === null) return success; // an installation: its permissions alone decide
  const allowed = requirement.caller === 'orgAdmin' ? person.isOwner : person.isOwner || person.readsRoles;
  return allowed ? success : 403;
}

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
    if ('token' in caller && caller.token) request.set(bearer(caller.token));
    const res = await request;
    const expected = expectedStatus(operation, caller);
    expect({ status: res.status, message: res.body?.message }).toEqual({ status: expected, message: expected < 300 ? undefined : expect.any(String) });
    if (expected === 404) expect(res.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
    if (caller.credentials === 'scopes') expect(res.headers['x-accepted-oauth-scopes']).toBe(CATALOGUE[operation.name].requirement.scopes.join(', '));
  });
});

it('answers an invisible organization exactly like a missing one', async () => {
  const invisible = await t.http().get(`/orgs/${ORG}/organization-roles`).set(bearer(TOKENS.ownerFineGrainedOtherOrg));
  const missing = await t.http().get('/orgs/no-such-org/organization-roles').set(bearer(TOKENS.ownerFineGrainedOtherOrg));
  expect(invisible.status).toBe(404);
  expect(invisible.text).toBe(missing.text);
});
