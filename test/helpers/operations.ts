import fs from 'node:fs';
import path from 'node:path';
import { OPERATION_LIST, type OperationName, type OperationTag } from '../../src/operations';
import type { Knex } from 'knex';
import { z } from 'zod';
import { withTransaction } from '../../src/database/transaction';
import { queuePing } from '../../src/modules/webhooks/webhook-queue';
import { recordAttempt } from './webhooks-world';

// The spec's 27 operations as the catalogue (src/operations) gives them, each with a valid
// request in the bundled demo world (db/demo-world.json) made with DEMO_OWNER_TOKEN. Tests
// that sweep every operation (fuzzing, limits, authorization) start from here.

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

/** alice: owner of acme-corp and of the enterprise acme; scopes admin:org, admin:enterprise, repo, admin:org_hook, admin:repo_hook. */
export const DEMO_OWNER_TOKEN = 'svc_demo_alice_owner';
/** The subject of the demo world's attestation (on acme-corp/web). */
export const DEMO_SUBJECT_DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';

/** An advisory of the demo world. */
export const DEMO_ADVISORY = 'SVCSA-2026-0001';

const acme = { org: 'acme-corp' };
const api = { owner: 'acme-corp', repo: 'api' };
const none = { query: {} };

function demoBundle(): Record<string, unknown> {
  return demoWorld().attestations[0]!.bundle;
}

