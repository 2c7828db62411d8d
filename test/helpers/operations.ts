import fs from 'node:fs';
import path from 'node:path';
import type { OperationName } from '../../src/auth/requirements';

// The spec's 27 operations (#1–#27) as data: method, path template, the requirements-table
// entry that governs them, and a valid request in the bundled demo world
// (db/demo-world.json) made with DEMO_OWNER_TOKEN. Tests that sweep every operation
// (fuzzing, limits, authorization) start from here.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface OperationSample {
  /** The path parameters, raw (not yet percent-encoded). */
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string>>;
  /** The JSON body, for operations that take one. */
  body?: Readonly<Record<string, unknown>>;
}

export interface Operation {
  /** The spec's number, 1 to 27. */
  number: number;
  name: OperationName;
  method: HttpMethod;
  /** The spec's path template, e.g. `/orgs/{org}/organization-roles/{role_id}`. */
  path: string;
  /** The statuses a valid request may succeed with (304 aside). */
  success: readonly number[];
  /** Query parameters the operation reads (besides the token refusal every operation applies). */
  queryKeys: readonly string[];
  /** Top-level body keys it accepts (empty: it takes no body). */
  bodyKeys: readonly string[];
  sample: OperationSample;
}

export const DEMO_WORLD_PATH = path.join(__dirname, '..', '..', 'db', 'demo-world.json');

export function demoWorld(): Record<string, unknown> & { attestations: Array<{ repository: string; bundle: Record<string, unknown> }> } {
  return JSON.parse(fs.readFileSync(DEMO_WORLD_PATH, 'utf8'));
}

/** alice: owner of acme-corp and of the enterprise acme; scopes admin:org, admin:enterprise, repo. */
export const DEMO_OWNER_TOKEN = 'svc_demo_alice_owner';
/** The subject of the demo world's attestation (on acme-corp/web). */
export const DEMO_SUBJECT_DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';

const PAGE_QUERY = ['page', 'per_page'] as const;
const CURSOR_QUERY = ['per_page', 'before', 'after'] as const;
/** Filters every alert list takes (spec §4.4). */
export const ALERT_FILTERS = [
  'classification', 'state', 'severity', 'ecosystem', 'package', 'relationship', 'epss_percentage', 'has', 'assignee', 'scope', 'sort', 'direction',
] as const;
export const ORG_ALERT_FILTERS = ['artifact_registry_url', 'artifact_registry', 'runtime_risk'] as const;
export const REPO_ALERT_FILTERS = ['manifest'] as const;

const roles = '/orgs/{org}/organization-roles';
const enterpriseInclusions = '/enterprises/{enterprise}/actions/oidc/customization/properties/repo';
const orgInclusions = '/orgs/{org}/actions/oidc/customization/properties/repo';
const acme = { org: 'acme-corp' };
const api = { owner: 'acme-corp', repo: 'api' };
const none = { query: {} };

function op(number: number, name: OperationName, method: HttpMethod, path: string, success: number, sample: OperationSample, keys: { query?: readonly string[]; body?: readonly string[] } = {}): Operation {
  return { number, name, method, path, success: [success], queryKeys: keys.query ?? [], bodyKeys: keys.body ?? [], sample };
}

function demoBundle(): Record<string, unknown> {
  return demoWorld().attestations[0]!.bundle;
}

