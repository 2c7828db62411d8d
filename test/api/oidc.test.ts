import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { hashTables } from '../helpers/table-hash';
import { ENTERPRISE, ORG, OTHER_ORG, PRIVATE_REPO, PUBLIC_REPO, SIBLING_ORG, T, oidcWorld } from '../helpers/oidc-world';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(oidcWorld());
});
afterAll(() => t.close());

const entInclusions = `/enterprises/${ENTERPRISE}/actions/oidc/customization/properties/repo`;
const orgInclusions = `/orgs/${ORG}/actions/oidc/customization/properties/repo`;
const orgSub = `/orgs/${ORG}/actions/oidc/customization/sub`;
const repoSub = (repo: string) => `/repos/${repo}/actions/oidc/customization/sub`;

/** Runs a request that must be refused, and checks that it changed nothing. */
async function refusedWithoutChange(send: () => Promise<{ status: number; body: Record<string, unknown> }>, status: number) {
  const before = await hashTables(t.db.knex);
  const res = await send();
  expect(res.status).toBe(status);
  expect(res.body).toEqual(expect.objectContaining({ message: expect.any(String), status: String(status), documentation_url: expect.any(String) }));
  expect(await hashTables(t.db.knex)).toEqual(before);
  return res;
}

describe('#11–#13 enterprise custom-property inclusions', () => {
  const owner = bearer(T.entOwner);

  it('lists nothing before any inclusion', async () => {
    const res = await t.http().get(entInclusions).set(owner);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it('creates an inclusion (201 with the name), lists it with inclusion_source enterprise, and deletes it (204)', async () => {
    const created = await t.http().post(entInclusions).set(owner).send({ custom_property_name: 'environment' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ custom_property_name: 'environment', inclusion_source: 'enterprise' });
    expect((await t.http().get(entInclusions).set(owner)).body).toEqual([{ custom_property_name: 'environment', inclusion_source: 'enterprise' }]);
    const deleted = await t.http().delete(`${entInclusions}/environment`).set(owner);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await t.http().get(entInclusions).set(owner)).body).toEqual([]);
  });

  it('accepts a property defined by any organization of the enterprise', async () => {
    expect((await t.http().post(entInclusions).set(owner).send({ custom_property_name: 'region' })).status).toBe(201);
    await t.http().delete(`${entInclusions}/region`).set(owner).expect(204);
  });

  it('when the inclusion exists, answers 422 "Inclusion already exists" and changes nothing', async () => {
    await t.http().post(entInclusions).set(owner).send({ custom_property_name: 'team' }).expect(201);
    const res = await refusedWithoutChange(() => t.http().post(entInclusions).set(owner).send({ custom_property_name: 'team' }), 422);
    expect(res.body.message).toBe('Inclusion already exists');
    expect(res.body.errors).toEqual([expect.objectContaining({ field: 'custom_property_name', code: 'already_exists' })]);
    await t.http().delete(`${entInclusions}/team`).set(owner).expect(204);
  });

  it.each([
    ['a property no organization of the enterprise defines', { custom_property_name: 'nowhere' }, /defines a custom property named "nowhere"/],
    ['a property only an organization outside the enterprise defines', { custom_property_name: 'secret' }, /"secret"/],
    ['an empty name', { custom_property_name: '' }, /custom_property_name/],
    ['a name with characters outside the allowed ones', { custom_property_name: 'bad name!' }, /custom_property_name/],
    ['no name', {}, /custom_property_name/],
    ['a name that is not a string', { custom_property_name: 42 }, /custom_property_name/],
    ['an unknown key', { custom_property_name: 'team', extra: true }, /extra/],
  ])('when the body gives %s, answers 400 saying which and changes nothing', async (_what, body, message) => {
    const res = await refusedWithoutChange(() => t.http().post(entInclusions).set(owner).send(body), 400);
    expect(res.body.message).toMatch(message);
  });

  it('when the body is not a JSON object, answers 400', async () => {
    const res = await t.http().post(entInclusions).set(owner).set('Content-Type', 'application/json').send('["team"]');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Body should be a JSON object');
  });

  it('when deleting an inclusion that does not exist, answers 404', async () => {
    expect((await t.http().delete(`${entInclusions}/team`).set(owner)).status).toBe(404);
  });

  it('when deleting with a malformed property name, answers 400', async () => {
    expect((await t.http().delete(`${entInclusions}/bad%20name`).set(owner)).status).toBe(400);
  });

  it('when the enterprise does not exist, answers 404', async () => {
    expect((await t.http().get('/enterprises/nope/actions/oidc/customization/properties/repo').set(owner)).status).toBe(404);
  });

  it('matches the enterprise slug case-insensitively', async () => {
    expect((await t.http().get(entInclusions.replace(ENTERPRISE, ENTERPRISE.toUpperCase())).set(owner)).status).toBe(200);
  });
});