/** A valid request per operation in the demo world; in the spec's order, each valid after the ones before it. */
const SAMPLES: Record<OperationName, OperationSample> = {
  listOrgRoles: { params: acme, ...none },
  revokeAllOrgRolesTeam: { params: { ...acme, team_slug: 'platform-infra' }, ...none },
  assignTeamToOrgRole: { params: { ...acme, team_slug: 'platform', role_id: '8134' }, ...none },
  revokeOrgRoleTeam: { params: { ...acme, team_slug: 'platform', role_id: '8134' }, ...none },
  revokeAllOrgRolesUser: { params: { ...acme, username: 'carol' }, ...none },
  assignUserToOrgRole: { params: { ...acme, username: 'bob', role_id: '138' }, ...none },
  revokeOrgRoleUser: { params: { ...acme, username: 'bob', role_id: '138' }, ...none },
  getOrgRole: { params: { ...acme, role_id: '138' }, ...none },
  listOrgRoleTeams: { params: { ...acme, role_id: '138' }, query: { per_page: '10', page: '1' } },
  listOrgRoleUsers: { params: { ...acme, role_id: '138' }, query: { per_page: '10', page: '1' } },

  listEnterpriseOidcInclusions: { params: { enterprise: 'acme' }, ...none },
  createEnterpriseOidcInclusion: { params: { enterprise: 'acme' }, query: {}, body: { custom_property_name: 'team' } },
  deleteEnterpriseOidcInclusion: { params: { enterprise: 'acme', custom_property_name: 'environment' }, ...none },
  listOrgOidcInclusions: { params: acme, ...none },
  createOrgOidcInclusion: { params: acme, query: {}, body: { custom_property_name: 'team' } },
  deleteOrgOidcInclusion: { params: { ...acme, custom_property_name: 'environment' }, ...none },
  getOrgOidcSubjectTemplate: { params: acme, ...none },
  setOrgOidcSubjectTemplate: { params: acme, query: {}, body: { include_claim_keys: ['repo', 'context', 'job_workflow_ref'] } },
  getRepoOidcSubjectTemplate: { params: api, ...none },
  setRepoOidcSubjectTemplate: { params: api, query: {}, body: { use_default: false } },

  createAttestation: { params: api, query: {}, body: { bundle: demoBundle() } },
  listAttestations: { params: { owner: 'acme-corp', repo: 'web', subject_digest: DEMO_SUBJECT_DIGEST }, query: { predicate_type: 'provenance' } },

  listEnterpriseDependencyAlerts: { params: { enterprise: 'acme' }, query: { state: 'open' } },
  listOrgDependencyAlerts: { params: acme, query: { severity: 'high,critical', sort: 'epss_percentage' } },
  listRepoDependencyAlerts: { params: api, query: { has: 'patch', per_page: '10' } },
  getDependencyAlert: { params: { ...api, alert_number: '1' }, ...none },
  updateDependencyAlert: { params: { ...api, alert_number: '1' }, query: {}, body: { assignees: ['bob'] } },
  listDependencyAlertPaths: { params: { ...api, alert_number: '1' }, query: { per_page: '5' } },

  listGlobalAdvisories: { params: {}, query: { ecosystem: 'npm', per_page: '10' } },
  getGlobalAdvisory: { params: { svcsa_id: DEMO_ADVISORY }, ...none },
  createDependencySnapshot: { params: api, query: {}, body: {
    version: 0, sha: 'b'.repeat(40), ref: 'refs/heads/main', scanned: '2026-03-01T00:00:00Z',
    job: { id: 'sample-1', correlator: 'sample' }, detector: { name: 'sample-detector', version: '1.0.0', url: 'https://example.com/detector' },
    manifests: { 'package-lock.json': { name: 'package-lock.json', resolved: { 'left-pad': { package_url: 'pkg:npm/left-pad@1.3.0', relationship: 'direct' } } } },
  } },
  getDependencySbom: { params: api, ...none },
  uploadSbom: { params: api, query: {}, body: {
    bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, metadata: { component: { type: 'application', name: 'api', 'bom-ref': 'api' } },
    components: [{ type: 'library', name: 'left-pad', version: '1.3.0', purl: 'pkg:npm/left-pad@1.3.0', 'bom-ref': 'left-pad' }],
    dependencies: [{ ref: 'api', dependsOn: ['left-pad'] }],
  } },
  getRepositoryVex: { params: api, query: { state: 'open,dismissed' } },
  getOrganizationVex: { params: acme, ...none },

  // The demo world's auto-triage rules: 1 is acme-corp's, 2 acme-corp/api's.
  listOrgDependencyBotRules: { params: acme, ...none },
  createOrgDependencyBotRule: { params: acme, query: {}, body: { name: 'Low severity pub packages', conditions: { severity: ['low'], ecosystem: ['pub'] } } },
  getOrgDependencyBotRule: { params: { ...acme, rule_id: '1' }, ...none },
  updateOrgDependencyBotRule: { params: { ...acme, rule_id: '1' }, query: {}, body: { enforcement: 'enforced' } },
  deleteOrgDependencyBotRule: { params: { ...acme, rule_id: '1' }, ...none },
  listRepoDependencyBotRules: { params: api, ...none },
  createRepoDependencyBotRule: { params: api, query: {}, body: { name: 'Vendored test fixtures', conditions: { manifest: ['test/fixtures/package-lock.json'] } } },
  getRepoDependencyBotRule: { params: { ...api, rule_id: '2' }, ...none },
  updateRepoDependencyBotRule: { params: { ...api, rule_id: '2' }, query: {}, body: { enforcement: 'disabled' } },
  deleteRepoDependencyBotRule: { params: { ...api, rule_id: '2' }, ...none },
  getOrgDependencyBotPresets: { params: acme, ...none },
  setOrgDependencyBotPresets: { params: acme, query: {}, body: { low_impact_development: true } },
  getRepoDependencyBotPresets: { params: api, ...none },
  setRepoDependencyBotPresets: { params: api, query: {}, body: { low_impact_development: null } },

  // The demo world's hooks: 1 is acme-corp's, 2 acme-corp/api's; each has delivery attempt 1 or 2
  // once recordDemoDeliveries has run. The created ones (3, 4) are the ones deleted.
  listOrgWebhooks: { params: acme, ...none },
  createOrgWebhook: { params: acme, query: {}, body: { name: 'web', config: { url: 'https://hooks.example.com/acme-corp/audit', secret: 'sample-secret-8Hq3' }, events: ['*'] } },
  getOrgWebhook: { params: { ...acme, hook_id: '1' }, ...none },
  updateOrgWebhook: { params: { ...acme, hook_id: '1' }, query: {}, body: { events: ['dependency_bot_alert'], config: { insecure_ssl: '0' } } },
  deleteOrgWebhook: { params: { ...acme, hook_id: '3' }, ...none },
  pingOrgWebhook: { params: { ...acme, hook_id: '1' }, ...none },
  listOrgWebhookDeliveries: { params: { ...acme, hook_id: '1' }, query: { per_page: '10' } },
  getOrgWebhookDelivery: { params: { ...acme, hook_id: '1', delivery_id: '1' }, ...none },
  redeliverOrgWebhookDelivery: { params: { ...acme, hook_id: '1', delivery_id: '1' }, ...none },
  listRepoWebhooks: { params: api, ...none },
  createRepoWebhook: { params: api, query: {}, body: { config: { url: 'https://hooks.example.com/acme-corp/api-audit', content_type: 'form' } } },
  getRepoWebhook: { params: { ...api, hook_id: '2' }, ...none },
  updateRepoWebhook: { params: { ...api, hook_id: '2' }, query: {}, body: { add_events: ['security_advisory'] } },
  deleteRepoWebhook: { params: { ...api, hook_id: '4' }, ...none },
  pingRepoWebhook: { params: { ...api, hook_id: '2' }, ...none },
  listRepoWebhookDeliveries: { params: { ...api, hook_id: '2' }, query: { per_page: '10' } },
  getRepoWebhookDelivery: { params: { ...api, hook_id: '2', delivery_id: '2' }, ...none },
  redeliverRepoWebhookDelivery: { params: { ...api, hook_id: '2', delivery_id: '2' }, ...none },
  mintOidcToken: { params: api, query: {}, body: { audience: 'sts.amazonaws.com', context: { event_name: 'push', ref: 'refs/heads/main', sha: 'c'.repeat(40), workflow: 'deploy', actor: 'alice' } } },
  previewOidcToken: { params: api, query: {}, body: { context: { event_name: 'pull_request', ref: 'refs/pull/12/merge', sha: 'c'.repeat(40), workflow: 'ci', actor: 'bob' } } },
  getOrgAuditLog: { params: acme, query: { phrase: 'action:organization_role', per_page: '10' } },
  getEnterpriseAuditLog: { params: { enterprise: 'acme' }, query: { phrase: '-actor:nobody', order: 'asc' } },
};

