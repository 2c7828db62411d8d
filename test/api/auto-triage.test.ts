import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { hashTables } from '../helpers/table-hash';
import { ORG, PRIVATE, PUBLIC, SOLO, T, autoTriageWorld } from '../helpers/auto-triage-world';

// Interfaces.md Part 2 "Auto-triage rules": rules and presets at organization and repository
// level, through real HTTP: CRUD, every refusal naming its field with nothing stored, the limits,
// who may call, and the world-file keys.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(autoTriageWorld());
});
afterAll(() => t.close());

const as = (token: string) => bearer(token);
const orgRules = `/orgs/${ORG}/dependency-bot/rules`;
const repoRules = (repo: string) => `/repos/${repo}/dependency-bot/rules`;
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;

async function createRule(path: string, body: object, token: string = T.owner) {
  return t.http().post(path).set(as(token)).send(body);
}

/** Sends a request that must be refused with `status`, and checks that no table changed. */
async function expectRefusedUnchanged(send: () => PromiseLike<{ status: number; body: any }>, status: number) {
  const before = await hashTables(t.db.knex);
  const res = await send();
  expect(res.status).toBe(status);
  expect(await hashTables(t.db.knex)).toEqual(before);
  return res.body;
}

describe('organization rules', () => {
  it('creates, reads, lists, updates and deletes a rule', async () => {
    const created = await createRule(orgRules, { name: 'Low dev npm', enforcement: 'enforced', conditions: { severity: ['low'], scope: ['development'], ecosystem: ['npm'] }, action: 'dismiss' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number), name: 'Low dev npm', enforcement: 'enforced', conditions: { severity: ['low'], scope: ['development'], ecosystem: ['npm'] },
      action: 'dismiss', created_at: expect.stringMatching(TIME), updated_at: expect.stringMatching(TIME),
    });
    const id = created.body.id;
    expect((await t.http().get(`${orgRules}/${id}`).set(as(T.owner))).body).toEqual(created.body);
    expect((await t.http().get(orgRules).set(as(T.owner))).body).toContainEqual(created.body);

    const updated = await t.http().patch(`${orgRules}/${id}`).set(as(T.owner)).send({ enforcement: 'disabled', conditions: { cwe: ['CWE-400'], has_patch: false } });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id, name: 'Low dev npm', enforcement: 'disabled', conditions: { cwe: ['CWE-400'], has_patch: false }, action: 'dismiss' });

    expect((await t.http().delete(`${orgRules}/${id}`).set(as(T.owner))).status).toBe(204);
    expect((await t.http().get(`${orgRules}/${id}`).set(as(T.owner))).status).toBe(404);
    expect((await t.http().delete(`${orgRules}/${id}`).set(as(T.owner))).status).toBe(404);
  });

  it('defaults enforcement to enabled and action to dismiss, and keeps every condition kind', async () => {
    const conditions = {
      severity: ['high', 'critical'], scope: ['runtime'], ecosystem: ['pip', 'maven'], package: ['django'], cwe: ['CWE-79'],
      svcsa_id: ['GHSA-jfh8-c2jp-5v3q'], cve_id: ['CVE-2026-12345'], has_patch: true,
    };
    const res = await createRule(orgRules, { name: 'Everything', conditions });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ enforcement: 'enabled', action: 'dismiss', conditions });
    await t.http().delete(`${orgRules}/${res.body.id}`).set(as(T.owner));
  });

  it('answers through the original\'s segment `dependabot` as through `dependency-bot`', async () => {
    const created = await createRule(`/orgs/${ORG}/dependabot/rules`, { name: 'Via alias', conditions: { severity: ['low'] } });
    expect(created.status).toBe(201);
    const read = await t.http().get(`/orgs/${ORG}/dependabot/rules/${created.body.id}`).set(as(T.owner));
    expect(read.body).toEqual(created.body);
    expect((await t.http().delete(`${orgRules}/${created.body.id}`).set(as(T.owner))).status).toBe(204);
  });

  it('answers 404 for a rule of a repository or another organization, as for a missing one', async () => {
    const repoRule = await createRule(repoRules(PRIVATE), { name: 'Repository only', conditions: { severity: ['low'] } });
    const missing = await t.http().get(`${orgRules}/999999`).set(as(T.owner));
    const foreign = await t.http().get(`${orgRules}/${repoRule.body.id}`).set(as(T.owner));
    expect([foreign.status, foreign.body]).toEqual([missing.status, missing.body]);
    expect(missing.status).toBe(404);
    const elsewhere = await createRule('/orgs/at-elsewhere/dependency-bot/rules', { name: 'Theirs', conditions: { severity: ['low'] } }, T.outsider);
    expect(elsewhere.status).toBe(201);
    expect((await t.http().patch(`${orgRules}/${elsewhere.body.id}`).set(as(T.owner)).send({ name: 'Ours now' })).status).toBe(404);
    expect((await t.http().delete(`${orgRules}/${elsewhere.body.id}`).set(as(T.owner))).status).toBe(404);
    await t.http().delete(`${repoRules(PRIVATE)}/${repoRule.body.id}`).set(as(T.owner));
  });
});

