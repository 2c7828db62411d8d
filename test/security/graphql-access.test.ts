import { OPERATIONS, type OperationName } from '../../src/operations';
import { encodeNodeId, type NodeType } from '../../src/shared/node-id';
import { AccessOracle, type Target } from '../helpers/access-oracle';
import { errorPaths, outcomeFor, outcomeOf, type GraphQLAnswer } from '../helpers/graphql-outcome';
import type { Knex } from 'knex';
import { DIGEST, FIXTURE, OWNED_OPERATION_LIST, ROLE, SBOM, SNAPSHOT, ownedTargetKind, recordMatrixDeliveries, restoreHook, restoreRule } from '../helpers/security-operations';
import { auditRecordCount, hashTables, lastAuditId } from '../helpers/table-hash';
import { createTestApp, type TestApp } from '../helpers/test-app';
import {
  CALLERS, CUSTOM_ROLE, FOREIGN_ROLE, MATRIX_RULE, NEWCOMER, ORG, OTHER_ORG, REPO, SCRATCH_TEAM, TARGETS, actorNameOf, addProperty, callerByKey, deleteProperty, hookIdOf, missingTarget, ruleIdOf,
  securityWorld,
  type Caller,
} from '../helpers/security-world';

// The access matrix of issue 8 through GraphQL: every query entry point, every field backed
// by a REST operation, every mutation and node(id), for every kind of caller and target.
// Expectations come from the same oracle as the REST matrix: what REST answers 404 is
// NOT_FOUND (or a null entry, byte for byte like a missing one), 403 FORBIDDEN, 401
// UNAUTHENTICATED; a refused token refuses the whole request with HTTP 401.

const world = securityWorld();
const oracle = new AccessOracle(world);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
  await recordMatrixDeliveries(t.db.knex);
});
afterAll(() => t.close());

async function post(caller: Caller, query: string, variables: Record<string, unknown>): Promise<GraphQLAnswer> {
  const request = t.http().post('/graphql').set('Content-Type', 'application/json');
  if (caller.header) request.set('Authorization', caller.header);
  const res = await request.send({ query, variables });
  return { status: res.status, body: res.body };
}

/** Runs `check` for every caller, ten at a time, and gathers what it finds wrong. */
async function everyCaller(callers: Caller[], check: (caller: Caller) => Promise<object | undefined>): Promise<object[]> {
  const problems: object[] = [];
  for (let i = 0; i < callers.length; i += 10) {
    for (const problem of await Promise.all(callers.slice(i, i + 10).map(check))) if (problem) problems.push(problem);
  }
  return problems;
}

// ---- Entry points and the fields behind REST reads: one query per entry, every field in it.

type EntryKind = 'organization' | 'enterprise' | 'repository';
/** `path`: where the answer sits (aliases included); `operations`: the REST operations guarding it, outermost first. */
interface Field { path: string; selection: string; operations: OperationName[] }
interface Entry { kind: Target['kind']; query: string; variables: (target: Target) => Record<string, unknown>; fields: Field[] }

const field = (entry: EntryKind, rest: string, selection: string, ...operations: OperationName[]): Field =>
  ({ path: `${entry}.${rest}`, selection, operations });

