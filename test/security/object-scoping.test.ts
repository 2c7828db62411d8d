import type { Response, Test } from 'supertest';
import { OPERATIONS } from '../../src/operations';
import { encodeNodeId } from '../../src/shared/node-id';
import { AccessOracle } from '../helpers/access-oracle';
import { SECURITY_OPERATIONS, ownedTargetKind, recordMatrixDeliveries } from '../helpers/security-operations';
import { hashTables } from '../helpers/table-hash';
import { createTestApp, type TestApp } from '../helpers/test-app';
import {
  CALLERS, FOREIGN_ROLE, FOREIGN_TEAM, NEWCOMER, ORG, OTHER_ORG, REPO, SCRATCH_TEAM, TARGETS, addProperty, callerByKey, hookIdOf, ruleIdOf, securityWorld, type Caller,
} from '../helpers/security-world';

// Objects are scoped (issue 8, OWASP API1 and API3): an id from another repository or
// organization never resolves; an ETag never lets a caller skip a check; a body can set
// nothing the operation does not document.

const world = securityWorld();
const oracle = new AccessOracle(world);
const OWNER = callerByKey('owner');
const MISSING_ROLE = 999999;
const MISSING_ALERT = 999;
const MISSING_RULE = 999_999;

let t: TestApp;
let foreignRoleId: number;
let orgDatabaseId: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(world);
  await recordMatrixDeliveries(t.db.knex);
  const roles = await t.http().get(`/orgs/${OTHER_ORG}/organization-roles`).set('Authorization', callerByKey('other_owner').header!);
  foreignRoleId = roles.body.roles.find((r: { name: string }) => r.name === FOREIGN_ROLE).id;
  orgDatabaseId = (await gql(OWNER, 'query($login: String!) { organization(login: $login) { databaseId } }', { login: ORG })).body.data.organization.databaseId;
});
afterAll(() => t.close());

function rest(caller: Caller, method: 'get' | 'put' | 'patch' | 'delete' | 'post', path: string, body?: object | string): Test {
  const request = t.http()[method](path);
  if (caller.header) request.set('Authorization', caller.header);
  if (typeof body === 'string') return request.set('Content-Type', 'application/json').send(body);
  return body ? request.send(body) : request;
}

async function gql(caller: Caller, query: string, variables: Record<string, unknown>) {
  const request = t.http().post('/graphql').set('Content-Type', 'application/json');
  if (caller.header) request.set('Authorization', caller.header);
  const res = await request.send({ query, variables });
  return { status: res.status, body: res.body };
}

const answer = (res: Response) => ({ status: res.status, contentType: res.headers['content-type'], etag: res.headers.etag, body: res.text });

