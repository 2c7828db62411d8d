import fs from 'node:fs';
import path from 'node:path';
import { OPERATIONS, OPERATION_LIST, type HttpMethod, type Operation, type OperationName } from '../../src/operations';
import type { TargetKind } from '../../src/auth/requirements';
import type { Target } from './access-oracle';
import { fillPath } from './operations';
import type { Knex } from 'knex';
import { HOOK_OWNERS, MATRIX_HOOK, MATRIX_RULE, NEWCOMER, RULE_OWNERS, SCRATCH_TEAM, addProperty, deleteProperty, hookIdOf, ruleIdOf, type Caller } from './security-world';
import { withTransaction } from '../../src/database/transaction';
import { queuePing } from '../../src/modules/webhooks/webhook-queue';
import { recordAttempt } from './webhooks-world';

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

/** A package no advisory can match: recorded (a manifest of its own), never alerted on. */
export const SBOM = { bomFormat: 'CycloneDX', specVersion: '1.6', version: 1, components: [{ type: 'library', name: 'matrix-thing', version: '1.0.0', purl: 'pkg:generic/matrix-thing@1.0.0' }] };

/** A workflow run to mint or preview a token for. */
const OIDC_RUN = { event_name: 'push', ref: 'refs/heads/main', sha: '5e1f9c2a7b3d8e4f6a0b1c2d3e4f5a6b7c8d9e0f', workflow: 'deploy', actor: 'matrix' };

export type Method = HttpMethod;
export interface SecurityOperation {
  name: OperationName;
  method: Method;
  success: number;
  path: (target: Target, caller: Caller) => string;
  body?: (caller: Caller) => object;
  /** Puts back what a success removed, so that the next allowed caller finds the world as the first did. */
  restore?: (knex: Knex, target: Target) => Promise<void>;
}

/** The path parameters naming a target, and the world's rows each operation may touch. */
function pathParams(target: Target, caller: Caller): Record<string, string> {
  const owner = target.kind === 'org' ? { org: target.login } : target.kind === 'enterprise' ? { enterprise: target.slug } : { owner: target.owner, repo: target.name };
  return {
    ...owner, team_slug: SCRATCH_TEAM, username: NEWCOMER, role_id: String(ROLE), custom_property_name: deleteProperty(caller), subject_digest: DIGEST, alert_number: '1',
    rule_id: String(ruleIdOf(target)), hook_id: String(hookIdOf(target)), delivery_id: String(hookIdOf(target)),
  };
}

/** The bodies of the operations that take one. */
const BODIES: Partial<Record<OperationName, (caller: Caller) => object>> = {
  createEnterpriseOidcInclusion: (c) => ({ custom_property_name: addProperty(c) }),
  createOrgOidcInclusion: (c) => ({ custom_property_name: addProperty(c) }),
  setOrgOidcSubjectTemplate: () => ({ include_claim_keys: ['repo', 'context'] }),
  setRepoOidcSubjectTemplate: () => ({ use_default: true }),
  mintOidcToken: () => ({ context: OIDC_RUN }),
  previewOidcToken: () => ({ context: OIDC_RUN }),
  createAttestation: () => ({ bundle: FIXTURE }),
  // Replacing no assignees with none: a success that leaves the alert as every other row finds it.
  updateDependencyAlert: () => ({ assignees: [] }),
  // A snapshot of another branch: stored, never applied, so no caller's answers change.
  createDependencySnapshot: () => SNAPSHOT,
  uploadSbom: () => SBOM,
  // Rules of their own (every allowed caller adds one: within the limits of 25 and 10).
  createOrgDependencyBotRule: (c) => ({ ...MATRIX_RULE, name: `created by ${c.key}` }),
  createRepoDependencyBotRule: (c) => ({ ...MATRIX_RULE, name: `created by ${c.key}` }),
  // Changing nothing the answers show but updated_at.
  updateOrgDependencyBotRule: () => ({ name: MATRIX_RULE.name }),
  updateRepoDependencyBotRule: () => ({ name: MATRIX_RULE.name }),
  setOrgDependencyBotPresets: () => ({ low_impact_development: null }),
  setRepoDependencyBotPresets: () => ({ low_impact_development: null }),
  // Hooks of their own, inactive (every allowed caller adds one: within the limit of 20); updates change only updated_at.
  createOrgWebhook: (c) => ({ name: 'web', config: { url: `https://hooks.example.com/${c.key}` }, active: false }),
  createRepoWebhook: (c) => ({ config: { url: `https://hooks.example.com/${c.key}` }, active: false }),
  updateOrgWebhook: () => ({ active: false }),
  updateRepoWebhook: () => ({ active: false }),
};

