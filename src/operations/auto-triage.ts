import { presetsSchema, ruleSchema } from '../modules/auto-triage/auto-triage.responses';
import {
  MAX_CONDITION_VALUES, MAX_ORG_RULES, MAX_REPO_RULES, MAX_RULE_NAME, orgPath, orgRuleBody, orgRulePatchBody, orgRulePath, presetsBody,
  repoPath, repoRuleBody, repoRulePatchBody, repoRulePath,
} from '../modules/auto-triage/auto-triage.schemas';
import type { Requirement } from '../auth/requirements';
import { bothSegments } from './dependency-alerts';
import type { Operation } from './operation';

// Interfaces.md Part 2, "Auto-triage rules" (#32–#45, after the dependency graph's #30–#31).
// The original's segment `dependabot` is accepted here too, as on the alert paths.

const TAG = 'auto-triage';

/** Organization rules and presets: an owner or security manager; classic security_events (or repo); fine-grained dependency_alerts. */
const orgRequirement = (level: 'read' | 'write'): Requirement =>
  ({ target: 'org', scopes: ['security_events', 'repo'], permission: ['dependency_alerts', level], caller: 'orgSecurityManager' });
/** Repository rules and presets: a repository admin, an organization owner or a security manager. */
const repoRequirement = (level: 'read' | 'write'): Requirement =>
  ({ target: 'repo', scopes: ['security_events', 'repo'], permission: ['dependency_alerts', level], caller: 'repoSecurityAdmin' });

const CONDITIONS = 'A rule needs at least one condition; a condition list matches any of its values, and every condition given must match. '
  + `Conditions: \`severity\`, \`scope\`, \`ecosystem\`, \`package\`, \`cwe\` (\`CWE-<n>\`), \`svcsa_id\`, \`cve_id\` (lists of at most ${MAX_CONDITION_VALUES} values), `
  + '`has_patch` (boolean); repository rules also `manifest`.';
const ACTIONS = '`action` `dismiss` (the default) auto-dismisses matching alerts; `dismiss_until_patch` only while their vulnerability has no patched version. '
  + `\`name\` is required (at most ${MAX_RULE_NAME} characters).`;
const REEVALUATES = 'Every change re-evaluates the alerts of the repositories it reaches before it answers.';
const ORG_RULES = 'An `enforced` rule applies to every repository of the organization; an `enabled` one unless the repository has a `disabled` rule with the same conditions. '
  + `At most ${MAX_ORG_RULES} rules per organization (422 beyond); a \`manifest\` condition answers 422.`;
const REPO_RULES = `\`enforcement\` is \`enabled\` (the default) or \`disabled\`; a disabled rule with an organization rule's conditions opts out of it unless that one is enforced. At most ${MAX_REPO_RULES} rules per repository (422 beyond).`;
const PRESET = '`low_impact_development` dismisses alerts of npm development dependencies with a low-impact CWE. `null` is the default: '
  + 'the organization\'s setting, else on for public repositories and off for private ones; a repository\'s own `true` or `false` wins.';

const ORG_RULES_PATH = '/orgs/{org}/dependency-bot/rules';
const REPO_RULES_PATH = '/repos/{owner}/{repo}/dependency-bot/rules';