const ENTRIES: Record<EntryKind, Entry> = {
  organization: {
    kind: 'org',
    query: 'query($login: String!, $ruleId: Int!, $hookId: Int!) { organization(login: $login) { login %FIELDS% } }',
    variables: (target) => ({ login: target.kind === 'org' ? target.login : '', ruleId: ruleIdOf(target), hookId: hookIdOf(target) }),
    fields: [
      field('organization', 'organizationRoles', 'organizationRoles { databaseId }', 'listOrgRoles'),
      field('organization', 'organizationRole', `organizationRole(databaseId: ${ROLE}) { databaseId }`, 'getOrgRole'),
      // #9 and #10 sit below #8: the role must be readable first.
      field('organization', 'roleTeams.teams', `roleTeams: organizationRole(databaseId: ${ROLE}) { teams { totalCount } }`, 'getOrgRole', 'listOrgRoleTeams'),
      field('organization', 'roleUsers.users', `roleUsers: organizationRole(databaseId: ${ROLE}) { users { totalCount } }`, 'getOrgRole', 'listOrgRoleUsers'),
      field('organization', 'oidcPropertyInclusions', 'oidcPropertyInclusions { customPropertyName }', 'listOrgOidcInclusions'),
      field('organization', 'oidcSubjectClaimTemplate', 'oidcSubjectClaimTemplate { includeClaimKeys }', 'getOrgOidcSubjectTemplate'),
      field('organization', 'dependencyAlerts', 'dependencyAlerts { totalCount }', 'listOrgDependencyAlerts'),
      field('organization', 'rules', 'rules { id }', 'listOrgDependencyBotRules'),
      field('organization', 'rule', 'rule(id: $ruleId) { id }', 'getOrgDependencyBotRule'),
      field('organization', 'presets', 'presets { lowImpactDevelopment }', 'getOrgDependencyBotPresets'),
      field('organization', 'webhooks', 'webhooks { totalCount }', 'listOrgWebhooks'),
      field('organization', 'webhook', 'webhook(id: $hookId) { id }', 'getOrgWebhook'),
      // Deliveries sit below their hook: it must be readable first.
      field('organization', 'hookDeliveries.deliveries', 'hookDeliveries: webhook(id: $hookId) { deliveries { totalCount } }', 'getOrgWebhook', 'listOrgWebhookDeliveries'),
      field('organization', 'hookDelivery.delivery', 'hookDelivery: webhook(id: $hookId) { delivery(id: $hookId) { id } }', 'getOrgWebhook', 'getOrgWebhookDelivery'),
      field('organization', 'auditLog', 'auditLog(first: 1) { pageInfo { hasNextPage } }', 'getOrgAuditLog'),
    ],
  },
  enterprise: {
    kind: 'enterprise',
    query: 'query($slug: String!) { enterprise(slug: $slug) { slug %FIELDS% } }',
    variables: (target) => ({ slug: target.kind === 'enterprise' ? target.slug : '' }),
    fields: [
      field('enterprise', 'oidcPropertyInclusions', 'oidcPropertyInclusions { customPropertyName }', 'listEnterpriseOidcInclusions'),
      field('enterprise', 'dependencyAlerts', 'dependencyAlerts { totalCount }', 'listEnterpriseDependencyAlerts'),
      field('enterprise', 'auditLog', 'auditLog(first: 1) { pageInfo { hasNextPage } }', 'getEnterpriseAuditLog'),
    ],
  },
  repository: {
    kind: 'repo',
    query: 'query($owner: String!, $name: String!, $ruleId: Int!, $hookId: Int!) { repository(owner: $owner, name: $name) { name %FIELDS% } }',
    variables: (target) => (target.kind === 'repo' ? { owner: target.owner, name: target.name, ruleId: ruleIdOf(target), hookId: hookIdOf(target) } : {}),
    fields: [
      field('repository', 'oidcSubjectClaimTemplate', 'oidcSubjectClaimTemplate { useDefault }', 'getRepoOidcSubjectTemplate'),
      field('repository', 'attestations', `attestations(subjectDigest: "${DIGEST}") { totalCount }`, 'listAttestations'),
      field('repository', 'dependencyAlerts', 'dependencyAlerts { totalCount }', 'listRepoDependencyAlerts'),
      field('repository', 'dependencyAlert', 'dependencyAlert(number: 1) { number }', 'getDependencyAlert'),
      // An alert's paths sit below the alert: it must be readable first.
      field('repository', 'alertPaths.dependencyPaths', 'alertPaths: dependencyAlert(number: 1) { dependencyPaths { manifestPath } }', 'getDependencyAlert', 'listDependencyAlertPaths'),
      field('repository', 'dependencies', 'dependencies { totalCount }', 'getDependencySbom'),
      field('repository', 'rules', 'rules { id }', 'listRepoDependencyBotRules'),
      field('repository', 'rule', 'rule(id: $ruleId) { id }', 'getRepoDependencyBotRule'),
      field('repository', 'presets', 'presets { lowImpactDevelopment }', 'getRepoDependencyBotPresets'),
      field('repository', 'webhooks', 'webhooks { totalCount }', 'listRepoWebhooks'),
      field('repository', 'webhook', 'webhook(id: $hookId) { id }', 'getRepoWebhook'),
      field('repository', 'hookDeliveries.deliveries', 'hookDeliveries: webhook(id: $hookId) { deliveries { totalCount } }', 'getRepoWebhook', 'listRepoWebhookDeliveries'),
      field('repository', 'hookDelivery.delivery', 'hookDelivery: webhook(id: $hookId) { delivery(id: $hookId) { id } }', 'getRepoWebhook', 'getRepoWebhookDelivery'),
      field('repository', 'oidcPreview', 'oidcPreview(context: { eventName: "push", ref: "refs/heads/main", sha: "5e1f9c2a7b3d8e4f6a0b1c2d3e4f5a6b7c8d9e0f", workflow: "deploy", actor: "matrix" }) { sub }', 'previewOidcToken'),
    ],
  },
};