/** The id of a target's hook in the database, or undefined for a missing target's. */
async function declaredHook(knex: Knex, target: Target): Promise<{ id: number; owner: { org_id: number } | { repo_id: number } } | undefined> {
  const id = hookIdOf(target);
  const declared = HOOK_OWNERS[id - 1];
  if (declared === undefined || JSON.stringify(declared.target) !== JSON.stringify(target)) return undefined;
  const owner = target.kind === 'org'
    ? { org_id: (await knex('accounts').where('login', target.login).first('id')).id }
    : target.kind === 'repo'
      ? { repo_id: (await knex('repositories as r').join('accounts as a', 'a.id', 'r.owner_id').where({ 'a.login': target.owner, 'r.name': target.name }).first('r.id')).id }
      : undefined;
  return owner ? { id, owner } : undefined;
}

/**
 * What the world cannot declare: each declared hook's first delivery (a ping) and its one
 * attempt, ids equal to the hook's. Call after loading the security world on a fresh database.
 */
export async function recordMatrixDeliveries(knex: Knex): Promise<void> {
  for (const { target } of HOOK_OWNERS) {
    const hook = (await declaredHook(knex, target))!;
    const repoId = 'repo_id' in hook.owner ? hook.owner.repo_id : null;
    const deliveryId = await withTransaction(knex, (trx) => queuePing(trx, { hookId: hook.id, repoId, hookJson: { id: hook.id } }));
    if (deliveryId !== hook.id || (await recordAttempt(knex, deliveryId)) !== hook.id) throw new Error('recordMatrixDeliveries needs a fresh database');
  }
}

/** A deleted target hook, inserted again with its id, its first delivery and that delivery's attempt (a delete cascades to them). */
export async function restoreHook(knex: Knex, target: Target): Promise<void> {
  const hook = await declaredHook(knex, target);
  if (!hook || (await knex('webhooks').where('id', hook.id).first('id'))) return;
  const now = '2026-03-01T00:00:00Z';
  await knex('webhooks').insert({
    id: hook.id, ...hook.owner, name: 'web', active: MATRIX_HOOK.active, events: JSON.stringify(MATRIX_HOOK.events), url: MATRIX_HOOK.config.url,
    content_type: 'json', secret: null, insecure_ssl: '0', created_at: now, updated_at: now,
  });
  const repoId = 'repo_id' in hook.owner ? hook.owner.repo_id : null;
  await knex('webhook_deliveries').insert({
    id: hook.id, hook_id: hook.id, event: 'ping', repo_id: repoId, payload: '{}', state: 'pending', attempts: 0, next_attempt_at: 0, created_at: now, created_ms: 0,
  });
  await recordAttempt(knex, hook.id).then(async (attemptId) => {
    // The attempt takes the id the deleted one had.
    await knex('webhook_delivery_attempts').where('id', attemptId).update({ id: hook.id });
  });
}

/** A deleted target rule, inserted again with its id (ids are never reused otherwise). */
export async function restoreRule(knex: Knex, target: Target): Promise<void> {
  const id = ruleIdOf(target);
  const declared = RULE_OWNERS[id - 1];
  if (declared === undefined || JSON.stringify(declared.target) !== JSON.stringify(target)) return;
  if (await knex('dependency_bot_rules').where('id', id).first('id')) return;
  const owner = target.kind === 'org'
    ? { org_id: (await knex('accounts').where('login', target.login).first('id')).id }
    : target.kind === 'repo'
      ? { repo_id: (await knex('repositories as r').join('accounts as a', 'a.id', 'r.owner_id').where({ 'a.login': target.owner, 'r.name': target.name }).first('r.id')).id }
      : undefined;
  const now = '2026-03-01T00:00:00Z';
  await knex('dependency_bot_rules').insert({
    id, ...owner, name: MATRIX_RULE.name, enforcement: MATRIX_RULE.enforcement, conditions: JSON.stringify(MATRIX_RULE.conditions), action: MATRIX_RULE.action,
    created_at: now, updated_at: now,
  });
}

const RESTORES: Partial<Record<OperationName, SecurityOperation['restore']>> = {
  deleteOrgDependencyBotRule: restoreRule,
  deleteRepoDependencyBotRule: restoreRule,
  deleteOrgWebhook: restoreHook,
  deleteRepoWebhook: restoreHook,
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
  const restore = RESTORES[entry.name];
  return {
    name: entry.name,
    method: entry.method,
    success: entry.success,
    // Values as written (never percent-encoded), as the security tests have always sent them.
    path: (target, caller) => fillPath(entry.path, {}, pathParams(target, caller)),
    ...(body ? { body } : {}),
    ...(restore ? { restore } : {}),
  };
});