describe('#14–#16 organization custom-property inclusions', () => {
  const owner = bearer(T.orgOwner);

  it('creates, lists as {property_name} items, and deletes', async () => {
    const created = await t.http().post(orgInclusions).set(owner).send({ custom_property_name: 'cost.center' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ custom_property_name: 'cost.center', inclusion_source: 'organization' });
    const listed = await t.http().get(orgInclusions).set(owner);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([{ property_name: 'cost.center', custom_property_name: 'cost.center', inclusion_source: 'organization' }]);
    expect((await t.http().delete(`${orgInclusions}/cost.center`).set(owner)).status).toBe(204);
    expect((await t.http().get(orgInclusions).set(owner)).body).toEqual([]);
  });

  it('when the property is not defined for the organization (even if a sibling defines it), answers 400', async () => {
    const res = await refusedWithoutChange(() => t.http().post(orgInclusions).set(owner).send({ custom_property_name: 'region' }), 400);
    expect(res.body.message).toBe(`The organization ${ORG} defines no custom property named "region".`);
  });

  it('when the inclusion exists, answers 422 "Inclusion already exists"', async () => {
    await t.http().post(orgInclusions).set(owner).send({ custom_property_name: 'team' }).expect(201);
    const res = await refusedWithoutChange(() => t.http().post(orgInclusions).set(owner).send({ custom_property_name: 'team' }), 422);
    expect(res.body.message).toBe('Inclusion already exists');
    await t.http().delete(`${orgInclusions}/team`).set(owner).expect(204);
  });

  it('when deleting an inclusion that does not exist, answers 404', async () => {
    expect((await t.http().delete(`${orgInclusions}/team`).set(owner)).status).toBe(404);
  });

  it('is allowed to a member holding ci_cd_admin, and forbidden (403) to a plain member', async () => {
    expect((await t.http().get(orgInclusions).set(bearer(T.ciAdmin))).status).toBe(200);
    expect((await t.http().get(orgInclusions).set(bearer(T.member))).status).toBe(403);
  });

  it('an inclusion goes when a world reload removes the property it names, at both levels', async () => {
    await t.load({ organizations: [{ login: SIBLING_ORG, custom_properties: [{ name: 'region' }, { name: 'zone' }] }] });
    await t.http().post(orgInclusions).set(owner).send({ custom_property_name: 'environment' }).expect(201);
    await t.http().post(`/orgs/${SIBLING_ORG}/actions/oidc/customization/properties/repo`).set(bearer(T.entOwner)).send({ custom_property_name: 'zone' }).expect(201);
    await t.http().post(entInclusions).set(bearer(T.entOwner)).send({ custom_property_name: 'zone' }).expect(201);
    await t.load({
      organizations: [
        { login: ORG, custom_properties: [{ name: 'team' }, { name: 'cost.center' }] },
        { login: SIBLING_ORG, custom_properties: [{ name: 'region' }] },
      ],
    });
    expect((await t.http().get(orgInclusions).set(owner)).body).toEqual([]);
    expect((await t.http().get(`/orgs/${SIBLING_ORG}/actions/oidc/customization/properties/repo`).set(bearer(T.entOwner))).body).toEqual([]);
    expect((await t.http().get(entInclusions).set(bearer(T.entOwner))).body).toEqual([]);
    await t.load({ organizations: [{ login: ORG, custom_properties: [{ name: 'environment' }, { name: 'team' }, { name: 'cost.center' }] }] });
  });
});

