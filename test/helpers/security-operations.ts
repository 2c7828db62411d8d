import fs from 'node:fs';
import path from 'node:path';
import type { OperationName } from '../../src/auth/requirements';
import type { Target } from './access-oracle';
import { NEWCOMER, SCRATCH_TEAM, addProperty, deleteProperty, type Caller } from './security-world';

// The spec's 27 operations as the security tests send them in the security world
// (security-world.ts): a path for any target of the operation's kind, and a valid body.
// A success leaves the world as every other caller finds it (idempotent, or rows of its own).

export const FIXTURE = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'sigstore-bundle-v0.3-provenance.json'), 'utf8'));
export const DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';
export const ROLE = 8132; // all_repo_read: exists in every organization

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export interface SecurityOperation {
  name: OperationName;
  method: Method;
  success: number;
  path: (target: Target, caller: Caller) => string;
  body?: (caller: Caller) => object;
}

const orgPath = (t: Target) => (t.kind === 'org' ? `/orgs/${t.login}` : '');
const entPath = (t: Target) => (t.kind === 'enterprise' ? `/enterprises/${t.slug}` : '');
const repoPath = (t: Target) => (t.kind === 'repo' ? `/repos/${t.owner}/${t.name}` : '');
const roles = (t: Target) => `${orgPath(t)}/organization-roles`;
const entInclusions = (t: Target) => `${entPath(t)}/actions/oidc/customization/properties/repo`;
const orgInclusions = (t: Target) => `${orgPath(t)}/actions/oidc/customization/properties/repo`;

// One entry per operation of REQUIREMENTS; a test below fails if one is left out.
export const SECURITY_OPERATIONS: SecurityOperation[] = [
  { name: 'listOrgRoles', method: 'get', success: 200, path: (t) => roles(t) },
  { name: 'revokeAllOrgRolesTeam', method: 'delete', success: 204, path: (t) => `${roles(t)}/teams/${SCRATCH_TEAM}` },
  { name: 'assignTeamToOrgRole', method: 'put', success: 204, path: (t) => `${roles(t)}/teams/${SCRATCH_TEAM}/${ROLE}` },
  { name: 'revokeOrgRoleTeam', method: 'delete', success: 204, path: (t) => `${roles(t)}/teams/${SCRATCH_TEAM}/${ROLE}` },
  { name: 'revokeAllOrgRolesUser', method: 'delete', success: 204, path: (t) => `${roles(t)}/users/${NEWCOMER}` },
  { name: 'assignUserToOrgRole', method: 'put', success: 204, path: (t) => `${roles(t)}/users/${NEWCOMER}/${ROLE}` },
  { name: 'revokeOrgRoleUser', method: 'delete', success: 204, path: (t) => `${roles(t)}/users/${NEWCOMER}/${ROLE}` },
  { name: 'getOrgRole', method: 'get', success: 200, path: (t) => `${roles(t)}/${ROLE}` },
  { name: 'listOrgRoleTeams', method: 'get', success: 200, path: (t) => `${roles(t)}/${ROLE}/teams` },
  { name: 'listOrgRoleUsers', method: 'get', success: 200, path: (t) => `${roles(t)}/${ROLE}/users` },
  { name: 'listEnterpriseOidcInclusions', method: 'get', success: 200, path: (t) => entInclusions(t) },
  { name: 'createEnterpriseOidcInclusion', method: 'post', success: 201, path: (t) => entInclusions(t), body: (c) => ({ custom_property_name: addProperty(c) }) },
  { name: 'deleteEnterpriseOidcInclusion', method: 'delete', success: 204, path: (t, c) => `${entInclusions(t)}/${deleteProperty(c)}` },
  { name: 'listOrgOidcInclusions', method: 'get', success: 200, path: (t) => orgInclusions(t) },
  { name: 'createOrgOidcInclusion', method: 'post', success: 201, path: (t) => orgInclusions(t), body: (c) => ({ custom_property_name: addProperty(c) }) },
  { name: 'deleteOrgOidcInclusion', method: 'delete', success: 204, path: (t, c) => `${orgInclusions(t)}/${deleteProperty(c)}` },
  { name: 'getOrgOidcSubjectTemplate', method: 'get', success: 200, path: (t) => `${orgPath(t)}/actions/oidc/customization/sub` },
  { name: 'setOrgOidcSubjectTemplate', method: 'put', success: 201, path: (t) => `${orgPath(t)}/actions/oidc/customization/sub`, body: () => ({ include_claim_keys: ['repo', 'context'] }) },
  { name: 'getRepoOidcSubjectTemplate', method: 'get', success: 200, path: (t) => `${repoPath(t)}/actions/oidc/customization/sub` },
  { name: 'setRepoOidcSubjectTemplate', method: 'put', success: 201, path: (t) => `${repoPath(t)}/actions/oidc/customization/sub`, body: () => ({ use_default: true }) },
  { name: 'createAttestation', method: 'post', success: 201, path: (t) => `${repoPath(t)}/attestations`, body: () => ({ bundle: FIXTURE }) },
  { name: 'listAttestations', method: 'get', success: 200, path: (t) => `${repoPath(t)}/attestations/${DIGEST}` },
  { name: 'listEnterpriseDependencyAlerts', method: 'get', success: 200, path: (t) => `${entPath(t)}/dependency-bot/alerts` },
  { name: 'listOrgDependencyAlerts', method: 'get', success: 200, path: (t) => `${orgPath(t)}/dependency-bot/alerts` },
  { name: 'listRepoDependencyAlerts', method: 'get', success: 200, path: (t) => `${repoPath(t)}/dependency-bot/alerts` },
  { name: 'getDependencyAlert', method: 'get', success: 200, path: (t) => `${repoPath(t)}/dependency-bot/alerts/1` },
  // Replacing no assignees with none: a success that leaves the alert as every other row finds it.
  { name: 'updateDependencyAlert', method: 'patch', success: 200, path: (t) => `${repoPath(t)}/dependency-bot/alerts/1`, body: () => ({ assignees: [] }) },
];
