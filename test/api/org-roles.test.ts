import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { DISABLED_ORG, ORG, OTHER_ORG, TOKENS, rolesWorld } from '../helpers/roles-world';
import { hashTables } from '../helpers/table-hash';
import { linksOf, pathOf } from '../helpers/links';

let t: TestApp;
const owner = bearer(TOKENS.ownerClassic);
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  await t.load(rolesWorld());
  for (const row of await t.db.knex('organization_roles').whereNotNull('org_id').select('id', 'name')) ids[row.name] = Number(row.id);
});
afterAll(() => t.close());

const roles = (org = ORG) => `/orgs/${org}/organization-roles`;

const ORGANIZATION_FULL_KEYS = [
  'login', 'id', 'node_id', 'url', 'repos_url', 'events_url', 'hooks_url', 'issues_url', 'members_url', 'public_members_url',
  'avatar_url', 'description', 'gravatar_id', 'html_url', 'followers_url', 'following_url', 'gists_url', 'starred_url',
  'subscriptions_url', 'organizations_url', 'received_events_url', 'type', 'site_admin',
];
const USER_KEYS = [
  'login', 'id', 'node_id', 'avatar_url', 'gravatar_id', 'url', 'html_url', 'followers_url', 'following_url', 'gists_url',
  'starred_url', 'subscriptions_url', 'organizations_url', 'repos_url', 'events_url', 'received_events_url', 'type', 'site_admin',
];
const TEAM_KEYS = [
  'id', 'node_id', 'url', 'html_url', 'name', 'slug', 'description', 'privacy', 'notification_setting', 'permission',
  'members_url', 'repositories_url', 'parent',
];

describe('#1 GET /orgs/{org}/organization-roles', () => {
  it('lists the predefined roles and the organization\'s custom roles, and no other organization\'s', async () => {
    const res = await t.http().get(roles()).set(owner);
    expect(res.status).toBe(200);
    const names = res.body.roles.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining([
      'security_manager', 'all_repo_read', 'all_repo_triage', 'all_repo_write', 'all_repo_maintain', 'all_repo_admin', 'ci_cd_admin', 'app_manager',
      'Role reader', 'Deployer',
    ]));
    expect(names).not.toContain('Foreign role');
    expect(res.body.total_count).toBe(10);
    expect(res.body.roles).toHaveLength(10);
  });

  it('gives every field of a role with its type, and the predefined ids', async () => {
    const res = await t.http().get(roles()).set(owner);
    const byName = Object.fromEntries(res.body.roles.map((r: { name: string }) => [r.name, r]));
    expect(byName.security_manager.id).toBe(138);
    expect(byName.all_repo_read.id).toBe(8132);
    expect(byName.app_manager.id).toBe(33679);
    expect(byName.ci_cd_admin.id).toBe(26237);
    const deployer = byName.Deployer;
    expect(deployer).toEqual({
      id: ids.Deployer,
      node_id: expect.any(String),
      name: 'Deployer',
      description: null,
      permissions: ['write_organization_actions_settings'],
      organization: expect.any(Object),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      updated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
      base_role: 'write',
      source: 'Organization',
    });
    expect(byName.security_manager.source).toBe('Predefined');
    expect(Object.keys(deployer.organization).sort()).toEqual([...ORGANIZATION_FULL_KEYS].sort());
    expect(deployer.organization).toMatchObject({ login: ORG, type: 'Organization', site_admin: false, description: 'roles enabled' });
  });

  it('builds URL fields from the request\'s own base URL', async () => {
    const res = await t.http().get(roles()).set(owner).set('Host', 'orgsec.example:8443');
    expect(res.body.roles[0].organization.url).toBe(`http://orgsec.example:8443/orgs/${ORG}`);
    expect(res.body.roles[0].organization.members_url).toBe(`http://orgsec.example:8443/orgs/${ORG}/members{/member}`);
  });

  it('is allowed to a member holding a role with read_organization_custom_org_role, directly or through a team', async () => {
    for (const token of [TOKENS.roleReaderClassic, TOKENS.teamRoleReaderClassic]) {
      expect((await t.http().get(roles()).set(bearer(token))).status).toBe(200);
    }
  });

  it('is forbidden (403) to a member without such a role and to an outsider', async () => {
    for (const token of [TOKENS.memberClassic, TOKENS.outsiderClassic]) {
      const res = await t.http().get(roles()).set(bearer(token));
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: expect.any(String), documentation_url: `${t.url}/docs/#/organization-roles/orgs%2Flist-org-roles`, status: '403' });
    }
  });

  it('when the organization does not exist, answers 404', async () => {
    const res = await t.http().get(roles('no-such-org')).set(owner);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: 'Not Found', documentation_url: expect.any(String), status: '404' });
  });

  it('when the token lacks admin:org, answers 403 with the scope headers', async () => {
    const res = await t.http().get(roles()).set(bearer(TOKENS.ownerWithoutScope));
    expect(res.status).toBe(403);
    expect(res.headers['x-accepted-oauth-scopes']).toBe('admin:org');
    expect(res.headers['x-oauth-scopes']).toBe('read:org, repo');
  });

  it('when a fine-grained token lacks the permission, answers 403 naming the permission it needs', async () => {
    const res = await t.http().get(roles()).set(bearer(TOKENS.ownerFineGrainedNoPermission));
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Resource not accessible by personal access token');
    expect(res.headers['x-accepted-service-permissions']).toBe('organization_custom_roles=read');
  });
});