describe('ids are scoped to their repository or organization', () => {
  const roles = `/orgs/${ORG}/organization-roles`;
  const privateAlerts = `/repos/${ORG}/${REPO.private.name}/dependency-bot/alerts`;
  const publicAlerts = `/repos/${ORG}/${REPO.public.name}/dependency-bot/alerts`;
  const dismiss = { state: 'dismissed', dismissed_reason: 'inaccurate' };
  const orgRules = `/orgs/${ORG}/dependency-bot/rules`;
  const publicRules = `/repos/${ORG}/${REPO.public.name}/dependency-bot/rules`;
  const orgTarget = (login: string) => ({ kind: 'org', login }) as const;
  const repoTarget = (repo: { owner: string; name: string }) => ({ kind: 'repo', ...repo }) as const;
  // [what, method, path with the foreign id, the same path with an id that never existed, body]
  const orgHooks = `/orgs/${ORG}/hooks`;
  const publicHooks = `/repos/${ORG}/${REPO.public.name}/hooks`;
  const foreignHook = () => hookIdOf(orgTarget(OTHER_ORG));
  const privateHook = () => hookIdOf(repoTarget(REPO.private));
  const ourHook = hookIdOf(orgTarget(ORG));
  const CASES: Array<[string, 'get' | 'put' | 'patch' | 'delete' | 'post', () => string, () => string, object?]> = [
    ['alert 3 of another organization\'s repository, read in ours', 'get', () => `${privateAlerts}/3`, () => `${privateAlerts}/${MISSING_ALERT}`],
    ['alert 3 of another organization\'s repository, dismissed in ours', 'patch', () => `${privateAlerts}/3`, () => `${privateAlerts}/${MISSING_ALERT}`, dismiss],
    ['alert 2 of a private repository, read through a public one', 'get', () => `${publicAlerts}/2`, () => `${publicAlerts}/${MISSING_ALERT}`],
    ['alert 2 of a private repository, dismissed through a public one', 'patch', () => `${publicAlerts}/2`, () => `${publicAlerts}/${MISSING_ALERT}`, dismiss],
    ['alert 3 of another organization\'s repository, its dependency paths read in ours', 'get', () => `${privateAlerts}/3/paths`, () => `${privateAlerts}/${MISSING_ALERT}/paths`],
    ['alert 2 of a private repository, its dependency paths read through a public one', 'get', () => `${publicAlerts}/2/paths`, () => `${publicAlerts}/${MISSING_ALERT}/paths`],
    ['another organization\'s custom role, read', 'get', () => `${roles}/${foreignRoleId}`, () => `${roles}/${MISSING_ROLE}`],
    ['another organization\'s custom role, its teams', 'get', () => `${roles}/${foreignRoleId}/teams`, () => `${roles}/${MISSING_ROLE}/teams`],
    ['another organization\'s custom role, its users', 'get', () => `${roles}/${foreignRoleId}/users`, () => `${roles}/${MISSING_ROLE}/users`],
    ['another organization\'s custom role, assigned to our team', 'put', () => `${roles}/teams/${SCRATCH_TEAM}/${foreignRoleId}`, () => `${roles}/teams/${SCRATCH_TEAM}/${MISSING_ROLE}`],
    ['another organization\'s custom role, assigned to our member', 'put', () => `${roles}/users/${NEWCOMER}/${foreignRoleId}`, () => `${roles}/users/${NEWCOMER}/${MISSING_ROLE}`],
    ['another organization\'s team, given a role of ours', 'put', () => `${roles}/teams/${FOREIGN_TEAM}/8132`, () => `${roles}/teams/no-such-team/8132`],
    // The foreign team holds the foreign role in its own organization: neither may be touched from ours.
    ['another organization\'s team and role, revoked through ours', 'delete', () => `${roles}/teams/${FOREIGN_TEAM}/${foreignRoleId}`, () => `${roles}/teams/no-such-team/${MISSING_ROLE}`],
    ['another organization\'s team, stripped of every role through ours', 'delete', () => `${roles}/teams/${FOREIGN_TEAM}`, () => `${roles}/teams/no-such-team`],
    ['another organization\'s role, revoked from our member', 'delete', () => `${roles}/users/${NEWCOMER}/${foreignRoleId}`, () => `${roles}/users/${NEWCOMER}/${MISSING_ROLE}`],
    // Auto-triage rule ids: another organization's rule, or a repository's, through our organization; a private repository's through a public one.
    ['another organization\'s auto-triage rule, read in ours', 'get', () => `${orgRules}/${ruleIdOf(orgTarget(OTHER_ORG))}`, () => `${orgRules}/${MISSING_RULE}`],
    ['another organization\'s auto-triage rule, changed in ours', 'patch', () => `${orgRules}/${ruleIdOf(orgTarget(OTHER_ORG))}`, () => `${orgRules}/${MISSING_RULE}`, { name: 'taken over' }],
    ['another organization\'s auto-triage rule, deleted in ours', 'delete', () => `${orgRules}/${ruleIdOf(orgTarget(OTHER_ORG))}`, () => `${orgRules}/${MISSING_RULE}`],
    ['a repository\'s auto-triage rule, read as our organization\'s', 'get', () => `${orgRules}/${ruleIdOf(repoTarget(REPO.private))}`, () => `${orgRules}/${MISSING_RULE}`],
    ['a private repository\'s auto-triage rule, read through a public one', 'get', () => `${publicRules}/${ruleIdOf(repoTarget(REPO.private))}`, () => `${publicRules}/${MISSING_RULE}`],
    ['a private repository\'s auto-triage rule, deleted through a public one', 'delete', () => `${publicRules}/${ruleIdOf(repoTarget(REPO.private))}`, () => `${publicRules}/${MISSING_RULE}`],
    // Hook ids and delivery ids: another organization's hook, or a repository's, through our organization; a private repository's through a public one.
    ['another organization\'s hook, read in ours', 'get', () => `${orgHooks}/${foreignHook()}`, () => `${orgHooks}/${MISSING_RULE}`],
    ['another organization\'s hook, changed in ours', 'patch', () => `${orgHooks}/${foreignHook()}`, () => `${orgHooks}/${MISSING_RULE}`, { config: { url: 'https://attacker.example.com/' } }],
    ['another organization\'s hook, deleted in ours', 'delete', () => `${orgHooks}/${foreignHook()}`, () => `${orgHooks}/${MISSING_RULE}`],
    ['another organization\'s hook, pinged in ours', 'post', () => `${orgHooks}/${foreignHook()}/pings`, () => `${orgHooks}/${MISSING_RULE}/pings`],
    ['another organization\'s hook, its deliveries listed in ours', 'get', () => `${orgHooks}/${foreignHook()}/deliveries`, () => `${orgHooks}/${MISSING_RULE}/deliveries`],
    ['a repository\'s hook, read as our organization\'s', 'get', () => `${orgHooks}/${privateHook()}`, () => `${orgHooks}/${MISSING_RULE}`],
    ['a private repository\'s hook, read through a public one', 'get', () => `${publicHooks}/${privateHook()}`, () => `${publicHooks}/${MISSING_RULE}`],
    ['another organization\'s delivery, read through our hook', 'get', () => `${orgHooks}/${ourHook}/deliveries/${foreignHook()}`, () => `${orgHooks}/${ourHook}/deliveries/${MISSING_RULE}`],
    ['another organization\'s delivery, redelivered through our hook', 'post', () => `${orgHooks}/${ourHook}/deliveries/${foreignHook()}/attempts`, () => `${orgHooks}/${ourHook}/deliveries/${MISSING_RULE}/attempts`],
  ];

  // Rows as [title, case]: jest would take a missing trailing body for a done callback.
  it.each(CASES.map(([what, method, foreign, missing, body]) => [what, { method, foreign, missing, body }] as const))('REST: %s never resolves; it answers as a missing id and changes nothing', async (_what, { method, foreign, missing, body }) => {
    const before = await hashTables(t.db.knex);
    const got = await rest(OWNER, method, foreign(), body);
    expect(answer(got)).toEqual(answer(await rest(OWNER, method, missing(), body)));
    expect(got.status).toBe(404);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  const ROLE_QUERY = 'query($login: String!, $id: Int!) { organization(login: $login) { organizationRole(databaseId: $id) { name } } }';
  const ALERT_QUERY = 'query($owner: String!, $name: String!, $number: Int!) { repository(owner: $owner, name: $name) { dependencyAlert(number: $number) { number } } }';
  const ASSIGN_TEAM = 'mutation($input: TeamRoleInput!) { assignOrganizationRoleToTeam(input: $input) { __typename } }';
  const REVOKE_TEAM = 'mutation($input: TeamRoleInput!) { revokeOrganizationRoleFromTeam(input: $input) { __typename } }';
  const ASSIGN_USER = 'mutation($input: UserRoleInput!) { assignOrganizationRoleToUser(input: $input) { __typename } }';
  const UPDATE_ALERT = 'mutation($input: UpdateDependencyAlertInput!) { updateDependencyAlert(input: $input) { __typename } }';
  const NODE = 'query($id: ID!) { node(id: $id) { id } }';
  const ORG_RULE_QUERY = 'query($login: String!, $id: Int!) { organization(login: $login) { rule(id: $id) { name } } }';
  const REPO_RULE_QUERY = 'query($owner: String!, $name: String!, $id: Int!) { repository(owner: $owner, name: $name) { rule(id: $id) { name } } }';
  const DELETE_RULE = 'mutation($input: DeleteDependencyBotRuleInput!) { deleteDependencyBotRule(input: $input) { __typename } }';
  const GQL_CASES: Array<[string, string, () => Record<string, unknown>, () => Record<string, unknown>]> = [
    ['another organization\'s role in ours', ROLE_QUERY, () => ({ login: ORG, id: foreignRoleId }), () => ({ login: ORG, id: MISSING_ROLE })],
    ['another organization\'s alert number in our repository', ALERT_QUERY, () => ({ ...REPO.private, number: 3 }), () => ({ ...REPO.private, number: MISSING_ALERT })],
    ['a private repository\'s alert number in a public one', ALERT_QUERY, () => ({ ...REPO.public, number: 2 }), () => ({ ...REPO.public, number: MISSING_ALERT })],
    ['another organization\'s team given a role of ours', ASSIGN_TEAM, () => ({ input: { organization: ORG, team: FOREIGN_TEAM, roleId: 8132 } }), () => ({ input: { organization: ORG, team: 'no-such-team', roleId: 8132 } })],
    ['another organization\'s team and role revoked through ours', REVOKE_TEAM, () => ({ input: { organization: ORG, team: FOREIGN_TEAM, roleId: foreignRoleId } }), () => ({ input: { organization: ORG, team: 'no-such-team', roleId: MISSING_ROLE } })],
    ['another organization\'s role assigned to our member', ASSIGN_USER, () => ({ input: { organization: ORG, user: NEWCOMER, roleId: foreignRoleId } }), () => ({ input: { organization: ORG, user: NEWCOMER, roleId: MISSING_ROLE } })],
    ['another organization\'s alert number dismissed in our repository', UPDATE_ALERT,
      () => ({ input: { owner: ORG, repository: REPO.private.name, number: 3, state: 'DISMISSED', dismissedReason: 'INACCURATE' } }),
      () => ({ input: { owner: ORG, repository: REPO.private.name, number: MISSING_ALERT, state: 'DISMISSED', dismissedReason: 'INACCURATE' } })],
    ['another organization\'s auto-triage rule in ours', ORG_RULE_QUERY, () => ({ login: ORG, id: ruleIdOf({ kind: 'org', login: OTHER_ORG }) }), () => ({ login: ORG, id: MISSING_RULE })],
    ['a private repository\'s auto-triage rule in a public one', REPO_RULE_QUERY, () => ({ ...REPO.public, id: ruleIdOf({ kind: 'repo', ...REPO.private }) }), () => ({ ...REPO.public, id: MISSING_RULE })],
    ['another organization\'s auto-triage rule deleted through ours', DELETE_RULE, () => ({ input: { owner: ORG, ruleId: ruleIdOf({ kind: 'org', login: OTHER_ORG }) } }), () => ({ input: { owner: ORG, ruleId: MISSING_RULE } })],
    ['another organization\'s hook in ours', 'query($login: String!, $id: Int!) { organization(login: $login) { webhook(id: $id) { id } } }',
      () => ({ login: ORG, id: hookIdOf({ kind: 'org', login: OTHER_ORG }) }), () => ({ login: ORG, id: MISSING_RULE })],
    ['another organization\'s hook deleted through ours', 'mutation($input: WebhookRefInput!) { deleteWebhook(input: $input) { __typename } }',
      () => ({ input: { owner: ORG, hookId: hookIdOf({ kind: 'org', login: OTHER_ORG }) } }), () => ({ input: { owner: ORG, hookId: MISSING_RULE } })],
    // A forged global id: the other organization's role, scoped to ours.
    ['a node id naming another organization\'s role as ours', NODE, () => ({ id: encodeNodeId('OrganizationRole', foreignRoleId, orgDatabaseId) }), () => ({ id: encodeNodeId('OrganizationRole', MISSING_ROLE, orgDatabaseId) })],
  ];

  it.each(GQL_CASES)('GraphQL: %s never resolves; it answers as a missing id and changes nothing', async (_what, query, foreign, missing) => {
    const before = await hashTables(t.db.knex);
    const got = await gql(OWNER, query, foreign());
    expect(got).toEqual(await gql(OWNER, query, missing()));
    expect(got.body.errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual(['NOT_FOUND']);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });
});

describe('conditional requests', () => {
  const READS = SECURITY_OPERATIONS.filter((op) => op.method === 'get');
  const rowsOf = (reads: typeof READS) => reads.flatMap((op) => TARGETS[ownedTargetKind(op.name)].slice(0, -1).map(({ label, target }) => ({ op, label, target })));
  const ROWS = rowsOf(READS.filter((op) => !OPERATIONS[op.name].streamed));
  // A streamed document (catalogue `streamed`: VEX) carries no ETag.
  const STREAMED_ROWS = rowsOf(READS.filter((op) => OPERATIONS[op.name].streamed));

  it.each(STREAMED_ROWS.map((row) => [`#${OPERATIONS[row.op.name].number} on ${row.label}`, row] as const))(
    '%s: a streamed document has no ETag, never answers 304, and varies on Authorization',
    async (_title, { op, target }) => {
      const problems: object[] = [];
      await Promise.all(CALLERS.map(async (caller) => {
        const expected = oracle.expect(caller, op.name, target, 200).status;
        const conditional = await rest(caller, 'get', op.path(target, caller)).set('If-None-Match', '*');
        const vary = (conditional.headers.vary ?? '').split(/,\s*/).map((v: string) => v.toLowerCase());
        if (conditional.status !== expected || (expected === 200 && conditional.headers.etag !== undefined) || !vary.includes('authorization')) {
          problems.push({ caller: caller.name, status: conditional.status, expected, etag: conditional.headers.etag, vary: conditional.headers.vary });
        }
      }));
      expect(problems).toEqual([]);
    },
  );

  it.each(ROWS.map((row) => [`#${OPERATIONS[row.op.name].number} on ${row.label}`, row] as const))(
    '%s: an ETag seen by one caller never yields a 304 to another who may not see the same thing, and every answer varies on Authorization',
    async (_title, { op, target }) => {
      const seer = CALLERS.find((c) => oracle.expect(c, op.name, target, 200).status === 200 && c.token !== undefined)!;
      const seen = await rest(seer, 'get', op.path(target, seer));
      expect(seen.status).toBe(200);
      const etag: string = seen.headers.etag ?? '';
      expect(etag).toMatch(/^W\/"/);
      const problems: object[] = [];
      for (let i = 0; i < CALLERS.length; i += 10) {
        await Promise.all(CALLERS.slice(i, i + 10).map(async (caller) => {
          const expected = oracle.expect(caller, op.name, target, 200).status;
          // A 304 only for a caller whose own answer carries the same ETag, which then names the very same bytes.
          // Asked before and after: an answer that tells the time (an SBOM of no snapshot) may change in between.
          const ownBefore = expected === 200 ? await rest(caller, 'get', op.path(target, caller)) : undefined;
          const conditional = await rest(caller, 'get', op.path(target, caller)).set('If-None-Match', etag);
          const ownAfter = expected === 200 ? await rest(caller, 'get', op.path(target, caller)) : undefined;
          const wants = new Set([ownBefore, ownAfter].map((own) => (own && own.headers.etag === etag ? 304 : expected)));
          for (const own of [ownBefore, ownAfter]) {
            if (own && own.headers.etag === etag && own.text !== seen.text) problems.push({ caller: caller.name, sameEtagOtherBytes: true });
          }
          const vary = (conditional.headers.vary ?? '').split(/,\s*/).map((v: string) => v.toLowerCase());
          const want = [...wants].join(' or ');
          if (!wants.has(conditional.status) || !vary.includes('authorization') || !vary.includes('accept')) {
            problems.push({ caller: caller.name, status: conditional.status, want, vary: conditional.headers.vary });
          }
        }));
      }
      expect(problems).toEqual([]);
    },
  );
});

describe('mass assignment', () => {
  // Keys no body may set: read-only fields of the resources, and prototype keys.
  const FORBIDDEN: Array<[string, unknown]> = [
    ['number', 7], ['dismissed_by', { login: 'owner' }], ['fixed_at', '2026-03-01T00:00:00Z'], ['repository', `${ORG}/${REPO.other.name}`],
    ['constructor', { prototype: { isAdmin: true } }], ['__proto__', { isAdmin: true }],
  ];
  const WRITES = SECURITY_OPERATIONS.filter((op) => op.body !== undefined);
  // spec §4.2: #12 and #15 list 400 for invalid input; every other operation 422 (README "API conventions").
  const invalidStatus = (name: string) => (name === 'createEnterpriseOidcInclusion' || name === 'createOrgOidcInclusion' ? 400 : 422);
  // An SBOM upload's body is a CycloneDX or SPDX document: its problems are named by JSON pointer.
  const fieldOf = (name: string, key: string) => (name === 'uploadSbom' ? `/${key}` : key);
  const writable = (op: (typeof WRITES)[number]) => TARGETS[ownedTargetKind(op.name)].find(({ target }) => oracle.expect(OWNER, op.name, target, op.success).status < 300)!.target;

  const ROWS = WRITES.flatMap((op) => FORBIDDEN.map(([key, value]) => [`#${OPERATIONS[op.name].number} ${op.method.toUpperCase()} with "${key}"`, op, key, value] as const));

  it.each(ROWS)('REST %s is refused with the documented error naming the key, and changes nothing', async (_title, op, key, value) => {
    const valid = op.body!(OWNER);
    // Raw JSON: a "__proto__" key must arrive as a key, as a hostile client would send it.
    const raw = `${JSON.stringify(valid).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(value)}}`;
    const before = await hashTables(t.db.knex);
    const res = await rest(OWNER, op.method, op.path(writable(op), OWNER), raw);
    const status = invalidStatus(op.name);
    expect(res.status).toBe(status);
    expect(Object.keys(res.body).sort()).toEqual(status === 422 ? ['documentation_url', 'errors', 'message', 'status'] : ['documentation_url', 'message', 'status']);
    expect(res.body.status).toBe(String(status));
    expect(res.body.message).toContain(key);
    if (status === 422) expect(res.body.errors).toContainEqual(expect.objectContaining({ field: fieldOf(op.name, key), code: 'invalid', resource: expect.any(String) }));
    expect(await hashTables(t.db.knex)).toEqual(before);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('REST: a valid body is accepted as a control (the keys above are the only difference)', async () => {
    const op = WRITES.find((w) => w.name === 'createOrgOidcInclusion')!;
    const res = await rest(OWNER, op.method, op.path(writable(op), OWNER), JSON.stringify({ custom_property_name: addProperty(OWNER) }));
    expect(res.status).toBe(201);
  });

  const INPUTS: Array<[string, string, Record<string, unknown>]> = [
    ['updateDependencyAlert', 'UpdateDependencyAlertInput', { owner: ORG, repository: REPO.private.name, number: 1, assignees: [] }],
    ['createAttestation', 'CreateAttestationInput', { owner: ORG, repository: REPO.private.name, bundle: {} }],
    ['addEnterpriseOidcPropertyInclusion', 'EnterpriseInclusionInput', { enterprise: world.enterprises[0]!.slug, customPropertyName: addProperty(callerByKey('ent_owner')) }],
    ['addOrganizationOidcPropertyInclusion', 'OrganizationInclusionInput', { organization: ORG, customPropertyName: addProperty(callerByKey('ci_admin')) }],
    ['setOrganizationOidcSubjectClaimTemplate', 'SetOrganizationSubjectClaimTemplateInput', { organization: ORG, includeClaimKeys: ['repo'] }],
    ['setRepositoryOidcSubjectClaimTemplate', 'SetRepositorySubjectClaimTemplateInput', { owner: ORG, repository: REPO.private.name, useDefault: false }],
    ['assignOrganizationRoleToTeam', 'TeamRoleInput', { organization: ORG, team: SCRATCH_TEAM, roleId: 8133 }],
    ['assignOrganizationRoleToUser', 'UserRoleInput', { organization: ORG, user: NEWCOMER, roleId: 8133 }],
  ];
  const GQL_KEYS = ['number', 'repository', 'dismissedBy', 'dismissed_by', 'fixedAt', 'fixed_at', 'id', 'constructor', '__proto__'];
  const GQL_ROWS = INPUTS.flatMap(([name, type, input]) => GQL_KEYS.filter((key) => !(key in input)).map((key) => [`${name} with "${key}"`, name, type, input, key] as const));

  it.each(GQL_ROWS)('GraphQL %s is refused as bad input naming the key, and changes nothing', async (_title, name, type, input, key) => {
    const variables = `{"input":${JSON.stringify(input).slice(0, -1)},${JSON.stringify(key)}:{"isAdmin":true}}}`;
    const before = await hashTables(t.db.knex);
    const res = await t.http().post('/graphql').set('Content-Type', 'application/json').set('Authorization', OWNER.header!)
      .send(`{"query":${JSON.stringify(`mutation($input: ${type}!) { ${name}(input: $input) { __typename } }`)},"variables":${variables}}`);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: expect.stringContaining(`"${key}"`), extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }) })]);
    expect(res.body.data?.[name] ?? null).toBeNull();
    expect(await hashTables(t.db.knex)).toEqual(before);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });
});