/**
 * What the demo world cannot declare and the webhook samples need: one delivery attempt of each
 * demo hook (attempt 1 of hook 1, attempt 2 of hook 2), as the delivery worker records them.
 * Call it after loading the demo world, before sending the samples.
 */
export async function recordDemoDeliveries(knex: Knex): Promise<void> {
  for (const hookId of [1, 2]) {
    const repo = await knex('webhooks').where('id', hookId).first('repo_id');
    const deliveryId = await withTransaction(knex, (trx) => queuePing(trx, { hookId, repoId: repo.repo_id ?? null, hookJson: { id: hookId } }));
    await recordAttempt(knex, deliveryId);
  }
}

/** The JSON fields a body schema accepts (through a transform into its domain type too). */
function bodyShapeOf(body: (typeof OPERATION_LIST)[number]['request']['body']): object {
  if (body === undefined) return {};
  return body instanceof z.ZodPipe ? (body.in as z.ZodObject).shape : body.shape;
}

export const OPERATIONS: readonly Operation[] = OPERATION_LIST.map((entry) => ({
  number: entry.number,
  name: entry.name,
  method: entry.method.toUpperCase() as HttpMethod,
  path: entry.path,
  success: [entry.success],
  queryKeys: Object.keys(entry.request.query?.shape ?? {}),
  bodyKeys: Object.keys(bodyShapeOf(entry.request.body)),
  sample: SAMPLES[entry.name],
}));

/** The catalogue's operations of one area (their docs tag), in the spec's order. */
export function operationsTagged(tag: OperationTag) {
  return OPERATION_LIST.filter((entry) => entry.docs.tag === tag);
}

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