describe('#8 GET /orgs/{org}/organization-roles/{role_id}', () => {
  it('answers a predefined role and a custom role', async () => {
    const predefined = await t.http().get(`${roles()}/138`).set(owner);
    expect(predefined.status).toBe(200);
    expect(predefined.body).toMatchObject({ id: 138, name: 'security_manager', source: 'Predefined', organization: { login: ORG } });
    const custom = await t.http().get(`${roles()}/${ids['Role reader']}`).set(owner);
    expect(custom.body).toMatchObject({ name: 'Role reader', permissions: ['read_organization_custom_org_role'] });
  });

  it('when the role belongs to another organization or does not exist, answers 404', async () => {
    expect((await t.http().get(`${roles()}/${ids['Foreign role']}`).set(owner)).status).toBe(404);
    expect((await t.http().get(`${roles()}/99999999`).set(owner)).status).toBe(404);
  });

  it.each(['abc', '1e3', '0x1', '-1', '007', '1.5', '99999999999999999999'])('when role_id is %s, answers 422 naming role_id', async (id) => {
    const res = await t.http().get(`${roles()}/${id}`).set(owner);
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ resource: 'OrganizationRole', field: 'role_id', code: 'invalid' });
  });
});

describe('#3 PUT and #4 DELETE /orgs/{org}/organization-roles/teams/{team_slug}/{role_id}', () => {
  it('assigns a role to a team (idempotently) and revokes it', async () => {
    const path = `${roles()}/teams/plain/${ids.Deployer}`;
    expect((await t.http().put(path).set(owner)).status).toBe(204);
    expect((await t.http().put(path).set(owner)).status).toBe(204);
    const rows = await t.db.knex('organization_role_teams').where({ role_id: ids.Deployer });
    expect(rows).toHaveLength(1);
    const listed = await t.http().get(`${roles()}/${ids.Deployer}/teams`).set(owner);
    expect(listed.body.map((team: { slug: string }) => team.slug)).toEqual(['plain']);
    const revoked = await t.http().delete(path).set(owner);
    expect(revoked.status).toBe(204);
    expect(revoked.text).toBe('');
    expect(await t.db.knex('organization_role_teams').where({ role_id: ids.Deployer })).toHaveLength(0);
  });

  it('revoking a role the team does not hold answers 204 and changes nothing', async () => {
    const before = await hashTables(t.db.knex);
    expect((await t.http().delete(`${roles()}/teams/plain/${ids.Deployer}`).set(owner)).status).toBe(204);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it.each([
    ['the organization', `/orgs/no-such-org/organization-roles/teams/plain/138`],
    ['the team', `/orgs/${ORG}/organization-roles/teams/no-such-team/138`],
    ['the role', `/orgs/${ORG}/organization-roles/teams/plain/424242`],
    ['the role (it belongs to another organization)', `/orgs/${ORG}/organization-roles/teams/plain/FOREIGN`],
    ['the team (it belongs to another organization)', `/orgs/${OTHER_ORG}/organization-roles/teams/plain/138`],
  ])('when %s does not exist, PUT answers 404 and changes nothing', async (_what, path) => {
    const before = await hashTables(t.db.knex);
    const token = path.includes(OTHER_ORG) ? bearer(TOKENS.otherOwnerClassic) : owner;
    const res = await t.http().put(path.replace('FOREIGN', String(ids['Foreign role']))).set(token);
    expect(res.status).toBe(404);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('when roles are not enabled for the organization, PUT answers 422 and changes nothing', async () => {
    const before = await hashTables(t.db.knex);
    const res = await t.http().put(`${roles(DISABLED_ORG)}/teams/quiet-team/138`).set(owner);
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/not enabled/);
    expect(res.body.errors).toEqual([expect.objectContaining({ resource: 'OrganizationRole', code: 'unprocessable' })]);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('DELETE of a missing team answers 404', async () => {
    expect((await t.http().delete(`${roles()}/teams/no-such-team/138`).set(owner)).status).toBe(404);
  });

  it('matches the team slug case-insensitively', async () => {
    expect((await t.http().put(`${roles()}/teams/PLAIN/${ids.Deployer}`).set(owner)).status).toBe(204);
    expect((await t.http().delete(`${roles()}/teams/Plain/${ids.Deployer}`).set(owner)).status).toBe(204);
  });
});

describe('#2 DELETE /orgs/{org}/organization-roles/teams/{team_slug}', () => {
  it('removes every role from the team and no other team\'s', async () => {
    await t.http().put(`${roles()}/teams/plain/${ids.Deployer}`).set(owner).expect(204);
    await t.http().put(`${roles()}/teams/plain/138`).set(owner).expect(204);
    const res = await t.http().delete(`${roles()}/teams/plain`).set(owner);
    expect(res.status).toBe(204);
    const plain = await t.db.knex('teams').where({ slug: 'plain' }).first('id');
    expect(await t.db.knex('organization_role_teams').where({ team_id: plain.id })).toHaveLength(0);
    expect(await t.db.knex('organization_role_teams').where({ role_id: ids['Role reader'] })).toHaveLength(1);
    await t.http().put(`${roles()}/teams/plain/8132`).set(owner).expect(204); // restore the world
  });

  it('when the team does not exist, answers 404', async () => {
    expect((await t.http().delete(`${roles()}/teams/nope`).set(owner)).status).toBe(404);
  });
});

describe('#6 PUT and #7 DELETE /orgs/{org}/organization-roles/users/{username}/{role_id}', () => {
  it('assigns a role to a member (idempotently) and revokes it', async () => {
    const path = `${roles()}/users/newcomer/${ids.Deployer}`;
    expect((await t.http().put(path).set(owner)).status).toBe(204);
    expect((await t.http().put(path).set(owner)).status).toBe(204);
    const users = await t.http().get(`${roles()}/${ids.Deployer}/users`).set(owner);
    expect(users.body.map((u: { login: string }) => u.login)).toEqual(['newcomer']);
    expect(users.body[0]).toMatchObject({ assignment: 'direct', inherited_from: [] });
    expect((await t.http().delete(path).set(owner)).status).toBe(204);
    expect((await t.http().get(`${roles()}/${ids.Deployer}/users`).set(owner)).body).toEqual([]);
  });

  it('matches the username case-insensitively', async () => {
    expect((await t.http().put(`${roles()}/users/NewComer/${ids.Deployer}`).set(owner)).status).toBe(204);
    expect((await t.http().delete(`${roles()}/users/NEWCOMER/${ids.Deployer}`).set(owner)).status).toBe(204);
  });

  it('when the user is not a member of the organization, answers 422 naming the user and changes nothing', async () => {
    const before = await hashTables(t.db.knex);
    const res = await t.http().put(`${roles()}/users/outsider/${ids.Deployer}`).set(owner);
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([expect.objectContaining({ resource: 'OrganizationRole', field: 'username', code: 'invalid' })]);
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('when roles are not enabled, answers 422', async () => {
    expect((await t.http().put(`${roles(DISABLED_ORG)}/users/member/138`).set(owner)).status).toBe(422);
  });

  it.each([
    ['the user', `/orgs/${ORG}/organization-roles/users/no-such-user/138`],
    ['the role', `/orgs/${ORG}/organization-roles/users/newcomer/424242`],
    ['the organization', `/orgs/no-such-org/organization-roles/users/newcomer/138`],
  ])('when %s does not exist, answers 404', async (_what, path) => {
    expect((await t.http().put(path).set(owner)).status).toBe(404);
    expect((await t.http().delete(path).set(owner)).status).toBe(404);
  });
});

describe('#5 DELETE /orgs/{org}/organization-roles/users/{username}', () => {
  it('revokes every role the user holds directly, and leaves roles held through teams', async () => {
    await t.http().put(`${roles()}/users/team-reader/${ids.Deployer}`).set(owner).expect(204);
    expect((await t.http().delete(`${roles()}/users/team-reader`).set(owner)).status).toBe(204);
    const user = await t.db.knex('accounts').where({ login: 'team-reader' }).first('id');
    expect(await t.db.knex('organization_role_users').where({ user_id: user.id })).toHaveLength(0);
    // Still holds "Role reader" through the readers team.
    expect((await t.http().get(roles()).set(bearer(TOKENS.teamRoleReaderClassic))).status).toBe(200);
  });

  it('when the user does not exist, answers 404', async () => {
    expect((await t.http().delete(`${roles()}/users/no-such-user`).set(owner)).status).toBe(404);
  });
});

describe('#9 GET /orgs/{org}/organization-roles/{role_id}/teams', () => {
  it('lists the assigned team (direct) and its child team (indirect), with every team field', async () => {
    const res = await t.http().get(`${roles()}/${ids['Role reader']}/teams`).set(owner);
    expect(res.status).toBe(200);
    expect(res.body.map((team: { slug: string; assignment: string }) => [team.slug, team.assignment])).toEqual([
      ['readers', 'direct'],
      ['child-readers', 'indirect'],
    ]);
    const child = res.body[1];
    expect(Object.keys(child).sort()).toEqual([...TEAM_KEYS, 'assignment'].sort());
    expect(child.parent).toMatchObject({ slug: 'readers', name: 'Readers' });
    expect(child.parent.parent).toBeUndefined();
    expect(res.body[0].parent).toBeNull();
    expect(child.html_url).toMatch(new RegExp(`/orgs/${ORG}/teams/child-readers$`));
  });

  it('shows a team that holds the role both itself and through its parent as mixed', async () => {
    await t.http().put(`${roles()}/teams/child-readers/${ids['Role reader']}`).set(owner).expect(204);
    const res = await t.http().get(`${roles()}/${ids['Role reader']}/teams`).set(owner);
    expect(res.body.find((team: { slug: string }) => team.slug === 'child-readers').assignment).toBe('mixed');
    await t.http().delete(`${roles()}/teams/child-readers/${ids['Role reader']}`).set(owner).expect(204);
  });

  it('when roles are not enabled, answers 422; when the role is missing, 404', async () => {
    expect((await t.http().get(`${roles(DISABLED_ORG)}/138/teams`).set(owner)).status).toBe(422);
    expect((await t.http().get(`${roles()}/424242/teams`).set(owner)).status).toBe(404);
  });
});

describe('#10 GET /orgs/{org}/organization-roles/{role_id}/users', () => {
  it('lists direct, indirect and mixed holders with the teams they inherit from', async () => {
    const res = await t.http().get(`${roles()}/${ids['Role reader']}/users`).set(owner);
    expect(res.status).toBe(200);
    const byLogin = Object.fromEntries(res.body.map((u: { login: string }) => [u.login, u]));
    expect(Object.keys(byLogin).sort()).toEqual(['child-reader', 'role-reader', 'team-reader']);
    expect(byLogin['role-reader']).toMatchObject({ assignment: 'direct', inherited_from: [] });
    expect(byLogin['team-reader'].assignment).toBe('indirect');
    expect(byLogin['team-reader'].inherited_from.map((team: { slug: string }) => team.slug)).toEqual(['readers']);
    // child-reader holds it directly and through the child team of "readers".
    expect(byLogin['child-reader'].assignment).toBe('mixed');
    expect(byLogin['child-reader'].inherited_from.map((team: { slug: string }) => team.slug)).toEqual(['readers']);
    expect(Object.keys(byLogin['role-reader']).sort()).toEqual([...USER_KEYS, 'assignment', 'inherited_from'].sort());
    expect(byLogin['role-reader']).toMatchObject({ type: 'User', site_admin: false, gravatar_id: '' });
  });

  it('lists holders in a stable order (by id)', async () => {
    const res = await t.http().get(`${roles()}/${ids['Role reader']}/users`).set(owner);
    const idsSeen = res.body.map((u: { id: number }) => u.id);
    expect(idsSeen).toEqual([...idsSeen].sort((a: number, b: number) => a - b));
  });
});

describe('page pagination of #9 and #10', () => {
  beforeAll(async () => {
    // Twelve members holding one role, so several pages exist.
    const logins = Array.from({ length: 12 }, (_, i) => `pager-${String(i).padStart(2, '0')}`);
    await t.load({
      users: logins.map((login) => ({ login })),
      organizations: [{ login: ORG, members: ['member', 'role-reader', 'team-reader', 'child-reader', 'newcomer', ...logins], owners: ['owner'] }],
      role_assignments: logins.map((user) => ({ org: ORG, role: 'Deployer', user })),
    });
  });

  it('follows Link rel="next" to the end, seeing every holder once', async () => {
    let next: string | undefined = `${roles()}/${ids.Deployer}/users?per_page=5`;
    const seen: string[] = [];
    let pages = 0;
    while (next) {
      const res = await t.http().get(next).set(owner);
      expect(res.status).toBe(200);
      seen.push(...res.body.map((u: { login: string }) => u.login));
      const links = linksOf(res.headers.link);
      next = links.next ? pathOf(links.next) : undefined;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(12);
    expect(new Set(seen).size).toBe(12);
  });

  it('writes Link so that Octokit\'s paginate finds rel="next" (its own pattern)', async () => {
    // The pattern @octokit/plugin-paginate-rest applies to the Link header.
    const octokitNext = /<([^<>]+)>;\s*rel="next"/;
    const res = await t.http().get(`${roles()}/${ids.Deployer}/users?per_page=5`).set(owner);
    const match = octokitNext.exec(res.headers.link ?? '');
    expect(match?.[1]).toBe(linksOf(res.headers.link).next);
    expect(res.headers.link).toMatch(/^<http:\/\/127\.0\.0\.1:\d+\/orgs\/octo-org\/organization-roles\/\d+\/users\?per_page=5&page=2>; rel="next", <[^>]+>; rel="last"$/);
  });

  it('gives first, prev, next and last where they apply, keeping other parameters', async () => {
    const res = await t.http().get(`${roles()}/${ids.Deployer}/users?per_page=5&page=2&extra=kept`).set(owner);
    const links = linksOf(res.headers.link);
    expect(Object.keys(links).sort()).toEqual(['first', 'last', 'next', 'prev']);
    expect(new URL(links.next!).searchParams.get('page')).toBe('3');
    expect(new URL(links.last!).searchParams.get('page')).toBe('3');
    expect(new URL(links.prev!).searchParams.get('page')).toBe('1');
    expect(new URL(links.first!).searchParams.get('extra')).toBe('kept');
    const firstPage = linksOf((await t.http().get(`${roles()}/${ids.Deployer}/users?per_page=5`).set(owner)).headers.link);
    expect(Object.keys(firstPage).sort()).toEqual(['last', 'next']);
  });

  it('sends no Link when everything fits in one page', async () => {
    const res = await t.http().get(`${roles()}/${ids.Deployer}/users`).set(owner);
    expect(res.body).toHaveLength(12);
    expect(res.headers.link).toBeUndefined();
  });

  it('answers a page past the end with an empty list', async () => {
    const res = await t.http().get(`${roles()}/${ids.Deployer}/users?per_page=5&page=9`).set(owner);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(linksOf(res.headers.link).first).toBeDefined();
  });

  it.each(['per_page=0', 'per_page=101', 'per_page=abc', 'page=0', 'page=-1', 'page=1e2', 'per_page=5&per_page=6'])(
    'when %s, answers 422 naming the parameter',
    async (query) => {
      const res = await t.http().get(`${roles()}/${ids.Deployer}/teams?${query}`).set(owner);
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ resource: 'OrganizationRole', field: query.split('=')[0], code: 'invalid' });
    },
  );
});