describe('refusals name the field and store nothing', () => {
  const REFUSED: Array<[string, object, string]> = [
    ['no name', { conditions: { severity: ['low'] } }, 'name'],
    ['an empty name', { name: '', conditions: { severity: ['low'] } }, 'name'],
    ['a name over 100 characters', { name: 'x'.repeat(101), conditions: { severity: ['low'] } }, 'name'],
    ['no conditions', { name: 'n' }, 'conditions'],
    ['empty conditions', { name: 'n', conditions: {} }, 'conditions'],
    ['an unknown severity', { name: 'n', conditions: { severity: ['urgent'] } }, 'conditions.severity.0'],
    ['an unknown scope', { name: 'n', conditions: { scope: ['test'] } }, 'conditions.scope.0'],
    ['an unknown ecosystem', { name: 'n', conditions: { ecosystem: ['cocoapods'] } }, 'conditions.ecosystem.0'],
    ['an empty condition list', { name: 'n', conditions: { package: [] } }, 'conditions.package'],
    ['a CWE not written CWE-<n>', { name: 'n', conditions: { cwe: ['400'] } }, 'conditions.cwe.0'],
    ['a bad CVE id', { name: 'n', conditions: { cve_id: ['CVE-26-1'] } }, 'conditions.cve_id.0'],
    ['has_patch not a boolean', { name: 'n', conditions: { has_patch: 'yes' } }, 'conditions.has_patch'],
    ['an unknown condition', { name: 'n', conditions: { license: ['MIT'] } }, 'conditions.license'],
    ['a manifest condition on an organization rule', { name: 'n', conditions: { manifest: ['package-lock.json'] } }, 'conditions.manifest'],
    ['an unknown enforcement', { name: 'n', enforcement: 'always', conditions: { severity: ['low'] } }, 'enforcement'],
    ['an unknown action', { name: 'n', action: 'delete', conditions: { severity: ['low'] } }, 'action'],
    ['an unknown key', { name: 'n', conditions: { severity: ['low'] }, id: 5 }, 'id'],
  ];

  it.each(REFUSED)('an organization rule with %s: 422 naming %s', async (_what, body, field) => {
    const answer = await expectRefusedUnchanged(() => createRule(orgRules, body), 422);
    expect(answer.errors.map((e: { field: string }) => e.field)).toContain(field);
  });

  it('a repository rule may not be enforced (422 naming enforcement)', async () => {
    const answer = await expectRefusedUnchanged(() => createRule(repoRules(PRIVATE), { name: 'n', enforcement: 'enforced', conditions: { severity: ['low'] } }), 422);
    expect(answer.errors.map((e: { field: string }) => e.field)).toEqual(['enforcement']);
  });

  it('a PATCH is checked the same way, and changes nothing when refused', async () => {
    const rule = await createRule(orgRules, { name: 'Patch me', conditions: { severity: ['low'] } });
    for (const [body, field] of [[{ conditions: {} }, 'conditions'], [{ name: null }, 'name'], [{ created_at: '2026-01-01T00:00:00Z' }, 'created_at']] as const) {
      const answer = await expectRefusedUnchanged(() => t.http().patch(`${orgRules}/${rule.body.id}`).set(as(T.owner)).send(body), 422);
      expect(answer.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    await t.http().delete(`${orgRules}/${rule.body.id}`).set(as(T.owner));
  });

  it('a rule id that is not a positive integer: 422 naming rule_id', async () => {
    const answer = await expectRefusedUnchanged(() => t.http().get(`${orgRules}/1e3`).set(as(T.owner)), 422);
    expect(answer.errors.map((e: { field: string }) => e.field)).toEqual(['rule_id']);
  });

  it('presets must be true, false or null, and nothing else', async () => {
    for (const [body, field] of [[{ low_impact_development: 'yes' }, 'low_impact_development'], [{}, 'low_impact_development'], [{ low_impact_development: true, other: 1 }, 'other']] as const) {
      const answer = await expectRefusedUnchanged(() => t.http().put(`/orgs/${ORG}/dependency-bot/presets`).set(as(T.owner)).send(body), 422);
      expect(answer.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
  });
});

describe('repository rules', () => {
  it('take a manifest condition and list only the repository\'s own rules', async () => {
    const res = await createRule(repoRules(PUBLIC), { name: 'Fixtures', enforcement: 'disabled', conditions: { manifest: ['test/package-lock.json'] }, action: 'dismiss_until_patch' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ enforcement: 'disabled', conditions: { manifest: ['test/package-lock.json'] }, action: 'dismiss_until_patch' });
    expect((await t.http().get(repoRules(PUBLIC)).set(as(T.owner))).body).toEqual([res.body]);
    expect((await t.http().get(`${repoRules(PRIVATE)}/${res.body.id}`).set(as(T.owner))).status).toBe(404);
    expect((await t.http().delete(`${repoRules(PUBLIC)}/${res.body.id}`).set(as(T.owner))).status).toBe(204);
  });
});

describe('limits', () => {
  it('holds 10 rules per repository: the 11th is refused with 422 and nothing stored', async () => {
    const repo = 'at-org/at-limits';
    await t.load({ repositories: [{ owner: ORG, name: 'at-limits', private: true }] });
    for (let i = 0; i < 10; i++) expect((await createRule(repoRules(repo), { name: `r${i}`, conditions: { severity: ['low'] } })).status).toBe(201);
    const answer = await expectRefusedUnchanged(() => createRule(repoRules(repo), { name: 'one more', conditions: { severity: ['low'] } }), 422);
    expect(answer.message).toMatch(/at most 10/);
  });

  it('holds 25 rules per organization, also for creates sent at once', async () => {
    await t.load({ organizations: [{ login: 'at-limit-org', owners: ['at-owner'] }] });
    const path = '/orgs/at-limit-org/dependency-bot/rules';
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => createRule(path, { name: `r${i}`, conditions: { severity: ['low'] } })));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(25);
    expect(answers.filter((a) => a.status === 422)).toHaveLength(5);
    expect((await t.http().get(path).set(as(T.owner))).body).toHaveLength(25);
  });
});

describe('presets', () => {
  it('are null until set, then answer what was set, at both levels', async () => {
    expect((await t.http().get(`/orgs/${ORG}/dependency-bot/presets`).set(as(T.owner))).body).toEqual({ low_impact_development: null });
    const set = await t.http().put(`/orgs/${ORG}/dependency-bot/presets`).set(as(T.owner)).send({ low_impact_development: false });
    expect([set.status, set.body]).toEqual([200, { low_impact_development: false }]);
    expect((await t.http().get(`/orgs/${ORG}/dependency-bot/presets`).set(as(T.owner))).body).toEqual({ low_impact_development: false });
    const repo = await t.http().put(`/repos/${PRIVATE}/dependabot/presets`).set(as(T.owner)).send({ low_impact_development: true });
    expect([repo.status, repo.body]).toEqual([200, { low_impact_development: true }]);
    expect((await t.http().get(`/repos/${PRIVATE}/dependency-bot/presets`).set(as(T.owner))).body).toEqual({ low_impact_development: true });
    await t.http().put(`/repos/${PRIVATE}/dependency-bot/presets`).set(as(T.owner)).send({ low_impact_development: null });
    expect((await t.http().get(`/repos/${PRIVATE}/dependency-bot/presets`).set(as(T.owner))).body).toEqual({ low_impact_development: null });
  });
});

describe('who may call', () => {
  const body = { name: 'Access', conditions: { severity: ['low'] } };
  const cases: Array<[string, string, 'org' | 'private' | 'solo', number]> = [
    ['an organization owner with security_events', T.owner, 'org', 201],
    ['a security manager', T.securityManager, 'org', 201],
    ['a member without the role', T.member, 'org', 403],
    ['an owner whose token has only read:org', T.readOrgOnly, 'org', 403],
    ['a fine-grained token with dependency_alerts read', T.fineRead, 'org', 403],
    ['a fine-grained token with dependency_alerts write', T.fineWrite, 'org', 201],
    ['an installation with dependency_alerts write', T.installation, 'org', 201],
    ['a repository admin', T.repoAdmin, 'private', 201],
    ['a security manager', T.securityManager, 'private', 201],
    ['a writer of the repository', T.writer, 'private', 403],
    ['a member who cannot see the private repository', T.member, 'private', 404],
    ['an outsider', T.outsider, 'private', 404],
    ['the owner of a user-owned repository', T.solo, 'solo', 201],
    ['an organization owner on a user-owned repository', T.owner, 'solo', 404],
  ];
  const pathOf = (where: 'org' | 'private' | 'solo') => (where === 'org' ? orgRules : repoRules(where === 'private' ? PRIVATE : SOLO));

  it.each(cases)('%s on %s: %s', async (_who, token, where, status) => {
    if (status !== 201) {
      await expectRefusedUnchanged(() => createRule(pathOf(where), body, token), status);
      return;
    }
    const res = await createRule(pathOf(where), body, token);
    expect(res.status).toBe(201);
    expect((await t.http().delete(`${pathOf(where)}/${res.body.id}`).set(as(token))).status).toBe(204);
  });

  it('lets a read-only fine-grained token read rules and presets', async () => {
    expect((await t.http().get(orgRules).set(as(T.fineRead))).status).toBe(200);
    expect((await t.http().get(`/repos/${PRIVATE}/dependency-bot/presets`).set(as(T.fineRead))).status).toBe(200);
  });

  it('asks for a token: 401 without one, even on a public repository', async () => {
    expect((await t.http().get(repoRules(PUBLIC))).status).toBe(401);
  });
});

describe('world files', () => {
  it('load dependency_bot_rules and dependency_bot_presets, and loading again changes nothing', async () => {
    const world = {
      repositories: [{ owner: ORG, name: 'at-world', private: false }],
      organizations: [{ login: 'at-world-org', owners: ['at-owner'] }],
      dependency_bot_rules: [
        { org: 'at-world-org', name: 'Org rule', enforcement: 'enforced', conditions: { severity: ['low'] } },
        { repository: `${ORG}/at-world`, name: 'Repo rule', conditions: { manifest: ['a/package.json'] }, action: 'dismiss_until_patch' },
      ],
      dependency_bot_presets: [{ org: 'at-world-org', low_impact_development: false }, { repository: `${ORG}/at-world`, low_impact_development: true }],
    };
    await t.load(world);
    const before = await hashTables(t.db.knex);
    await t.load(world);
    const after = await hashTables(t.db.knex);
    expect([after.dependency_bot_rules, after.dependency_bot_presets]).toEqual([before.dependency_bot_rules, before.dependency_bot_presets]);
    expect((await t.http().get('/orgs/at-world-org/dependency-bot/rules').set(as(T.owner))).body).toEqual([
      expect.objectContaining({ name: 'Org rule', enforcement: 'enforced', conditions: { severity: ['low'] }, action: 'dismiss' }),
    ]);
    expect((await t.http().get(repoRules(`${ORG}/at-world`)).set(as(T.owner))).body).toEqual([
      expect.objectContaining({ name: 'Repo rule', enforcement: 'enabled', conditions: { manifest: ['a/package.json'] }, action: 'dismiss_until_patch' }),
    ]);
    expect((await t.http().get('/orgs/at-world-org/dependency-bot/presets').set(as(T.owner))).body).toEqual({ low_impact_development: false });
    expect((await t.http().get(`/repos/${ORG}/at-world/dependency-bot/presets`).set(as(T.owner))).body).toEqual({ low_impact_development: true });
  });

  it.each([
    ['no owner', { dependency_bot_rules: [{ name: 'n', conditions: { severity: ['low'] } }] }, /dependency_bot_rules\[0\].*exactly one of "org" and "repository"/s],
    ['an organization rule with a manifest', { dependency_bot_rules: [{ org: ORG, name: 'n', conditions: { manifest: ['x'] } }] }, /dependency_bot_rules\[0\]\.conditions\.manifest/],
    ['an enforced repository rule', { dependency_bot_rules: [{ repository: PRIVATE, name: 'n', enforcement: 'enforced', conditions: { severity: ['low'] } }] }, /dependency_bot_rules\[0\]\.enforcement/],
    ['a missing repository', { dependency_bot_rules: [{ repository: `${ORG}/nowhere`, name: 'n', conditions: { severity: ['low'] } }] }, /dependency_bot_rules\[0\].*does not exist/],
    ['a preset of both levels', { dependency_bot_presets: [{ org: ORG, repository: PRIVATE, low_impact_development: true }] }, /dependency_bot_presets\[0\]/],
    ['more rules than a repository may have', { dependency_bot_rules: Array.from({ length: 11 }, (_, i) => ({ repository: SOLO, name: `w${i}`, conditions: { severity: ['low'] } })) }, /dependency_bot_rules\[10\].*more than 10/],
  ])('refuse %s with a message naming the entry, loading nothing', async (_what, world, message) => {
    const before = await hashTables(t.db.knex);
    await expect(t.load(world)).rejects.toThrow(message);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });
});
