import { gql } from '../helpers/graphql';
import { hashTables } from '../helpers/table-hash';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ORG, PRIVATE, T, autoTriageWorld } from '../helpers/auto-triage-world';

// GraphQL's door to auto-triage: rules and presets on Organization and Repository, and the
// mutations, over the same service and checks as REST.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(autoTriageWorld());
});
afterAll(() => t.close());

const [OWNER, NAME] = PRIVATE.split('/') as [string, string];
const RULE_FIELDS = 'id name enforcement action createdAt updatedAt conditions { severity scope ecosystem package cwe svcsaId cveId manifest hasPatch }';
const CREATE = `mutation($input: CreateDependencyBotRuleInput!) { createDependencyBotRule(input: $input) { rule { ${RULE_FIELDS} } } }`;
const UPDATE = `mutation($input: UpdateDependencyBotRuleInput!) { updateDependencyBotRule(input: $input) { rule { ${RULE_FIELDS} } } }`;
const DELETE = 'mutation($input: DeleteDependencyBotRuleInput!) { deleteDependencyBotRule(input: $input) { deletedRuleId } }';
const PRESETS = 'mutation($input: SetDependencyBotPresetsInput!) { setDependencyBotPresets(input: $input) { presets { lowImpactDevelopment } } }';
const READ = `query($org: String!, $owner: String!, $name: String!) {
  organization(login: $org) { rules { ${RULE_FIELDS} } presets { lowImpactDevelopment } }
  repository(owner: $owner, name: $name) { rules { ${RULE_FIELDS} } presets { lowImpactDevelopment } } }`;

const read = (token: string = T.owner) => gql(t, READ, { token, variables: { org: ORG, owner: OWNER, name: NAME } });

describe('rules and presets through GraphQL', () => {
  it('creates, reads, updates and deletes an organization rule and a repository rule', async () => {
    const org = await gql(t, CREATE, { token: T.owner, variables: { input: { owner: ORG, name: 'Org', enforcement: 'enforced', conditions: { severity: ['low'], cveId: ['CVE-2026-0001'] } } } });
    expect(org.errors).toBeUndefined();
    const orgRule = org.data.createDependencyBotRule.rule;
    expect(orgRule).toEqual({
      id: expect.any(Number), name: 'Org', enforcement: 'enforced', action: 'dismiss', createdAt: expect.any(String), updatedAt: expect.any(String),
      conditions: { severity: ['low'], scope: null, ecosystem: null, package: null, cwe: null, svcsaId: null, cveId: ['CVE-2026-0001'], manifest: null, hasPatch: null },
    });
    const repo = await gql(t, CREATE, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, name: 'Repo', conditions: { manifest: ['a/package.json'], hasPatch: false }, action: 'dismiss_until_patch' } } });
    expect(repo.errors).toBeUndefined();
    const repoRule = repo.data.createDependencyBotRule.rule;

    const listed = await read();
    expect(listed.errors).toBeUndefined();
    expect(listed.data.organization.rules).toEqual([orgRule]);
    expect(listed.data.repository.rules).toEqual([repoRule]);
    // The same rules REST lists.
    const rest = await t.http().get(`/orgs/${ORG}/dependency-bot/rules`).set('Authorization', `Bearer ${T.owner}`);
    expect(rest.body.map((r: { id: number }) => r.id)).toEqual([orgRule.id]);

    const updated = await gql(t, UPDATE, { token: T.owner, variables: { input: { owner: ORG, ruleId: orgRule.id, enforcement: 'disabled', conditions: { svcsaId: ['GHSA-1'] } } } });
    expect(updated.errors).toBeUndefined();
    expect(updated.data.updateDependencyBotRule.rule).toMatchObject({ id: orgRule.id, enforcement: 'disabled', conditions: { svcsaId: ['GHSA-1'], severity: null } });

    const deleted = await gql(t, DELETE, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, ruleId: repoRule.id } } });
    expect(deleted.data.deleteDependencyBotRule).toEqual({ deletedRuleId: repoRule.id });
    const again = await gql(t, DELETE, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, ruleId: repoRule.id } } });
    expect(again.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    await gql(t, DELETE, { token: T.owner, variables: { input: { owner: ORG, ruleId: orgRule.id } } });
  });

  it('sets presets at both levels, null as the default', async () => {
    const org = await gql(t, PRESETS, { token: T.owner, variables: { input: { owner: ORG, lowImpactDevelopment: false } } });
    expect(org.data.setDependencyBotPresets).toEqual({ presets: { lowImpactDevelopment: false } });
    const repo = await gql(t, PRESETS, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, lowImpactDevelopment: true } } });
    expect(repo.data.setDependencyBotPresets).toEqual({ presets: { lowImpactDevelopment: true } });
    const listed = await read();
    expect([listed.data.organization.presets, listed.data.repository.presets]).toEqual([{ lowImpactDevelopment: false }, { lowImpactDevelopment: true }]);
    await gql(t, PRESETS, { token: T.owner, variables: { input: { owner: OWNER, repository: NAME, lowImpactDevelopment: null } } });
    expect((await read()).data.repository.presets).toEqual({ lowImpactDevelopment: null });
  });

  it.each([
    ['no condition', { owner: ORG, name: 'n', conditions: {} }, 'conditions'],
    ['a bad CWE', { owner: ORG, name: 'n', conditions: { cwe: ['79'] } }, 'conditions.cwe.0'],
    ['a manifest on an organization rule', { owner: ORG, name: 'n', conditions: { manifest: ['x'] } }, 'conditions.manifest'],
    ['an enforced repository rule', { owner: OWNER, repository: NAME, name: 'n', enforcement: 'enforced', conditions: { severity: ['low'] } }, 'enforcement'],
    ['an unknown svcsaId shape', { owner: ORG, name: 'n', conditions: { svcsaId: [''] } }, 'conditions.svcsaId.0'],
  ])('refuses %s naming the field as GraphQL writes it, storing nothing', async (_what, input, field) => {
    const before = await hashTables(t.db.knex);
    const res = await gql(t, CREATE, { token: T.owner, variables: { input } });
    expect(res.data?.createDependencyBotRule ?? null).toBeNull();
    expect(res.errors?.[0]?.extensions.code).toBe('BAD_USER_INPUT');
    expect(res.errors?.[0]?.message).toContain(field);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('answers callers as REST does: FORBIDDEN to a member, NOT_FOUND to an outsider, storing nothing', async () => {
    const before = await hashTables(t.db.knex);
    const member = await gql(t, CREATE, { token: T.member, variables: { input: { owner: ORG, name: 'n', conditions: { severity: ['low'] } } } });
    expect(member.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const outsider = await gql(t, PRESETS, { token: T.outsider, variables: { input: { owner: OWNER, repository: NAME, lowImpactDevelopment: true } } });
    expect(outsider.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    expect(await hashTables(t.db.knex)).toEqual(before);
    const reading = await read(T.member);
    expect(reading.errors?.map((e) => e.extensions.code)).toContain('FORBIDDEN');
    expect(reading.data.organization.rules).toBeNull();
  });
});
