import type { Permissions, Scope } from '../../src/auth/grants';
import { declaredGrants, grantMeets } from '../helpers/grant-check';
import { OPERATIONS as CATALOGUE, type HttpMethod, type OperationName } from '../../src/operations';
import { fillPath, operationsTagged } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { ENTERPRISE, ORG, T, oidcWorld } from '../helpers/oidc-world';

// Expected statuses for #11–#20, #64 and #65 computed from the catalogue's requirements and what each caller
// is in the world, in the order the rules apply.

type RepoPermission = 'read' | 'write' | 'admin' | null;
type RepoName = 'private-repo' | 'public-repo';
interface Person {
  enterpriseRole: 'owner' | 'member' | null;
  oidcAdmin: boolean; // an owner of the organization or holding ci_cd_admin
  repos: Record<RepoName, RepoPermission>;
}
type Caller =
  | { name: string; kind: 'none' }
  | { name: string; kind: 'invalid'; token: string }
  | { name: string; kind: 'scopes'; token: string; scopes: Scope[]; person: Person }
  | { name: string; kind: 'permissions'; token: string; permissions: Permissions; owner: 'org' | 'enterprise' | 'other'; repos: 'all' | string[]; person: Person | null };

const world = oidcWorld();
const declared = declaredGrants(world);

const ADMIN = { 'private-repo': 'admin', 'public-repo': 'admin' } as const;
const NO_REPOS = { 'private-repo': null, 'public-repo': null } as const;
const ENT_OWNER: Person = { enterpriseRole: 'owner', oidcAdmin: true, repos: ADMIN };
const ORG_OWNER: Person = { enterpriseRole: 'member', oidcAdmin: true, repos: ADMIN };
const classic = (name: string, token: string, person: Person): Caller => ({ name, kind: 'scopes', token, scopes: declared(token).scopes!, person });
const fine = (name: string, token: string, owner: 'org' | 'enterprise' | 'other', person: Person | null, repos: 'all' | string[] = 'all'): Caller =>
  ({ name, kind: 'permissions', token, permissions: declared(token).permissions!, owner, repos, person });

const CALLERS: Caller[] = [
  { name: 'no token', kind: 'none' },
  { name: 'an expired token', kind: 'invalid', token: T.expired },
  classic('an enterprise owner (also an org owner)', T.entOwner, ENT_OWNER),
  classic('an enterprise owner without admin:enterprise', T.entOwnerNoScope, ENT_OWNER),
  classic('an enterprise member', T.entMember, { enterpriseRole: 'member', oidcAdmin: false, repos: NO_REPOS }),
  classic('an organization owner', T.orgOwner, ORG_OWNER),
  classic('an organization owner with read:org only', T.orgOwnerReadOrg, ORG_OWNER),
  classic('an organization owner with write:org only', T.orgOwnerWriteOrg, ORG_OWNER),
  classic('a member holding ci_cd_admin', T.ciAdmin, { enterpriseRole: 'member', oidcAdmin: true, repos: NO_REPOS }),
  classic('a plain member', T.member, { enterpriseRole: 'member', oidcAdmin: false, repos: NO_REPOS }),
  classic('a writer through a team', T.writer, { enterpriseRole: 'member', oidcAdmin: false, repos: { 'private-repo': 'write', 'public-repo': 'write' } }),
  classic('an outside collaborator with read', T.reader, { enterpriseRole: null, oidcAdmin: false, repos: { 'private-repo': 'read', 'public-repo': null } }),
  classic('an outsider', T.outsider, { enterpriseRole: null, oidcAdmin: false, repos: NO_REPOS }),
  fine('an owner\'s fine-grained token', T.fineOrg, 'org', ORG_OWNER),
  fine('an owner\'s read-only fine-grained token', T.fineOrgReadOnly, 'org', ORG_OWNER),
  fine('an owner\'s fine-grained token for other repositories', T.fineOtherRepos, 'org', ORG_OWNER, ['public-repo']),
  fine('an enterprise owner\'s enterprise token', T.fineEnterprise, 'enterprise', ENT_OWNER),
  fine('an enterprise owner\'s read-only enterprise token', T.fineEnterpriseReadOnly, 'enterprise', ENT_OWNER),
  fine('an installation', T.installation, 'org', null),
  fine('a read-only installation', T.installationReadOnly, 'org', null),
  fine('an installation on another organization', T.installationOtherOrg, 'other', null),
];

