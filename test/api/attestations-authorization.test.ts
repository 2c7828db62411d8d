import fs from 'node:fs';
import path from 'node:path';
import type { Permissions, Scope } from '../../src/auth/grants';
import { declaredGrants, grantMeets } from '../helpers/grant-check';
import { OPERATIONS as CATALOGUE, type HttpMethod, type OperationName } from '../../src/operations';
import { fillPath, operationsTagged } from '../helpers/operations';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { A, ORG, attestationsWorld } from '../helpers/attestations-world';

// Expected statuses for #21–#22 computed from the catalogue's requirements and what each caller
// is in the world, in the order the rules apply.

type RepoName = 'secret-app' | 'open-app';
type RepoPermission = 'read' | 'write' | 'admin' | null;
interface Person { repos: Record<RepoName, RepoPermission> }
type Caller =
  | { name: string; kind: 'none' }
  | { name: string; kind: 'invalid'; token: string }
  | { name: string; kind: 'scopes'; token: string; scopes: Scope[]; person: Person }
  | { name: string; kind: 'permissions'; token: string; permissions: Permissions; ownsOrg: boolean; repos: 'all' | string[]; person: Person | null };

const world = attestationsWorld();
const declared = declaredGrants(world);
const OWNER: Person = { repos: { 'secret-app': 'admin', 'open-app': 'admin' } };
const classic = (name: string, token: string, person: Person): Caller => ({ name, kind: 'scopes', token, scopes: declared(token).scopes!, person });
const fine = (name: string, token: string, ownsOrg: boolean, person: Person | null, repos: 'all' | string[] = 'all'): Caller =>
  ({ name, kind: 'permissions', token, permissions: declared(token).permissions!, ownsOrg, repos, person });

const CALLERS: Caller[] = [
  { name: 'no token', kind: 'none' },
  { name: 'a revoked token', kind: 'invalid', token: A.revoked },
  classic('the owner', A.owner, OWNER),
  classic('the owner without the repo scope', A.ownerNoRepoScope, OWNER),
  classic('a writer through a team', A.writer, { repos: { 'secret-app': 'write', 'open-app': 'write' } }),
  classic('an outside collaborator with read', A.reader, { repos: { 'secret-app': 'read', 'open-app': null } }),
  classic('a member without access', A.member, { repos: { 'secret-app': null, 'open-app': null } }),
  classic('an outsider', A.outsider, { repos: { 'secret-app': null, 'open-app': null } }),
  fine('the owner\'s fine-grained token', A.fine, true, OWNER),
  fine('the owner\'s read-only fine-grained token', A.fineReadOnly, true, OWNER),
  fine('the owner\'s fine-grained token for another repository', A.fineOtherRepos, true, OWNER, ['other-app']),
  fine('an installation', A.installation, true, null),
  fine('a read-only installation', A.installationReadOnly, true, null),
  fine('an installation on another organization', A.installationOtherOrg, false, null),
];

const RANK = { read: 1, write: 2, admin: 3 } as const;
const atLeast = (p: RepoPermission, needed: keyof typeof RANK) => p !== null && RANK[p] >= RANK[needed];

interface Operation { name: OperationName; method: HttpMethod; repo: RepoName; path: string; success: number }
const DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';
// The catalogue's #21–#22 on each repository.
const OPERATIONS: Operation[] = (['secret-app', 'open-app'] as const).flatMap((repo) => operationsTagged('attestations').map((entry) => ({
  name: entry.name, method: entry.method, repo, path: fillPath(entry.path, { owner: ORG, repo }, { subject_digest: DIGEST }), success: entry.success,
})));

function expectedStatus(op: Operation, caller: Caller): number {
  const requirement = CATALOGUE[op.name].requirement;
  const isPublic = op.repo === 'open-app';
  if (caller.kind === 'invalid') return 401;
  if (requirement.publicRead && isPublic) return op.success;
  if (caller.kind === 'none') return requirement.publicRead ? 404 : 401;
  const person = caller.person;
  if (caller.kind === 'permissions' && (!caller.ownsOrg || (caller.repos !== 'all' && !caller.repos.includes(op.repo)))) return 404;
  if (person && !isPublic && person.repos[op.repo] === null) return 404;
  if (!grantMeets(requirement, caller)) return 403;
  if (person === null) return op.success;
  const needed = requirement.caller === 'repoWriter' ? 'write' : 'read';
  return atLeast(person.repos[op.repo], needed) || (needed === 'read' && isPublic) ? op.success : 403;
}

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
    if ('token' in caller) request.set(bearer(caller.token));
    const res = await (op.method === 'post' ? request.send({ bundle }) : request);
    expect(res.status).toBe(expectedStatus(op, caller));
  });
});