function expectedField(caller: Caller, entry: EntryKind, target: Target, f: Field): string {
  if (caller.refused) return 'HTTP 401 UNAUTHENTICATED';
  if (!oracle.isVisible(caller, target)) return `NOT_FOUND at ${entry}`;
  const segments = f.path.split('.');
  for (const [i, operation] of f.operations.entries()) {
    const expected = oracle.expect(caller, operation, target, 200);
    // Each operation guards one more segment of the path (the role, then its teams).
    if (expected.status >= 300) return outcomeFor(expected, segments.slice(0, segments.length - f.operations.length + i + 1).join('.'));
  }
  return 'OK';
}

const ENTRY_ROWS = (Object.keys(ENTRIES) as EntryKind[]).flatMap((entry) => TARGETS[ENTRIES[entry].kind].map(({ label, target }) => ({ entry, label, target })));

describe.each(ENTRY_ROWS.map((row) => [`${row.entry}(…) on ${row.label}`, row] as const))('%s', (_title, { entry, target }) => {
  it('answers every caller each field as the REST operation behind it would, and an unseen entry like a missing one', async () => {
    const spec = ENTRIES[entry];
    const query = spec.query.replace('%FIELDS%', spec.fields.map((f) => f.selection).join(' '));
    const missing = missingTarget(spec.kind);
    const problems = await everyCaller(CALLERS, async (caller) => {
      const answer = await post(caller, query, spec.variables(target));
      const got: Record<string, unknown> = {};
      const want: Record<string, unknown> = {};
      for (const f of spec.fields) {
        got[f.path] = outcomeOf(answer, f.path);
        want[f.path] = expectedField(caller, entry, target, f);
      }
      if (answer.status !== 401) {
        got.errors = errorPaths(answer);
        want.errors = [...new Set(Object.values(want).filter((o) => String(o).includes(' at ')))].sort();
      }
      if (!caller.refused && !oracle.isVisible(caller, target)) {
        // Byte for byte what a missing entry answers the same caller.
        got.sameAsMissing = { status: answer.status, body: JSON.stringify(answer.body) };
        const absent = await post(caller, query, spec.variables(missing));
        want.sameAsMissing = { status: absent.status, body: JSON.stringify(absent.body) };
      }
      return JSON.stringify(got) === JSON.stringify(want) ? undefined : { caller: caller.name, got, want };
    });
    expect(problems).toEqual([]);
  });
});

/**
 * Operations GraphQL does not offer: a signed token is minted over REST only (oidc-tokens.resolver.ts
 * says why); a VEX document is a file for other tools, whose facts DependencyAlert's fields give (README).
 */
