import { bearer, createTestApp, type TestApp } from '../helpers/test-app';
import { gql } from '../helpers/graphql';
import { hashTables } from '../helpers/table-hash';
import { ENTERPRISE, ORG, OTHER_ORG, SIBLING_ORG, T, oidcWorld } from '../helpers/oidc-world';

// Issue 37, reading the audit log: a world's records, the search phrase, order, cursors and
// Link, the NDJSON export, who may read which log, and every bad input refused with nothing changed.

/** Records a world carries: 40 of ORG's over ten days, 2 of its sibling's, 1 of another organization's. */
function auditWorld() {
  const day = (d: number) => `2026-11-${String(d).padStart(2, '0')}T12:00:00Z`;
  const records = Array.from({ length: 40 }, (_, i) => ({
    created_at: day(1 + (i % 10)),
    action: ['organization_role.assign_user', 'organization_role.unassign_user', 'hook.create', 'dependency_alert.dismiss'][i % 4]!,
    operation_type: ['create', 'remove', 'create', 'modify'][i % 4]!,
    actor: i % 3 === 0 ? 'org-owner' : 'ci-admin',
    org: ORG,
    ...(i % 4 === 3 ? { repository: `${ORG}/private-repo` } : {}),
    ...(i % 4 < 2 ? { user: 'member' } : {}),
    data: { n: i },
  }));
  return {
    ...oidcWorld(),
    audit_log: [
      ...records,
      { created_at: day(5), action: 'hook.create', operation_type: 'create', actor: 'ent-owner', org: SIBLING_ORG, data: { n: 100 } },
      { created_at: day(6), action: 'hook.destroy', operation_type: 'remove', actor: 'ent-owner', org: SIBLING_ORG, data: { n: 101 } },
      { created_at: day(5), action: 'hook.create', operation_type: 'create', actor: 'outsider', org: OTHER_ORG, data: { n: 200 } },
    ],
  };
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(auditWorld());
});
afterAll(() => t.close());

const log = (query = '', token: string = T.orgOwner, org: string = ORG) => t.http().get(`/orgs/${org}/audit-log${query}`).set(bearer(token));
const ns = (body: Array<{ n?: number }>) => body.map((r) => r.n);

