import type { Permissions, Scope } from '../../src/auth/grants';
import { OPERATIONS as CATALOGUE, type HttpMethod, type OperationName } from '../../src/operations';
import { fillPath, operationsTagged } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { declaredGrants, grantMeets } from '../helpers/grant-check';
import { AL, ENTERPRISE, ORG, alertsWorld, makeAdvisories, makeAlerts } from '../helpers/alerts-world';

// Expected statuses for #23–#27 computed from the catalogue's requirements and what each caller
// is in the world, in the order the rules apply.

type RepoName = 'repo-1' | 'repo-4'; // private, public
type RepoPermission = 'read' | 'triage' | 'write' | 'maintain' | 'admin' | null;
interface Person {
  enterpriseRole: 'owner' | 'member' | null;
  orgOwner: boolean;
  securityManager: boolean;
  repos: Record<RepoName, RepoPermission>;
}
type Caller =
  | { name: string; kind: 'none' }
  | { name: string; kind: 'invalid'; token: string }
  | { name: string; kind: 'scopes'; token: string; scopes: Scope[]; person: Person }
  | { name: string; kind: 'permissions'; token: string; permissions: Permissions; ownsOrg: boolean; repos: 'all' | RepoName[]; person: Person | null };

const advisories = makeAdvisories();
const world = alertsWorld(makeAlerts(40, 3, advisories, {}), advisories);
const declared = declaredGrants(world);
const everywhere = (p: RepoPermission): Record<RepoName, RepoPermission> => ({ 'repo-1': p, 'repo-4': p });
const OWNER: Person = { enterpriseRole: 'owner', orgOwner: true, securityManager: false, repos: everywhere('admin') };
const person = (enterpriseRole: Person['enterpriseRole'], repos: RepoPermission, securityManager = false): Person =>
  ({ enterpriseRole, orgOwner: false, securityManager, repos: everywhere(repos) });
const classic = (name: string, token: string, p: Person): Caller => ({ name, kind: 'scopes', token, scopes: declared(token).scopes!, person: p });
const fine = (name: string, token: string, ownsOrg: boolean, p: Person | null, repos: 'all' | RepoName[] = 'all'): Caller =>
  ({ name, kind: 'permissions', token, permissions: declared(token).permissions!, ownsOrg, repos, person: p });

const CALLERS: Caller[] = [
  { name: 'no token', kind: 'none' },
  { name: 'an expired token', kind: 'invalid', token: AL.expired },
  classic('an owner', AL.owner, OWNER),
  classic('an owner with public_repo only', AL.ownerPublicRepo, OWNER),
  classic('an owner with read:org only', AL.ownerReadOrg, OWNER),
  classic('a security manager through a team', AL.securityManager, person('member', 'read', true)),
  classic('a writer through a team', AL.writer, person('member', 'write')),
  classic('a member who maintains as a collaborator', AL.maintainer, person('member', 'maintain')),
  classic('a member who triages as a collaborator', AL.triager, person('member', 'triage')),
  classic('a reader (collaborator)', AL.reader, person(null, 'read')),
  classic('a member without access', AL.member, person('member', null)),
  classic('an outsider', AL.outsider, person(null, null)),
  classic('the owner of another organization of the enterprise', AL.otherOwner, person('member', null)),
  classic('an enterprise member', AL.entMember, person('member', null)),
  fine('an owner\'s fine-grained token', AL.fine, true, OWNER),
  fine('an owner\'s read-only fine-grained token', AL.fineReadOnly, true, OWNER),
  fine('an owner\'s fine-grained token for repo-1 and repo-4', AL.fineSelected, true, OWNER, ['repo-1', 'repo-4']),
  fine('an installation', AL.installation, true, null),
  fine('an installation on another organization', AL.installationOther, false, null),
];

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

const RANK = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 } as const;
const atLeast = (p: RepoPermission, needed: keyof typeof RANK) => p !== null && RANK[p] >= RANK[needed];

function expectedStatus(op: Operation, caller: Caller): number {
  const requirement = CATALOGUE[op.name].requirement;
  if (caller.kind === 'invalid' || caller.kind === 'none') return 401;
  const repo = op.target === 'enterprise' || op.target === 'org' ? undefined : op.target;
  const isPublicRepo = repo === 'repo-4';
  const p = caller.person;
  // Tokens an operation does not accept at all (spec §5 #23) are refused first.
  if (caller.kind === 'permissions' && requirement.permission === null) return 403;
  // Visibility.
  if (caller.kind === 'permissions') {
    if (op.target === 'enterprise' || !caller.ownsOrg) return 404;
    if (repo && caller.repos !== 'all' && !caller.repos.includes(repo)) return 404;
  }
  if (p && op.target === 'enterprise' && p.enterpriseRole === null) return 404;
  if (p && repo === 'repo-1' && p.repos[repo] === null) return 404;
  // The token's grant (public_repo counts on public repositories and on the organization list).
  if (!grantMeets(requirement, caller)) {
    const publicGrant = caller.kind === 'scopes' && (requirement.publicScopes ?? []).some((s) => caller.scopes.includes(s));
    if (!(publicGrant && (isPublicRepo || op.target === 'org'))) return 403;
  }
  if (p === null) return op.success;
  // Who the caller is.
  const allowed = {
    enterpriseMember: true,
    orgSecurityManager: p.orgOwner || p.securityManager,
    repoAlertManager: repo !== undefined && (atLeast(p.repos[repo], 'write') || p.orgOwner || p.securityManager),
  }[requirement.caller as 'enterpriseMember' | 'orgSecurityManager' | 'repoAlertManager'];
  return allowed ? op.success : 403;
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
});
afterAll(() => t.close());

describe.each(OPERATIONS.map((op) => [`#${CATALOGUE[op.name].number} ${op.method.toUpperCase()} ${op.target}`, op] as const))('%s', (_title, op) => {
  it.each(CALLERS.map((caller) => [caller.name, caller] as const))('for %s, answers as the rules say', async (_name, caller) => {
    const request = t.http()[op.method](op.path);
    if ('token' in caller) request.set(bearer(caller.token));
    const res = await (op.method === 'patch' ? request.send({ assignees: [] }) : request);
    expect(res.status).toBe(expectedStatus(op, caller));
  });
});