const REST_ONLY: OperationName[] = ['mintOidcToken', 'getRepositoryVex', 'getOrganizationVex'];

it('covers every REST read with a field', () => {
  const reads = Object.values(ENTRIES).flatMap((e) => e.fields.flatMap((f) => f.operations));
  const restReads = OWNED_OPERATION_LIST.map((entry) => entry.name).filter((name) => !REST_ONLY.includes(name) && MUTATIONS.every((m) => m.operation !== name));
  expect([...new Set(reads)].sort()).toEqual(restReads.sort());
});

it('viewer is the token\'s user, null for an app or without a token, and a refused token is 401', async () => {
  const problems = await everyCaller(CALLERS, async (caller) => {
    const answer = await post(caller, '{ viewer { login } }', {});
    const got = answer.status === 401 ? 'HTTP 401' : (answer.body.data?.viewer as { login: string } | null)?.login ?? null;
    const want = caller.refused ? 'HTTP 401' : caller.token?.user ?? null;
    return got === want ? undefined : { caller: caller.name, got, want };
  });
  expect(problems).toEqual([]);
});

// ---- Mutations: the error REST would give, nothing changed when refused.

interface Mutation {
  operation: OperationName; name: string; inputType: string; input: (target: Target, caller: Caller) => Record<string, unknown>;
  /** Puts back what a success removed (a deleted rule), so the next allowed caller finds it. */
  restore?: (knex: Knex, target: Target) => Promise<void>;
}

const orgInput = (target: Target) => ({ organization: target.kind === 'org' ? target.login : '' });
const entInput = (target: Target) => ({ enterprise: target.kind === 'enterprise' ? target.slug : '' });
const repoInput = (target: Target) => (target.kind === 'repo' ? { owner: target.owner, repository: target.name } : {});
/** Auto-triage inputs name an organization as `owner` alone. */
const ruleOwnerInput = (target: Target) => (target.kind === 'org' ? { owner: target.login } : repoInput(target));
const ruleMutations = (level: 'Org' | 'Repo'): Mutation[] => [
  { operation: `create${level}DependencyBotRule`, name: 'createDependencyBotRule', inputType: 'CreateDependencyBotRuleInput', input: (tg, c) => ({ ...ruleOwnerInput(tg), ...MATRIX_RULE, name: `created by ${c.key}` }) },
  { operation: `update${level}DependencyBotRule`, name: 'updateDependencyBotRule', inputType: 'UpdateDependencyBotRuleInput', input: (tg) => ({ ...ruleOwnerInput(tg), ruleId: ruleIdOf(tg), name: MATRIX_RULE.name }) },
  { operation: `delete${level}DependencyBotRule`, name: 'deleteDependencyBotRule', inputType: 'DeleteDependencyBotRuleInput', input: (tg) => ({ ...ruleOwnerInput(tg), ruleId: ruleIdOf(tg) }), restore: restoreRule },
  { operation: `set${level}DependencyBotPresets`, name: 'setDependencyBotPresets', inputType: 'SetDependencyBotPresetsInput', input: (tg) => ({ ...ruleOwnerInput(tg), lowImpactDevelopment: null }) },
];

const hookMutations = (level: 'Org' | 'Repo'): Mutation[] => [
  { operation: `create${level}Webhook`, name: 'createWebhook', inputType: 'CreateWebhookInput', input: (tg, c) => ({ ...ruleOwnerInput(tg), config: { url: `https://hooks.example.com/${c.key}` }, active: false }) },
  { operation: `update${level}Webhook`, name: 'updateWebhook', inputType: 'UpdateWebhookInput', input: (tg) => ({ ...ruleOwnerInput(tg), hookId: hookIdOf(tg), active: false }) },
  { operation: `delete${level}Webhook`, name: 'deleteWebhook', inputType: 'WebhookRefInput', input: (tg) => ({ ...ruleOwnerInput(tg), hookId: hookIdOf(tg) }), restore: restoreHook },
  { operation: `ping${level}Webhook`, name: 'pingWebhook', inputType: 'WebhookRefInput', input: (tg) => ({ ...ruleOwnerInput(tg), hookId: hookIdOf(tg) }) },
  { operation: `redeliver${level}WebhookDelivery`, name: 'redeliverWebhookDelivery', inputType: 'RedeliverWebhookDeliveryInput', input: (tg) => ({ ...ruleOwnerInput(tg), hookId: hookIdOf(tg), deliveryId: hookIdOf(tg) }) },
];

