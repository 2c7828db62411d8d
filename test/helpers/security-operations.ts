import fs from 'node:fs';
import path from 'node:path';
import { OPERATIONS, OPERATION_LIST, type HttpMethod, type Operation, type OperationName } from '../../src/operations';
import type { TargetKind } from '../../src/auth/requirements';
import type { Target } from './access-oracle';
import { fillPath } from './operations';
import { NEWCOMER, SCRATCH_TEAM, addProperty, deleteProperty, type Caller } from './security-world';

// The spec's 27 operations (the catalogue, src/operations) as the security tests send them in
// the security world (security-world.ts): a path for any target of the operation's kind, and
// a valid body. A success leaves the world as every other caller finds it (idempotent, or rows
// of its own).

export const FIXTURE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'sigstore-bundle-v0.3-provenance.json'), 'utf8'));
export const DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';
export const ROLE = 8132;
export const SNAPSHOT = {
  version: 0, sha: 'a'.repeat(40), ref: 'refs/heads/security-matrix', scanned: '2026-03-01T00:00:00Z',
  job: { id: 'matrix', correlator: 'matrix' }, detector: { name: 'matrix', version: '1', url: 'https://example.com/matrix' },
  manifests: { 'package-lock.json': { name: 'package-lock.json', resolved: { 'left-pad': { package_url: 'pkg:npm/left-pad@1.3.0' } } } },
}; // all_repo_read: exists in every organization

export type Method = HttpMethod;
export interface SecurityOperation {
  name: OperationName;
  method: Method;
  success: number;
  path: (target: Target, caller: Caller) => string;
  body?: (caller: Caller) => object;
}

/** The path parameters naming a target, and the world's rows each operation may touch. */
function pathParams(target: Target, caller: Caller): Record<string, string> {
  const owner = target.kind === 'org' ? { org: target.login } : target.kind === 'enterprise' ? { enterprise: target.slug } : { owner: target.owner, repo: target.name };
  return {
    ...owner, team_slug: SCRATCH_TEAM, username: NEWCOMER, role_id: String(ROLE), custom_property_name: deleteProperty(caller), subject_digest: DIGEST, alert_number: '1',
  };
}

/** The bodies of the operations that take one. */
const BODIES: Partial<Record<OperationName, (caller: Caller) => object>> = {
  createEnterpriseOidcInclusion: (c) => ({ custom_property_name: addProperty(c) }),
  createOrgOidcInclusion: (c) => ({ custom_property_name: addProperty(c) }),
  setOrgOidcSubjectTemplate: () => ({ include_claim_keys: ['repo', 'context'] }),
  setRepoOidcSubjectTemplate: () => ({ use_default: true }),
  createAttestation: () => ({ bundle: FIXTURE }),
  // Replacing no assignees with none: a success that leaves the alert as every other row finds it.
  updateDependencyAlert: () => ({ assignees: [] }),
  // A snapshot of another branch: stored, never applied, so no caller's answers change.
  createDependencySnapshot: () => SNAPSHOT,
};

/**
 * Whether an operation acts on data of an account (an organization, enterprise or repository),
 * which is what these sweeps scope callers by. Public reference data (`target: 'public'`, the
 * global advisory database) belongs to no account: test/api/advisories.test.ts covers its callers.
 */
export function isOwnedData(entry: Operation): entry is Operation & { requirement: { target: Exclude<TargetKind, 'public'> } } {
  return entry.requirement.target !== 'public';
}

/** The kind of target an operation on owned data names. */
export function ownedTargetKind(name: OperationName): Exclude<TargetKind, 'public'> {
  const entry = OPERATIONS[name];
  if (!isOwnedData(entry)) throw new Error(`${name} reads public data: no target to sweep`);
  return entry.requirement.target;
}

/** The catalogue's operations on owned data, in the spec's order. */
export const OWNED_OPERATION_LIST = OPERATION_LIST.filter(isOwnedData);

export const SECURITY_OPERATIONS: SecurityOperation[] = OWNED_OPERATION_LIST.map((entry) => {
  const body = BODIES[entry.name];
  return {
    name: entry.name,
    method: entry.method,
    success: entry.success,
    // Values as written (never percent-encoded), as the security tests have always sent them.
    path: (target, caller) => fillPath(entry.path, {}, pathParams(target, caller)),
    ...(body ? { body } : {}),
  };
});