describe('#17/#18 organization subject-claim template', () => {
  const owner = bearer(T.orgOwner);

  it('before any PUT, #17 answers the default template', async () => {
    const res = await t.http().get(`/orgs/${SIBLING_ORG}/actions/oidc/customization/sub`).set(bearer(T.entOwner));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ include_claim_keys: ['repo', 'context'], use_immutable_subject: false });
  });

  it('#18 replaces it (201, empty body), keeping the order of the keys', async () => {
    const res = await t.http().put(orgSub).set(owner).send({ include_claim_keys: ['repository_owner', 'repo', 'job_workflow_ref'] });
    expect(res.status).toBe(201);
    expect(res.text).toBe('');
    expect((await t.http().get(orgSub).set(owner)).body.include_claim_keys).toEqual(['repository_owner', 'repo', 'job_workflow_ref']);
  });

  it('accepts an empty array', async () => {
    await t.http().put(orgSub).set(owner).send({ include_claim_keys: [] }).expect(201);
    expect((await t.http().get(orgSub).set(owner)).body.include_claim_keys).toEqual([]);
  });

  it('keeps use_immutable_subject when a later PUT leaves it out', async () => {
    await t.http().put(orgSub).set(owner).send({ include_claim_keys: ['repo'], use_immutable_subject: true }).expect(201);
    await t.http().put(orgSub).set(owner).send({ include_claim_keys: ['repo', 'context'] }).expect(201);
    expect((await t.http().get(orgSub).set(owner)).body).toEqual({ include_claim_keys: ['repo', 'context'], use_immutable_subject: true });
  });

  it.each([
    ['a key with a hyphen', { include_claim_keys: ['repo', 'job-workflow'] }, 'include_claim_keys.1', /"job-workflow"/],
    ['a duplicate key', { include_claim_keys: ['repo', 'context', 'repo'] }, 'include_claim_keys.2', /"repo" appears more than once/],
    ['an empty key', { include_claim_keys: [''] }, 'include_claim_keys.0', /empty/],
    ['a key that is not a string', { include_claim_keys: ['repo', 7] }, 'include_claim_keys.1', /string/],
    ['keys that are not an array', { include_claim_keys: 'repo' }, 'include_claim_keys', /array/],
    ['no keys', {}, 'include_claim_keys', /^"include_claim_keys" is required and must be an array\.$/],
    ['too many keys', { include_claim_keys: Array.from({ length: 51 }, (_, i) => `k${i}`) }, 'include_claim_keys', /at most 50/],
    ['an over-long key', { include_claim_keys: ['k'.repeat(101)] }, 'include_claim_keys.0', /longer than 100/],
    ['an unknown key', { include_claim_keys: ['repo'], use_default: true }, 'use_default', /not a permitted key/],
  ])('when the body has %s, answers 422 with an errors entry naming it, and changes nothing', async (_what, body, field, message) => {
    const res = await refusedWithoutChange(() => t.http().put(orgSub).set(owner).send(body), 422);
    const errors = res.body.errors as Array<{ field: string; message: string }>;
    const entry = errors.find((e) => e.field === field);
    expect(entry).toBeDefined();
    expect(entry!.message).toMatch(message);
  });

  it('when the organization does not exist, answers 404', async () => {
    expect((await t.http().put('/orgs/nope/actions/oidc/customization/sub').set(owner).send({ include_claim_keys: [] })).status).toBe(404);
  });

  it('when a token with write:org (and no more) sets it, is allowed; with read:org only, 403', async () => {
    expect((await t.http().put(orgSub).set(bearer(T.orgOwnerWriteOrg)).send({ include_claim_keys: ['repo', 'context'] })).status).toBe(201);
    const res = await t.http().put(orgSub).set(bearer(T.orgOwnerReadOrg)).send({ include_claim_keys: ['repo'] });
    expect(res.status).toBe(403);
    expect(res.headers['x-accepted-oauth-scopes']).toBe('write:org');
  });
});