const MUTATIONS: Mutation[] = [
  { operation: 'revokeAllOrgRolesTeam', name: 'revokeAllOrganizationRolesFromTeam', inputType: 'TeamInput', input: (tg) => ({ ...orgInput(tg), team: SCRATCH_TEAM }) },
  { operation: 'assignTeamToOrgRole', name: 'assignOrganizationRoleToTeam', inputType: 'TeamRoleInput', input: (tg) => ({ ...orgInput(tg), team: SCRATCH_TEAM, roleId: ROLE }) },
  { operation: 'revokeOrgRoleTeam', name: 'revokeOrganizationRoleFromTeam', inputType: 'TeamRoleInput', input: (tg) => ({ ...orgInput(tg), team: SCRATCH_TEAM, roleId: ROLE }) },
  { operation: 'revokeAllOrgRolesUser', name: 'revokeAllOrganizationRolesFromUser', inputType: 'UserInput', input: (tg) => ({ ...orgInput(tg), user: NEWCOMER }) },
  { operation: 'assignUserToOrgRole', name: 'assignOrganizationRoleToUser', inputType: 'UserRoleInput', input: (tg) => ({ ...orgInput(tg), user: NEWCOMER, roleId: ROLE }) },
  { operation: 'revokeOrgRoleUser', name: 'revokeOrganizationRoleFromUser', inputType: 'UserRoleInput', input: (tg) => ({ ...orgInput(tg), user: NEWCOMER, roleId: ROLE }) },
  { operation: 'createEnterpriseOidcInclusion', name: 'addEnterpriseOidcPropertyInclusion', inputType: 'EnterpriseInclusionInput', input: (tg, c) => ({ ...entInput(tg), customPropertyName: addProperty(c) }) },
  { operation: 'deleteEnterpriseOidcInclusion', name: 'removeEnterpriseOidcPropertyInclusion', inputType: 'EnterpriseInclusionInput', input: (tg, c) => ({ ...entInput(tg), customPropertyName: deleteProperty(c) }) },
  { operation: 'createOrgOidcInclusion', name: 'addOrganizationOidcPropertyInclusion', inputType: 'OrganizationInclusionInput', input: (tg, c) => ({ ...orgInput(tg), customPropertyName: addProperty(c) }) },
  { operation: 'deleteOrgOidcInclusion', name: 'removeOrganizationOidcPropertyInclusion', inputType: 'OrganizationInclusionInput', input: (tg, c) => ({ ...orgInput(tg), customPropertyName: deleteProperty(c) }) },
  { operation: 'setOrgOidcSubjectTemplate', name: 'setOrganizationOidcSubjectClaimTemplate', inputType: 'SetOrganizationSubjectClaimTemplateInput', input: (tg) => ({ ...orgInput(tg), includeClaimKeys: ['repo', 'context'] }) },
  { operation: 'setRepoOidcSubjectTemplate', name: 'setRepositoryOidcSubjectClaimTemplate', inputType: 'SetRepositorySubjectClaimTemplateInput', input: (tg) => ({ ...repoInput(tg), useDefault: true }) },
  { operation: 'createAttestation', name: 'createAttestation', inputType: 'CreateAttestationInput', input: (tg) => ({ ...repoInput(tg), bundle: FIXTURE }) },
  { operation: 'updateDependencyAlert', name: 'updateDependencyAlert', inputType: 'UpdateDependencyAlertInput', input: (tg) => ({ ...repoInput(tg), number: 1, assignees: [] }) },
  { operation: 'createDependencySnapshot', name: 'submitDependencySnapshot', inputType: 'SubmitDependencySnapshotInput', input: (tg) => ({ ...repoInput(tg), snapshot: SNAPSHOT }) },
  { operation: 'uploadSbom', name: 'uploadSbom', inputType: 'UploadSbomInput', input: (tg) => ({ ...repoInput(tg), document: SBOM }) },
  ...ruleMutations('Org'),
  ...ruleMutations('Repo'),
  ...hookMutations('Org'),
  ...hookMutations('Repo'),
];