describe('a world\'s records', () => {
  it('are shown newest first with every common field, the action\'s own after them', async () => {
    const res = await log('?per_page=100');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(40);
    expect(res.body[0]).toEqual({
      '@timestamp': Date.parse('2026-11-10T12:00:00Z'), _document_id: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), action: 'dependency_alert.dismiss',
      operation_type: 'modify', actor: 'org-owner', actor_id: null, actor_is_bot: false, business: ENTERPRISE, business_id: expect.any(Number), org: ORG,
      org_id: expect.any(Number), repo: `${ORG}/private-repo`, repo_id: expect.any(Number), user: null, user_id: null, team: null, team_id: null, token_id: null,
      programmatic_access_type: null, request_id: null, created_at: Date.parse('2026-11-10T12:00:00Z'), n: 39,
    });
    const times = res.body.map((r: { '@timestamp': number }) => r['@timestamp']);
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('are not loaded twice when the world is loaded again', async () => {
    await t.load(auditWorld());
    expect((await log('?per_page=100')).body).toHaveLength(40);
  });
});

describe('the phrase', () => {
  it.each([
    ['action:hook.create', 10],
    ['action:organization_role', 20],
    ['-action:organization_role', 20],
    ['actor:org-owner', 14],
    ['actor:ORG-OWNER action:hook', 3],
    ['repo:oidc-org/private-repo', 10],
    ['-repo:oidc-org/private-repo', 30],
    ['user:member', 20],
    ['operation:remove', 10],
    ['created:2026-11-03', 4],
    ['created:>=2026-11-09', 8],
    ['created:<2026-11-02', 4],
    ['created:2026-11-02..2026-11-04', 12],
    ['created:>=2026-11-09 action:dependency_alert -actor:org-owner', 1],
    [`org:${SIBLING_ORG}`, 0],
  ])('%s matches %i records', async (phrase, expected) => {
    const res = await log(`?per_page=100&phrase=${encodeURIComponent(phrase)}`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(expected);
  });

  it('include=git matches nothing; all is web', async () => {
    expect((await log('?include=git')).body).toEqual([]);
    expect(ns((await log('?include=all&per_page=5')).body)).toEqual(ns((await log('?per_page=5')).body));
  });
});

describe('pages', () => {
  it('follows Link rel="next" to the end in either order, each record once, and back with rel="prev"', async () => {
    for (const order of ['desc', 'asc']) {
      const seen: number[] = [];
      let url: string | undefined = `/orgs/${ORG}/audit-log?per_page=7&order=${order}&phrase=${encodeURIComponent('-action:hook')}`;
      let last: { body: Array<{ n: number }>; headers: Record<string, string> } | undefined;
      while (url) {
        const res: { status: number; body: Array<{ n: number }>; headers: Record<string, string> } = await t.http().get(url.replace(t.url, '')).set(bearer(T.orgOwner));
        expect(res.status).toBe(200);
        seen.push(...ns(res.body) as number[]);
        last = res;
        url = /<([^>]+)>; rel="next"/.exec(res.headers.link ?? '')?.[1];
      }
      expect(seen).toHaveLength(30);
      expect(new Set(seen).size).toBe(30);
      const prev = /<([^>]+)>; rel="prev"/.exec(last!.headers.link ?? '')![1]!;
      const back = await t.http().get(prev.replace(t.url, '')).set(bearer(T.orgOwner));
      expect(ns(back.body)).toEqual(seen.slice(seen.length - last!.body.length - 7, seen.length - last!.body.length));
    }
  });

  it('refuses a cursor of another query, a forged one and a bad per_page, changing nothing', async () => {
    const first = await log('?per_page=2&phrase=action:hook');
    const next = /after=([^&>]+)/.exec(first.headers.link ?? '')![1]!;
    const before = await hashTables(t.db.knex);
    for (const [query, status] of [
      [`?per_page=2&phrase=action:organization_role&after=${next}`, 400],
      [`?per_page=2&phrase=action:hook&order=asc&after=${next}`, 400],
      ['?after=bm90LWEtY3Vyc29y', 400],
      ['?per_page=0', 422],
      ['?per_page=101', 422],
      ['?order=sideways', 422],
      ['?include=everything', 422],
      ['?page=2', 400],
    ] as const) {
      const res = await log(query);
      expect({ query, status: res.status }).toEqual({ query, status });
      expect(res.body.message).toEqual(expect.any(String));
    }
    expect(await hashTables(t.db.knex)).toEqual(before);
  });

  it('refuses a phrase that does not parse with a 422 naming phrase; one of 10 KB as too long for a URL', async () => {
    for (const phrase of ['country:de', 'created:2026-13-01', 'actor:"alice', 'alice']) {
      const res = await log(`?phrase=${encodeURIComponent(phrase)}`);
      expect({ phrase, status: res.status, field: res.body.errors?.[0]?.field }).toEqual({ phrase, status: 422, field: 'phrase' });
    }
    expect((await log(`?phrase=actor:${'a'.repeat(10 * 1024)}`)).status).toBe(414);
  });
});

describe('NDJSON', () => {
  it('streams every matching record, a JSON object a line, in the order asked', async () => {
    const res = await t.http().get(`/orgs/${ORG}/audit-log?order=asc&phrase=${encodeURIComponent('action:organization_role')}`)
      .set(bearer(T.orgOwner)).set('Accept', 'application/x-ndjson').buffer(true).parse((response, done) => {
        let text = '';
        response.on('data', (chunk: Buffer) => { text += chunk.toString('utf8'); });
        response.on('end', () => done(null, text));
      });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = (res.body as string).split('\n');
    expect(lines.pop()).toBe('');
    const records = lines.map((line) => JSON.parse(line));
    expect(records).toHaveLength(20);
    const json = await log(`?per_page=100&order=asc&phrase=${encodeURIComponent('action:organization_role')}`);
    expect(records).toEqual(json.body);
  });

  it('refuses a bad phrase before it sends anything', async () => {
    const res = await t.http().get(`/orgs/${ORG}/audit-log?phrase=nope`).set(bearer(T.orgOwner)).set('Accept', 'application/x-ndjson');
    expect(res.status).toBe(422);
  });
});

describe('who may read it', () => {
  it.each([
    ['an owner with admin:org (it implies read:audit_log)', T.orgOwner, 200],
    ['a fine-grained token with organization_administration read', T.fineOrgReadOnly, 200],
    ['an app installation with organization_administration read', T.installationReadOnly, 200],
    ['an owner whose token has only read:org', T.orgOwnerReadOrg, 403],
    ['a member, admin:org or not', T.member, 403],
    ['a member holding ci_cd_admin', T.ciAdmin, 403],
    ['an owner of another organization', T.outsider, 403],
    ['the enterprise\'s owner who owns the organization too', T.entOwnerNoScope, 200],
  ])('%s: %i', async (_who, token, status) => {
    expect((await log('?per_page=1', token)).status).toBe(status);
  });

  it('a missing organization is a 404, and no token a 401', async () => {
    expect((await log('', T.orgOwner, 'no-such-org')).status).toBe(404);
    expect((await t.http().get(`/orgs/${ORG}/audit-log`)).status).toBe(401);
  });

  it('an organization shows only its own records; the enterprise its organizations\' (not another\'s)', async () => {
    expect(ns((await log('?per_page=100', T.outsider, OTHER_ORG)).body)).toEqual([200]);
    const enterprise = await t.http().get(`/enterprises/${ENTERPRISE}/audit-log?per_page=100`).set(bearer(T.entOwner));
    expect(enterprise.status).toBe(200);
    expect(ns(enterprise.body).sort((a, b) => a! - b!)).toEqual([...Array.from({ length: 40 }, (_, i) => i), 100, 101]);
    expect((await t.http().get(`/enterprises/${ENTERPRISE}/audit-log`).set(bearer(T.entMember))).status).toBe(403);
    expect((await t.http().get(`/enterprises/${ENTERPRISE}/audit-log`).set(bearer(T.fineEnterpriseReadOnly))).status).toBe(200);
  });
});

describe('GraphQL', () => {
  it('Organization.auditLog pages with the cursors REST gives, and filters with query', async () => {
    const query = 'query($after: String) { organization(login: "oidc-org") { auditLog(first: 5, after: $after, query: "action:hook") { edges { cursor node { action actor org data } } pageInfo { hasNextPage endCursor } } } }';
    const first = await gql(t, query, { token: T.orgOwner });
    expect(first.errors).toBeUndefined();
    const page = first.data.organization.auditLog;
    expect(page.edges.map((e: { node: { data: { n: number } } }) => e.node.data.n)).toEqual(ns((await log('?per_page=5&phrase=action:hook')).body));
    const rest = await log(`?per_page=5&phrase=action:hook&after=${page.pageInfo.endCursor}`);
    const second = await gql(t, query, { token: T.orgOwner, variables: { after: page.pageInfo.endCursor } });
    expect(second.data.organization.auditLog.edges.map((e: { node: { data: { n: number } } }) => e.node.data.n)).toEqual(ns(rest.body));
  });

  it('is null with an error for a caller REST refuses, and names a bad query', async () => {
    const refused = await gql(t, '{ organization(login: "oidc-org") { auditLog { edges { cursor } } } }', { token: T.member });
    expect(refused.data.organization.auditLog).toBeNull();
    expect(refused.errors?.[0]?.extensions.code).toBe('FORBIDDEN');
    const bad = await gql(t, '{ organization(login: "oidc-org") { auditLog(query: "country:de") { edges { cursor } } } }', { token: T.orgOwner });
    expect(bad.errors?.[0]?.message).toMatch(/`country` is not a qualifier/);
  });
});