describe('#19/#20 repository subject-claim template', () => {
  const owner = bearer(T.orgOwner);
  const get = async (repo = PRIVATE_REPO) => (await t.http().get(repoSub(repo)).set(owner)).body;

  beforeAll(async () => {
    // Names, not ids, in the subjects until a test below says otherwise.
    await t.http().put(orgSub).set(owner).send({ include_claim_keys: ['repository_owner', 'environment'], use_immutable_subject: false }).expect(201);
  });

  it('a repository never configured shows the default keys, whatever the organization\'s template', async () => {
    expect(await get(PUBLIC_REPO)).toEqual({ use_default: true, include_claim_keys: ['repo', 'context'], use_immutable_subject: false, sub_claim_prefix: `repo:${PUBLIC_REPO}` });
  });

  it('use_default false without keys opts into the organization\'s template, following its changes', async () => {
    await t.http().put(repoSub(PRIVATE_REPO)).set(owner).send({ use_default: false }).expect(201);
    expect(await get()).toEqual({ use_default: false, include_claim_keys: ['repository_owner', 'environment'], use_immutable_subject: false, sub_claim_prefix: `repo:${PRIVATE_REPO}` });
    await t.http().put(orgSub).set(owner).send({ include_claim_keys: ['repo', 'workflow'] }).expect(201);
    expect((await get()).include_claim_keys).toEqual(['repo', 'workflow']);
  });

  it('use_default false with keys gives the repository its own template', async () => {
    await t.http().put(repoSub(PRIVATE_REPO)).set(owner).send({ use_default: false, include_claim_keys: ['repo', 'ref'] }).expect(201);
    expect(await get()).toEqual({ use_default: false, include_claim_keys: ['repo', 'ref'], use_immutable_subject: false, sub_claim_prefix: `repo:${PRIVATE_REPO}` });
  });

  it('use_default true means the default keys, ignoring keys sent with it', async () => {
    const res = await t.http().put(repoSub(PRIVATE_REPO)).set(owner).send({ use_default: true, include_claim_keys: ['ignored'] });
    expect(res.status).toBe(201);
    expect(res.text).toBe('');
    expect(await get()).toEqual({ use_default: true, include_claim_keys: ['repo', 'context'], use_immutable_subject: false, sub_claim_prefix: `repo:${PRIVATE_REPO}` });
    // The ignored keys were not kept: opting in again follows the organization.
    await t.http().put(repoSub(PRIVATE_REPO)).set(owner).send({ use_default: false }).expect(201);
    expect((await get()).include_claim_keys).toEqual(['repo', 'workflow']);
  });

  it('sub_claim_prefix carries immutable ids where the repository\'s setting, or else its organization\'s, asks for them', async () => {
    const ids = async (repo: string) => {
      const [ownerLogin, name] = repo.split('/');
      const row = await t.db.knex('repositories as r').join('accounts as o', 'o.id', 'r.owner_id').where({ 'o.login': ownerLogin, 'r.name': name }).first('r.id', 'r.owner_id');
      return `repo:${ownerLogin}@${row.owner_id}/${name}@${row.id}`;
    };
    await t.http().put(orgSub).set(owner).send({ include_claim_keys: ['repo', 'workflow'], use_immutable_subject: true }).expect(201);
    try {
      // Never configured: the organization's setting.
      expect((await get(PUBLIC_REPO)).sub_claim_prefix).toBe(await ids(PUBLIC_REPO));
      // Its own template without immutable ids: its own setting.
      await t.http().put(repoSub(PRIVATE_REPO)).set(owner).send({ use_default: false, include_claim_keys: ['repo'], use_immutable_subject: false }).expect(201);
      expect(await get()).toEqual({ use_default: false, include_claim_keys: ['repo'], use_immutable_subject: false, sub_claim_prefix: `repo:${PRIVATE_REPO}` });
      // Following the organization's template: its immutability too.
      await t.http().put(repoSub(PRIVATE_REPO)).set(owner).send({ use_default: false }).expect(201);
      expect((await get()).sub_claim_prefix).toBe(await ids(PRIVATE_REPO));
    } finally {
      await t.http().put(orgSub).set(owner).send({ include_claim_keys: ['repo', 'workflow'], use_immutable_subject: false }).expect(201);
    }
  });

  it('a repository owned by a user that opts in has no organization template to follow: the default keys', async () => {
    await t.load({ tokens: [{ token: 'oidc_personal_owner', type: 'classic', user: 'member', scopes: ['repo'] }] });
    const personal = bearer('oidc_personal_owner');
    await t.http().put(repoSub('member/personal')).set(personal).send({ use_default: false }).expect(201);
    expect((await t.http().get(repoSub('member/personal')).set(personal)).body.include_claim_keys).toEqual(['repo', 'context']);
  });

  it.each([
    ['no use_default', { include_claim_keys: ['repo'] }],
    ['a use_default that is not a boolean', { use_default: 'false' }],
    ['use_default null', { use_default: null }],
  ])('#20 with %s answers 400 and changes nothing', async (_what, body) => {
    await refusedWithoutChange(() => t.http().put(repoSub(PRIVATE_REPO)).set(owner).send(body), 400);
  });

  it.each([
    ['a key with a space', { use_default: false, include_claim_keys: ['re po'] }, /"re po"/],
    ['duplicate keys', { use_default: false, include_claim_keys: ['a', 'a'] }, /"a" appears more than once/],
    ['an unknown key', { use_default: false, template: 'x' }, /template/],
  ])('#20 with %s answers 422 naming it and changes nothing', async (_what, body, message) => {
    const res = await refusedWithoutChange(() => t.http().put(repoSub(PRIVATE_REPO)).set(owner).send(body), 422);
    expect((res.body.errors as Array<{ message: string }>).map((e) => e.message).join('\n')).toMatch(message);
  });

  it('#19 on a public repository works without a token', async () => {
    const res = await t.http().get(repoSub(PUBLIC_REPO));
    expect(res.status).toBe(200);
    expect(res.body.use_default).toBe(true);
  });

  it('#19 on a private repository is 404 without a token and for an outsider, exactly like a missing one', async () => {
    const missing = await t.http().get(repoSub(`${ORG}/no-such-repo`));
    const anonymous = await t.http().get(repoSub(PRIVATE_REPO));
    const outsider = await t.http().get(repoSub(PRIVATE_REPO)).set(bearer(T.outsider));
    expect(anonymous.status).toBe(404);
    expect(outsider.status).toBe(404);
    expect(anonymous.text).toBe(missing.text);
    expect(outsider.text).toBe(missing.text);
  });

  it('#19 is allowed to a reader; #20 is forbidden to a reader (403) and allowed to a writer', async () => {
    expect((await t.http().get(repoSub(PRIVATE_REPO)).set(bearer(T.reader))).status).toBe(200);
    expect((await t.http().put(repoSub(PRIVATE_REPO)).set(bearer(T.reader)).send({ use_default: true })).status).toBe(403);
    expect((await t.http().put(repoSub(PRIVATE_REPO)).set(bearer(T.writer)).send({ use_default: true })).status).toBe(201);
  });

  it('matches owner and repository names case-insensitively and drops a .git suffix', async () => {
    expect((await t.http().get(repoSub(`${ORG.toUpperCase()}/Private-Repo.git`)).set(owner)).status).toBe(200);
  });

  it('#20 on a repository of another organization is 404 for this owner', async () => {
    expect((await t.http().put(repoSub(`${OTHER_ORG}/elsewhere`)).set(owner).send({ use_default: true })).status).toBe(404);
  });
});

describe('concurrent creates', () => {
  it('of one inclusion give exactly one 201, the others 422, and one row', async () => {
    const owner = bearer(T.orgOwner);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => t.http().post(orgInclusions).set(owner).send({ custom_property_name: 'cost.center' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
    expect(await t.db.knex('organization_oidc_property_inclusions').where({ custom_property_name: 'cost.center' })).toHaveLength(1);
    await t.http().delete(`${orgInclusions}/cost.center`).set(owner).expect(204);
  });
});