const SUCCESS: Partial<Record<OperationName, number>> = { createEnterpriseOidcInclusion: 201, createOrgOidcInclusion: 201, setOrgOidcSubjectTemplate: 201, setRepoOidcSubjectTemplate: 201, createAttestation: 201, updateDependencyAlert: 200, createDependencySnapshot: 201, uploadSbom: 201,
  createOrgDependencyBotRule: 201, createRepoDependencyBotRule: 201, updateOrgDependencyBotRule: 200, updateRepoDependencyBotRule: 200,
  setOrgDependencyBotPresets: 200, setRepoDependencyBotPresets: 200,
  createOrgWebhook: 201, createRepoWebhook: 201, updateOrgWebhook: 200, updateRepoWebhook: 200, redeliverOrgWebhookDelivery: 202, redeliverRepoWebhookDelivery: 202,
};
const expectedMutation = (caller: Caller, m: Mutation, target: Target) =>
  (caller.refused ? 'HTTP 401 UNAUTHENTICATED' : outcomeFor(oracle.expect(caller, m.operation, target, SUCCESS[m.operation] ?? 204), m.name));

const MUTATION_ROWS = MUTATIONS.flatMap((m) => TARGETS[ownedTargetKind(m.operation)].map(({ label, target }) => ({ m, label, target })));

it('covers every REST write with a mutation', () => {
  const writes = OWNED_OPERATION_LIST.map((entry) => entry.name).filter((name) => !REST_ONLY.includes(name) && Object.values(ENTRIES).every((e) => e.fields.every((f) => !f.operations.includes(name))));
  expect(MUTATIONS.map((m) => m.operation).sort()).toEqual(writes.sort());
});