export const OPERATIONS: readonly Operation[] = [
  op(1, 'listOrgRoles', 'GET', roles, 200, { params: acme, ...none }),
  op(2, 'revokeAllOrgRolesTeam', 'DELETE', `${roles}/teams/{team_slug}`, 204, { params: { ...acme, team_slug: 'platform-infra' }, ...none }),
  op(3, 'assignTeamToOrgRole', 'PUT', `${roles}/teams/{team_slug}/{role_id}`, 204, { params: { ...acme, team_slug: 'platform', role_id: '8134' }, ...none }),
  op(4, 'revokeOrgRoleTeam', 'DELETE', `${roles}/teams/{team_slug}/{role_id}`, 204, { params: { ...acme, team_slug: 'platform', role_id: '8134' }, ...none }),
  op(5, 'revokeAllOrgRolesUser', 'DELETE', `${roles}/users/{username}`, 204, { params: { ...acme, username: 'carol' }, ...none }),
  op(6, 'assignUserToOrgRole', 'PUT', `${roles}/users/{username}/{role_id}`, 204, { params: { ...acme, username: 'bob', role_id: '138' }, ...none }),
  op(7, 'revokeOrgRoleUser', 'DELETE', `${roles}/users/{username}/{role_id}`, 204, { params: { ...acme, username: 'bob', role_id: '138' }, ...none }),
  op(8, 'getOrgRole', 'GET', `${roles}/{role_id}`, 200, { params: { ...acme, role_id: '138' }, ...none }),
  op(9, 'listOrgRoleTeams', 'GET', `${roles}/{role_id}/teams`, 200, { params: { ...acme, role_id: '138' }, query: { per_page: '10', page: '1' } }, { query: PAGE_QUERY }),
  op(10, 'listOrgRoleUsers', 'GET', `${roles}/{role_id}/users`, 200, { params: { ...acme, role_id: '138' }, query: { per_page: '10', page: '1' } }, { query: PAGE_QUERY }),

  op(11, 'listEnterpriseOidcInclusions', 'GET', enterpriseInclusions, 200, { params: { enterprise: 'acme' }, ...none }),
  op(12, 'createEnterpriseOidcInclusion', 'POST', enterpriseInclusions, 201, { params: { enterprise: 'acme' }, query: {}, body: { custom_property_name: 'team' } }, { body: ['custom_property_name'] }),
  op(13, 'deleteEnterpriseOidcInclusion', 'DELETE', `${enterpriseInclusions}/{custom_property_name}`, 204, { params: { enterprise: 'acme', custom_property_name: 'environment' }, ...none }),
  op(14, 'listOrgOidcInclusions', 'GET', orgInclusions, 200, { params: acme, ...none }),
  op(15, 'createOrgOidcInclusion', 'POST', orgInclusions, 201, { params: acme, query: {}, body: { custom_property_name: 'team' } }, { body: ['custom_property_name'] }),
  op(16, 'deleteOrgOidcInclusion', 'DELETE', `${orgInclusions}/{custom_property_name}`, 204, { params: { ...acme, custom_property_name: 'environment' }, ...none }),
  op(17, 'getOrgOidcSubjectTemplate', 'GET', '/orgs/{org}/actions/oidc/customization/sub', 200, { params: acme, ...none }),
  op(18, 'setOrgOidcSubjectTemplate', 'PUT', '/orgs/{org}/actions/oidc/customization/sub', 201,
    { params: acme, query: {}, body: { include_claim_keys: ['repo', 'context', 'job_workflow_ref'] } }, { body: ['include_claim_keys', 'use_immutable_subject'] }),
  op(19, 'getRepoOidcSubjectTemplate', 'GET', '/repos/{owner}/{repo}/actions/oidc/customization/sub', 200, { params: api, ...none }),
  op(20, 'setRepoOidcSubjectTemplate', 'PUT', '/repos/{owner}/{repo}/actions/oidc/customization/sub', 201,
    { params: api, query: {}, body: { use_default: false } }, { body: ['use_default', 'include_claim_keys', 'use_immutable_subject'] }),

  op(21, 'createAttestation', 'POST', '/repos/{owner}/{repo}/attestations', 201, { params: api, query: {}, body: { bundle: demoBundle() } }, { body: ['bundle'] }),
  op(22, 'listAttestations', 'GET', '/repos/{owner}/{repo}/attestations/{subject_digest}', 200,
    { params: { owner: 'acme-corp', repo: 'web', subject_digest: DEMO_SUBJECT_DIGEST }, query: { predicate_type: 'provenance' } }, { query: [...CURSOR_QUERY, 'predicate_type'] }),

  op(23, 'listEnterpriseDependencyAlerts', 'GET', '/enterprises/{enterprise}/dependency-bot/alerts', 200,
    { params: { enterprise: 'acme' }, query: { state: 'open' } }, { query: [...CURSOR_QUERY, ...ALERT_FILTERS] }),
  op(24, 'listOrgDependencyAlerts', 'GET', '/orgs/{org}/dependency-bot/alerts', 200,
    { params: acme, query: { severity: 'high,critical', sort: 'epss_percentage' } }, { query: [...CURSOR_QUERY, ...ALERT_FILTERS, ...ORG_ALERT_FILTERS] }),
  op(25, 'listRepoDependencyAlerts', 'GET', '/repos/{owner}/{repo}/dependency-bot/alerts', 200,
    { params: api, query: { has: 'patch', per_page: '10' } }, { query: [...CURSOR_QUERY, ...ALERT_FILTERS, ...REPO_ALERT_FILTERS] }),
  op(26, 'getDependencyAlert', 'GET', '/repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}', 200, { params: { ...api, alert_number: '1' }, ...none }),
  op(27, 'updateDependencyAlert', 'PATCH', '/repos/{owner}/{repo}/dependency-bot/alerts/{alert_number}', 200,
    { params: { ...api, alert_number: '1' }, query: {}, body: { assignees: ['bob'] } }, { body: ['state', 'dismissed_reason', 'dismissed_comment', 'assignees'] }),
];

/** The names of a path template's parameters, in order. */
export function paramNames(template: string): string[] {
  return [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

/**
 * Fills a path template. Values are percent-encoded unless given in `raw`, whose values
 * go into the path exactly as written (to send `%2e%2e` or `%00` as such).
 */
export function fillPath(template: string, params: Readonly<Record<string, string>>, raw: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name in raw) return raw[name]!;
    const value = params[name];
    if (value === undefined) throw new Error(`no value for {${name}} in ${template}`);
    return encodeURIComponent(value);
  });
}

/** A query string (with its `?`) from pairs, keys and values percent-encoded; repeated keys allowed. */
export function queryString(pairs: ReadonlyArray<readonly [string, string]>): string {
  if (pairs.length === 0) return '';
  return `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

/** The operation's valid URL in the demo world. */
export function sampleUrl(operation: Operation): string {
  return fillPath(operation.path, operation.sample.params) + queryString(Object.entries(operation.sample.query));
}

export function isWrite(operation: Operation): boolean {
  return operation.method !== 'GET';
}

export function operationByNumber(number: number): Operation {
  const found = OPERATIONS.find((o) => o.number === number);
  if (!found) throw new Error(`no operation #${number}`);
  return found;
}