interface Operation {
  name: OperationName;
  method: HttpMethod;
  path: string;
  body?: object;
  success: number;
  target: 'enterprise' | 'org' | 'private-repo' | 'public-repo';
}
/** Valid bodies of the operations that take one. */
const BODIES: Partial<Record<OperationName, object>> = {
  createEnterpriseOidcInclusion: { custom_property_name: 'team' },
  createOrgOidcInclusion: { custom_property_name: 'team' },
  setOrgOidcSubjectTemplate: { include_claim_keys: ['repo', 'context'] },
  setRepoOidcSubjectTemplate: { use_default: true },
  mintOidcToken: { context: { event_name: 'push', ref: 'refs/heads/main', sha: '5e1f9c2a7b3d8e4f6a0b1c2d3e4f5a6b7c8d9e0f', workflow: 'deploy', actor: 'writer' } },
  previewOidcToken: { context: { event_name: 'push', ref: 'refs/heads/main', sha: '5e1f9c2a7b3d8e4f6a0b1c2d3e4f5a6b7c8d9e0f', workflow: 'deploy', actor: 'writer' } },
};
// The catalogue's #11–#20; the repository ones on a private and a public repository.
const OPERATIONS: Operation[] = operationsTagged('oidc').flatMap((entry) => {
  const targets = entry.requirement.target === 'repo' ? (['private-repo', 'public-repo'] as const) : [entry.requirement.target as 'enterprise' | 'org'];
  const body = BODIES[entry.name];
  return targets.map((target) => ({
    name: entry.name, method: entry.method, success: entry.success, target, ...(body ? { body } : {}),
    path: fillPath(entry.path, { enterprise: ENTERPRISE, org: ORG, owner: ORG, repo: target, custom_property_name: 'environment' }),
  }));
});

const RANK = { read: 1, write: 2, admin: 3 } as const;
const atLeast = (p: RepoPermission, needed: keyof typeof RANK) => p !== null && RANK[p] >= RANK[needed];

function expectedStatus(op: Operation, caller: Caller): number {
  const requirement = CATALOGUE[op.name].requirement;
  const repo: RepoName | undefined = op.target === 'private-repo' || op.target === 'public-repo' ? op.target : undefined;
  if (caller.kind === 'invalid') return 401;
  if (requirement.publicRead && repo === 'public-repo') return op.success;
  if (caller.kind === 'none') return requirement.publicRead ? 404 : 401;
  const person = caller.person;
  // Visibility: the token's resource owner and repositories, then what the person may see.
  if (caller.kind === 'permissions') {
    const ownerFits = op.target === 'enterprise' ? caller.owner === 'enterprise' : caller.owner === 'org';
    const repoFits = repo === undefined || caller.repos === 'all' || caller.repos.includes(repo);
    if (!ownerFits || !repoFits) return 404;
  }
  if (person && op.target === 'enterprise' && person.enterpriseRole === null) return 404;
  if (person && repo === 'private-repo' && person.repos[repo] === null) return 404;
  // The token's grant.
  if (!grantMeets(requirement, caller)) return 403;
  if (person === null) return op.success; // an installation: its permissions alone decide
  // Who the caller is.
  const allowed: Record<string, boolean> = {
    enterpriseOwner: person.enterpriseRole === 'owner',
    orgOidcAdmin: person.oidcAdmin,
    repoReader: repo !== undefined && atLeast(person.repos[repo], 'read'),
    repoWriter: repo !== undefined && atLeast(person.repos[repo], 'write'),
  };
  return allowed[requirement.caller] ? op.success : 403;
}

let t: TestApp;
let ids: { enterprise: number; org: number };
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
  ids = {
    enterprise: Number((await t.db.knex('enterprises').where({ slug: ENTERPRISE }).first('id')).id),
    org: Number((await t.db.knex('accounts').where({ login: ORG }).first('id')).id),
  };
});
afterAll(() => t.close());

/** Every cell starts from the same state: one inclusion ("environment") at each level. */
async function resetInclusions(): Promise<void> {
  const now = '2026-01-01T00:00:00Z';
  await t.db.knex('enterprise_oidc_property_inclusions').delete();
  await t.db.knex('organization_oidc_property_inclusions').delete();
  await t.db.knex('enterprise_oidc_property_inclusions').insert({ enterprise_id: ids.enterprise, custom_property_name: 'environment', created_at: now });
  await t.db.knex('organization_oidc_property_inclusions').insert({ org_id: ids.org, custom_property_name: 'environment', created_at: now });
}

describe.each(OPERATIONS.map((op) => [`#${CATALOGUE[op.name].number} ${op.method.toUpperCase()} (${op.target})`, op] as const))('%s', (_title, op) => {
  it.each(CALLERS.map((caller) => [caller.name, caller] as const))('for %s, answers as the rules say', async (_name, caller) => {
    await resetInclusions();
    const request = t.http()[op.method](op.path);
    if ('token' in caller) request.set(bearer(caller.token));
    const res = await (op.body ? request.send(op.body) : request);
    const expected = expectedStatus(op, caller);
    expect({ status: res.status, body: res.status >= 400 ? Object.keys(res.body).sort() : 'ok' }).toEqual({
      status: expected,
      body: expected >= 400 ? ['documentation_url', 'message', 'status'] : 'ok',
    });
  });
});