describe.each(MUTATION_ROWS.map((row) => [`#${OPERATIONS[row.m.operation].number} ${row.m.name} on ${row.label}`, row] as const))('%s', (_title, { m, target }) => {
  it('answers every caller as REST would, a hidden target like a missing one, and refusals change nothing', async () => {
    const query = `mutation($input: ${m.inputType}!) { ${m.name}(input: $input) { __typename } }`;
    const missing = missingTarget(ownedTargetKind(m.operation));
    const check = async (caller: Caller) => {
      const answer = await post(caller, query, { input: m.input(target, caller) });
      const got: Record<string, unknown> = { outcome: outcomeOf(answer, m.name) };
      const want: Record<string, unknown> = { outcome: expectedMutation(caller, m, target) };
      if (want.outcome === `NOT_FOUND at ${m.name}`) {
        got.sameAsMissing = JSON.stringify(answer.body);
        want.sameAsMissing = JSON.stringify((await post(caller, query, { input: m.input(missing, caller) })).body);
      }
      return JSON.stringify(got) === JSON.stringify(want) ? undefined : { caller: caller.name, got, want };
    };
    const refused = CALLERS.filter((c) => expectedMutation(c, m, target) !== 'OK');
    const before = await hashTables(t.db.knex);
    const records = await auditRecordCount(t.db.knex);
    const problems = await everyCaller(refused, check);
    expect({ problems, tables: await hashTables(t.db.knex), records: await auditRecordCount(t.db.knex) }).toEqual({ problems: [], tables: before, records });
    const allowedCallers = CALLERS.filter((c) => !refused.includes(c));
    // The first allowed caller alone: what it changes (but timestamps) it is recorded as changing, by itself; nothing changed, nothing recorded.
    const [first] = allowedCallers;
    if (first) {
      const unchanged = await hashTables(t.db.knex, ['updated_at']);
      const since = await lastAuditId(t.db.knex);
      const problem = await check(first);
      const changed = JSON.stringify(await hashTables(t.db.knex, ['updated_at'])) !== JSON.stringify(unchanged);
      const actors = (await t.db.knex('audit_log').where('id', '>', since).select('actor')).map((r) => r.actor as string);
      const byCaller = actors.filter((actor) => actor === actorNameOf(first));
      expect({ problem, changed, recordedByCaller: byCaller.length > 0, others: actors.filter((a) => a !== actorNameOf(first) && a !== 'dependency-bot[bot]') })
        .toEqual({ problem: undefined, changed, recordedByCaller: changed, others: [] });
      await m.restore?.(t.db.knex, target);
    }
    if (!m.restore) {
      expect(await everyCaller(allowedCallers.slice(1), check)).toEqual([]);
      return;
    }
    // A success removes what the next caller needs: one caller at a time, put back after each.
    const restored: object[] = [];
    for (const caller of allowedCallers.slice(1)) {
      const problem = await check(caller);
      if (problem) restored.push(problem);
      await m.restore(t.db.knex, target);
    }
    expect(restored).toEqual([]);
  });
});

// ---- node(id): what the caller may not see answers exactly like an id that does not exist.

interface NodeCase { label: string; type: NodeType; id: string; scope?: number; visibleTo: (caller: Caller) => boolean }

const OWNER = callerByKey('owner');
const OTHER_OWNER = callerByKey('other_owner');
const SOLO = callerByKey('solo');
const orgTarget = (login: string): Target => ({ kind: 'org', login });
const repoTarget = (repo: { owner: string; name: string }): Target => ({ kind: 'repo', ...repo });
const allowed = (caller: Caller, operation: OperationName, target: Target) => !caller.refused && oracle.expect(caller, operation, target, 200).status === 200;

async function read<T>(caller: Caller, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const answer = await post(caller, query, variables);
  if (answer.body.errors) throw new Error(`${query}: ${JSON.stringify(answer.body.errors)}`);
  return answer.body.data as T;
}