export const AUTO_TRIAGE_OPERATIONS = {
  listOrgDependencyBotRules: {
    number: 32, operationId: 'dependency-bot/list-org-rules', method: 'get', ...bothSegments(ORG_RULES_PATH), success: 200,
    request: { params: orgPath }, response: { schema: ruleSchema, array: true }, requirement: orgRequirement('read'),
    docs: { tag: TAG, summary: 'List auto-triage rules for an organization', rules: ['Oldest first.'] },
  },
  createOrgDependencyBotRule: {
    number: 33, operationId: 'dependency-bot/create-org-rule', method: 'post', ...bothSegments(ORG_RULES_PATH), success: 201,
    request: { params: orgPath, body: orgRuleBody }, response: { schema: ruleSchema }, requirement: orgRequirement('write'),
    docs: { tag: TAG, summary: 'Create an auto-triage rule for an organization', rules: [CONDITIONS, ACTIONS, ORG_RULES, REEVALUATES] },
  },
  getOrgDependencyBotRule: {
    number: 34, operationId: 'dependency-bot/get-org-rule', method: 'get', ...bothSegments(`${ORG_RULES_PATH}/{rule_id}`), success: 200,
    request: { params: orgRulePath }, response: { schema: ruleSchema }, requirement: orgRequirement('read'),
    docs: { tag: TAG, summary: 'Get an auto-triage rule of an organization' },
  },
  updateOrgDependencyBotRule: {
    number: 35, operationId: 'dependency-bot/update-org-rule', method: 'patch', ...bothSegments(`${ORG_RULES_PATH}/{rule_id}`), success: 200,
    request: { params: orgRulePath, body: orgRulePatchBody }, response: { schema: ruleSchema }, requirement: orgRequirement('write'),
    docs: { tag: TAG, summary: 'Update an auto-triage rule of an organization', rules: ['Changes the keys given; `conditions` replaces them whole.', CONDITIONS, ORG_RULES, REEVALUATES] },
  },
  deleteOrgDependencyBotRule: {
    number: 36, operationId: 'dependency-bot/delete-org-rule', method: 'delete', ...bothSegments(`${ORG_RULES_PATH}/{rule_id}`), success: 204,
    request: { params: orgRulePath }, requirement: orgRequirement('write'),
    docs: { tag: TAG, summary: 'Delete an auto-triage rule of an organization', rules: [REEVALUATES] },
  },
  listRepoDependencyBotRules: {
    number: 37, operationId: 'dependency-bot/list-repo-rules', method: 'get', ...bothSegments(REPO_RULES_PATH), success: 200,
    request: { params: repoPath }, response: { schema: ruleSchema, array: true }, requirement: repoRequirement('read'),
    docs: { tag: TAG, summary: 'List auto-triage rules for a repository', rules: ['The repository\'s own rules, oldest first (its organization\'s are listed there).'] },
  },
  createRepoDependencyBotRule: {
    number: 38, operationId: 'dependency-bot/create-repo-rule', method: 'post', ...bothSegments(REPO_RULES_PATH), success: 201,
    request: { params: repoPath, body: repoRuleBody }, response: { schema: ruleSchema }, requirement: repoRequirement('write'),
    docs: { tag: TAG, summary: 'Create an auto-triage rule for a repository', rules: [CONDITIONS, ACTIONS, REPO_RULES, REEVALUATES] },
  },
  getRepoDependencyBotRule: {
    number: 39, operationId: 'dependency-bot/get-repo-rule', method: 'get', ...bothSegments(`${REPO_RULES_PATH}/{rule_id}`), success: 200,
    request: { params: repoRulePath }, response: { schema: ruleSchema }, requirement: repoRequirement('read'),
    docs: { tag: TAG, summary: 'Get an auto-triage rule of a repository' },
  },
  updateRepoDependencyBotRule: {
    number: 40, operationId: 'dependency-bot/update-repo-rule', method: 'patch', ...bothSegments(`${REPO_RULES_PATH}/{rule_id}`), success: 200,
    request: { params: repoRulePath, body: repoRulePatchBody }, response: { schema: ruleSchema }, requirement: repoRequirement('write'),
    docs: { tag: TAG, summary: 'Update an auto-triage rule of a repository', rules: ['Changes the keys given; `conditions` replaces them whole.', CONDITIONS, REPO_RULES, REEVALUATES] },
  },
  deleteRepoDependencyBotRule: {
    number: 41, operationId: 'dependency-bot/delete-repo-rule', method: 'delete', ...bothSegments(`${REPO_RULES_PATH}/{rule_id}`), success: 204,
    request: { params: repoRulePath }, requirement: repoRequirement('write'),
    docs: { tag: TAG, summary: 'Delete an auto-triage rule of a repository', rules: [REEVALUATES] },
  },
  getOrgDependencyBotPresets: {
    number: 42, operationId: 'dependency-bot/get-org-presets', method: 'get', ...bothSegments('/orgs/{org}/dependency-bot/presets'), success: 200,
    request: { params: orgPath }, response: { schema: presetsSchema }, requirement: orgRequirement('read'),
    docs: { tag: TAG, summary: 'Get the auto-triage presets of an organization', rules: [PRESET] },
  },
  setOrgDependencyBotPresets: {
    number: 43, operationId: 'dependency-bot/set-org-presets', method: 'put', ...bothSegments('/orgs/{org}/dependency-bot/presets'), success: 200,
    request: { params: orgPath, body: presetsBody }, response: { schema: presetsSchema }, requirement: orgRequirement('write'),
    docs: { tag: TAG, summary: 'Set the auto-triage presets of an organization', rules: [PRESET, REEVALUATES] },
  },
  getRepoDependencyBotPresets: {
    number: 44, operationId: 'dependency-bot/get-repo-presets', method: 'get', ...bothSegments('/repos/{owner}/{repo}/dependency-bot/presets'), success: 200,
    request: { params: repoPath }, response: { schema: presetsSchema }, requirement: repoRequirement('read'),
    docs: { tag: TAG, summary: 'Get the auto-triage presets of a repository', rules: ['The repository\'s own setting (null: it follows the default).', PRESET] },
  },
  setRepoDependencyBotPresets: {
    number: 45, operationId: 'dependency-bot/set-repo-presets', method: 'put', ...bothSegments('/repos/{owner}/{repo}/dependency-bot/presets'), success: 200,
    request: { params: repoPath, body: presetsBody }, response: { schema: presetsSchema }, requirement: repoRequirement('write'),
    docs: { tag: TAG, summary: 'Set the auto-triage presets of a repository', rules: [PRESET, REEVALUATES] },
  },
} satisfies Record<string, Operation>;