/** Every kind of object, in both organizations, with its id as its owner sees it. */
async function nodeCases(): Promise<NodeCase[]> {
  const cases: NodeCase[] = [];
  for (const [login, owner] of [[ORG, OWNER], [OTHER_ORG, OTHER_OWNER]] as const) {
    const target = orgTarget(login);
    const data = await read<any>(owner, `query($login: String!) { organization(login: $login) {
      id enterprise { id slug } organizationRoles { id name databaseId }
      allRepoWrite: organizationRole(databaseId: 8134) { teams { edges { node { id slug } } } } } }`, { login });
    const org = data.organization;
    cases.push({ label: `the organization ${login}`, type: 'Organization', id: org.id, visibleTo: (c) => !c.refused && oracle.isVisible(c, target) });
    const ent = { kind: 'enterprise', slug: org.enterprise.slug } as const;
    cases.push({ label: `the enterprise ${ent.slug}`, type: 'Enterprise', id: org.enterprise.id, visibleTo: (c) => !c.refused && oracle.isVisible(c, ent) });
    for (const role of org.organizationRoles.filter((r: { name: string }) => [CUSTOM_ROLE, FOREIGN_ROLE, 'all_repo_read'].includes(r.name))) {
      cases.push({ label: `the role ${role.name} of ${login}`, type: 'OrganizationRole', id: role.id, visibleTo: (c) => oracle.isVisible(c, target) && allowed(c, 'getOrgRole', target) });
    }
    const foreignRole = org.organizationRoles.find((r: { name: string }) => r.name === FOREIGN_ROLE);
    const holders = foreignRole
      ? (await read<any>(owner, `query($login: String!) { organization(login: $login) { organizationRole(databaseId: ${foreignRole.databaseId}) { teams { edges { node { id slug } } } } } }`, { login })).organization.organizationRole
      : org.allRepoWrite;
    for (const edge of holders.teams.edges) {
      cases.push({ label: `the team ${edge.node.slug} of ${login}`, type: 'Team', id: edge.node.id, visibleTo: (c) => oracle.isVisible(c, target) && allowed(c, 'listOrgRoleTeams', target) });
    }
  }
  for (const [repo, owner] of [[REPO.private, OWNER], [REPO.public, OWNER], [REPO.userOwned, SOLO], [REPO.foreign, OTHER_OWNER]] as const) {
    const target = repoTarget(repo);
    const data = await read<any>(owner, 'query($owner: String!, $name: String!) { repository(owner: $owner, name: $name) { id dependencyAlert(number: 1) { id securityAdvisory { id } } } }', repo);
    cases.push({ label: `the repository ${repo.owner}/${repo.name}`, type: 'Repository', id: data.repository.id, visibleTo: (c) => !c.refused && oracle.isVisible(c, target) });
    cases.push({ label: `alert 1 of ${repo.owner}/${repo.name}`, type: 'DependencyAlert', id: data.repository.dependencyAlert.id, visibleTo: (c) => allowed(c, 'getDependencyAlert', target) });
    if (repo === REPO.private) {
      // Advisories are public knowledge: every valid caller sees them.
      cases.push({ label: 'an advisory', type: 'Advisory', id: data.repository.dependencyAlert.securityAdvisory.id, visibleTo: (c) => !c.refused });
    }
  }
  return cases;
}

/** An id of the same kind (and organization) that names nothing. */
function missingIdLike(c: NodeCase): string {
  const scope = /@(\d+)$/.exec(Buffer.from(c.id.split('_').slice(1).join('_'), 'base64url').toString())?.[1];
  return encodeNodeId(c.type, 2 ** 31 - 2, scope === undefined ? undefined : Number(scope));
}

it('node(id) answers what the caller may not see exactly as an id that does not exist', async () => {
  const cases = await nodeCases();
  expect(new Set(cases.map((c) => c.type))).toEqual(new Set(['Organization', 'Enterprise', 'OrganizationRole', 'Team', 'Repository', 'DependencyAlert', 'Advisory']));
  const query = 'query($id: ID!) { node(id: $id) { __typename id } }';
  const problems = await everyCaller(CALLERS, async (caller) => {
    const wrong: object[] = [];
    // What a missing id of each kind answers this caller, asked once per kind.
    const missingAnswers = new Map<string, Promise<GraphQLAnswer>>();
    const missingAnswer = (id: string) => {
      if (!missingAnswers.has(id)) missingAnswers.set(id, post(caller, query, { id }));
      return missingAnswers.get(id)!;
    };
    for (const c of cases) {
      const answer = await post(caller, query, { id: c.id });
      if (caller.refused) {
        if (answer.status !== 401) wrong.push({ node: c.label, got: answer.status, want: 401 });
        continue;
      }
      const got = JSON.stringify({ status: answer.status, body: answer.body });
      const missing = c.visibleTo(caller) ? undefined : await missingAnswer(missingIdLike(c));
      const want = missing
        ? JSON.stringify({ status: missing.status, body: missing.body })
        : JSON.stringify({ status: 200, body: { data: { node: { __typename: c.type === 'Advisory' ? 'SecurityAdvisory' : c.type, id: c.id } } } });
      if (got !== want) wrong.push({ node: c.label, got, want });
    }
    return wrong.length > 0 ? { caller: caller.name, wrong } : undefined;
  });
  expect(problems).toEqual([]);
});

