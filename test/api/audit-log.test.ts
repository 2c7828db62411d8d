import { OPERATIONS as CATALOGUE } from '../../src/operations';
import { hashToken } from '../../src/auth/token-format';
import { DEMO_OWNER_TOKEN, OPERATIONS, demoWorld, recordDemoDeliveries, type Operation } from '../helpers/operations';
import { sendOperation, sendToMissingOwner, type SendOverrides } from '../helpers/send-operation';
import { createSigner, signedBundle, type Signer } from '../helpers/signed-bundles';
import { gql } from '../helpers/graphql';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Issue 37: every write operation of the catalogue leaves its record in the audit log, once,
// naming the caller, its token and the request; a write that fails leaves none; the engine's
// changes a write causes are recorded by the engine's actor. REST and GraphQL alike.

let t: TestApp;
let aliceId: number;
let tokenId: number;
let acmeId: number;
beforeAll(async () => {
  t = await createTestApp();
  await t.load(demoWorld());
  await recordDemoDeliveries(t.db.knex);
  aliceId = Number((await t.db.knex('accounts').where('login', 'alice').first('id')).id);
  acmeId = Number((await t.db.knex('accounts').where('login', 'acme-corp').first('id')).id);
  tokenId = Number((await t.db.knex('tokens').where('token_hash', hashToken(DEMO_OWNER_TOKEN)).first('id')).id);
});
afterAll(() => t.close());

const recordsOf = (requestId: string) => t.db.knex('audit_log').where('request_id', requestId).orderBy('id').select('*');
const count = async () => Number((await t.db.knex('audit_log').count({ n: '*' }).first())!.n);

/**
 * What each write of the demo world's samples records, by the caller: each action once, in order.
 * A function: what a "remove all" removes is what the world held just before.
 */
const EXPECTED: Partial<Record<Operation['name'], string[] | (() => Promise<string[]>)>> = {
  revokeAllOrgRolesTeam: async () => heldBy('organization_role_teams', 'team_id', await teamId('security')).then((n) => Array(n).fill('organization_role.unassign_team')),
  assignTeamToOrgRole: ['organization_role.assign_team'],
  revokeOrgRoleTeam: ['organization_role.unassign_team'],
  revokeAllOrgRolesUser: async () => heldBy('organization_role_users', 'user_id', await userId('carol')).then((n) => Array(n).fill('organization_role.unassign_user')),
  assignUserToOrgRole: ['organization_role.assign_user'],
  revokeOrgRoleUser: ['organization_role.unassign_user'],
  createEnterpriseOidcInclusion: ['oidc.custom_property_inclusion.create'],
  deleteEnterpriseOidcInclusion: ['oidc.custom_property_inclusion.destroy'],
  createOrgOidcInclusion: ['oidc.custom_property_inclusion.create'],
  deleteOrgOidcInclusion: ['oidc.custom_property_inclusion.destroy'],
  setOrgOidcSubjectTemplate: ['oidc.subject_template.update'],
  setRepoOidcSubjectTemplate: ['oidc.subject_template.update'],
  createAttestation: ['attestation.create'],
  updateDependencyAlert: ['dependency_alert.assignees_update'],
  createDependencySnapshot: ['dependency_snapshot.create'],
  uploadSbom: ['dependency_snapshot.create'],
  createOrgDependencyBotRule: ['dependency_bot_rule.create'],
  updateOrgDependencyBotRule: ['dependency_bot_rule.update'],
  deleteOrgDependencyBotRule: ['dependency_bot_rule.destroy'],
  createRepoDependencyBotRule: ['dependency_bot_rule.create'],
  updateRepoDependencyBotRule: ['dependency_bot_rule.update'],
  deleteRepoDependencyBotRule: ['dependency_bot_rule.destroy'],
  setOrgDependencyBotPresets: ['dependency_bot_presets.update'],
  setRepoDependencyBotPresets: ['dependency_bot_presets.update'],
  createOrgWebhook: ['hook.create'],
  updateOrgWebhook: ['hook.events_update'], // insecure_ssl '0' is the hook's already
  deleteOrgWebhook: ['hook.destroy'],
  pingOrgWebhook: ['hook.ping'],
  redeliverOrgWebhookDelivery: ['hook.redeliver'],
  createRepoWebhook: ['hook.create'],
  updateRepoWebhook: ['hook.events_update'],
  deleteRepoWebhook: ['hook.destroy'],
  pingRepoWebhook: ['hook.ping'],
  redeliverRepoWebhookDelivery: ['hook.redeliver'],
};

/** Samples that change nothing in the demo world, changed to ones that do. */
const OVERRIDES: Partial<Record<Operation['name'], (signer: Signer) => Promise<SendOverrides>>> = {
  // platform-infra holds no role of its own; security holds security_manager.
  revokeAllOrgRolesTeam: async () => ({ params: { team_slug: 'security' } }),
  // The demo world's template is the sample's already.
  setOrgOidcSubjectTemplate: async () => ({ body: { include_claim_keys: ['repo', 'context'] } }),
  setRepoOidcSubjectTemplate: async () => ({ body: { use_default: false, include_claim_keys: ['repo', 'ref'] } }),
  // Alert 1 is bob's already.
  updateDependencyAlert: async () => ({ body: { assignees: ['alice', 'bob'] } }),
  // acme-corp/api follows its organization's presets already.
  setRepoDependencyBotPresets: async () => ({ body: { low_impact_development: false } }),
  // The demo world's own bundle is stored already (a second upload records nothing): a new one.
  createAttestation: async (signer) => ({ body: { bundle: signedBundle(signer) } }),
};

async function teamId(slug: string) {
  return Number((await t.db.knex('teams').where({ org_id: acmeId, slug }).first('id')).id);
}
async function userId(login: string) {
  return Number((await t.db.knex('accounts').where('login', login).first('id')).id);
}
async function heldBy(table: string, column: string, id: number) {
  return Number((await t.db.knex(table).where({ org_id: acmeId, [column]: id }).count({ n: '*' }).first())!.n);
}

const isWrite = (op: Operation) => op.method !== 'GET' && CATALOGUE[op.name].readsOnly !== true;

describe('every operation of the catalogue, in the demo world', () => {
  it('records each write once by its caller, token and request, the engine\'s changes by the engine, and nothing for a read', async () => {
    const signer = await createSigner();
    const seen = new Set<string>();
    for (const op of OPERATIONS) {
      const requestId = `sweep-${op.number}`;
      const expected = EXPECTED[op.name];
      const actions = typeof expected === 'function' ? await expected() : expected ?? [];
      const res = await sendOperation(t, op, DEMO_OWNER_TOKEN, { headers: { 'X-Request-Id': requestId }, ...(await OVERRIDES[op.name]?.(signer)) });
      expect({ op: op.name, status: res.status }).toEqual({ op: op.name, status: op.success[0] });
      const records = await recordsOf(requestId);
      const byCaller = records.filter((r) => r.actor === 'alice');
      const byEngine = records.filter((r) => r.actor !== 'alice');
      expect({ op: op.name, actions: byCaller.map((r) => r.action) }).toEqual({ op: op.name, actions: isWrite(op) ? actions : [] });
      if (isWrite(op)) expect({ op: op.name, recorded: actions.length > 0 }).toEqual({ op: op.name, recorded: true });
      for (const record of byCaller) {
        seen.add(op.name);
        expect({
          op: op.name, actor_id: Number(record.actor_id), is_bot: Boolean(record.actor_is_bot), token: Number(record.token_id), type: record.programmatic_access_type,
          created: Number(record.created_at) > Date.now() - 60_000,
        }).toEqual({ op: op.name, actor_id: aliceId, is_bot: false, token: tokenId, type: 'Personal access token (classic)', created: true });
        // The organization or enterprise the operation names, and the repository.
        const params = op.sample.params as Record<string, string>;
        if (params.org !== undefined || params.owner !== undefined) expect({ op: op.name, org: Number(record.org_id) }).toEqual({ op: op.name, org: acmeId });
        if (params.enterprise !== undefined) expect({ op: op.name, business: record.business, org: record.org_id }).toEqual({ op: op.name, business: 'acme', org: null });
        if (params.repo !== undefined) expect({ op: op.name, repo: record.repo }).toEqual({ op: op.name, repo: `${params.owner}/${params.repo}` });
        expect(JSON.stringify(record)).not.toMatch(/sample-secret|svc_demo/);
      }
      for (const record of byEngine) {
        expect({ op: op.name, actor: record.actor, action: record.action }).toEqual({ op: op.name, actor: 'dependency-bot[bot]', action: expect.stringMatching(/^dependency_alert\./) });
      }
    }
    expect([...seen].sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it('records nothing when a write is refused (a missing owner, no token)', async () => {
    const before = await count();
    for (const op of OPERATIONS.filter(isWrite)) {
      expect((await sendToMissingOwner(t, op, DEMO_OWNER_TOKEN)).status).toBe(404);
      expect((await sendOperation(t, op, null)).status).toBeGreaterThanOrEqual(401);
    }
    expect(await count()).toBe(before);
  });
});

describe('what a record says', () => {
  it('an alert\'s dismissal and reopening, with the state before and after, the reason and the comment', async () => {
    const path = '/repos/acme-corp/api/dependency-bot/alerts';
    const open = (await t.http().get(`${path}?state=open`).set(bearer(DEMO_OWNER_TOKEN))).body[0];
    await t.http().patch(`${path}/${open.number}`).set(bearer(DEMO_OWNER_TOKEN)).set('X-Request-Id', 'dismiss-1')
      .send({ state: 'dismissed', dismissed_reason: 'tolerable_risk', dismissed_comment: 'behind the VPN' }).expect(200);
    await t.http().patch(`${path}/${open.number}`).set(bearer(DEMO_OWNER_TOKEN)).set('X-Request-Id', 'reopen-1').send({ state: 'open' }).expect(200);
    const [dismissed] = await recordsOf('dismiss-1');
    expect({ action: dismissed.action, operation: dismissed.operation_type, data: JSON.parse(dismissed.data) }).toEqual({
      action: 'dependency_alert.dismiss', operation: 'modify',
      data: expect.objectContaining({
        alert_number: open.number, package: open.dependency.package.name, manifest_path: open.dependency.manifest_path,
        changes: { state: { before: 'open', after: 'dismissed' } }, dismissed_reason: 'tolerable_risk', dismissed_comment: 'behind the VPN',
      }),
    });
    const reopened = (await recordsOf('reopen-1')).filter((r) => r.actor === 'alice');
    expect(reopened.map((r) => [r.action, JSON.parse(r.data).changes])).toEqual([['dependency_alert.reopen', { state: { before: 'dismissed', after: 'open' } }]]);
  });

  it('a hook\'s secret never, only that it was replaced', async () => {
    await t.http().patch('/orgs/acme-corp/hooks/1').set(bearer(DEMO_OWNER_TOKEN)).set('X-Request-Id', 'secret-1')
      .send({ config: { secret: 'a-new-secret-value-9x' } }).expect(200);
    const records = await recordsOf('secret-1');
    expect(records.map((r) => [r.action, JSON.parse(r.data)])).toEqual([['hook.config_update', { hook_id: 1, changes: {}, secret_replaced: true }]]);
    expect(JSON.stringify(records)).not.toContain('a-new-secret-value-9x');
  });

  it('an unchanged setting (the same template again) is no change: no record', async () => {
    const send = (id: string) => t.http().put('/orgs/acme-corp/actions/oidc/customization/sub').set(bearer(DEMO_OWNER_TOKEN)).set('X-Request-Id', id).send({ include_claim_keys: ['repo'] });
    await send('template-1').expect(201);
    await send('template-2').expect(201);
    expect((await recordsOf('template-1')).map((r) => r.action)).toEqual(['oidc.subject_template.update']);
    expect(await recordsOf('template-2')).toEqual([]);
  });
});

describe('the engine\'s changes', () => {
  const snapshot = (version: string) => ({
    version: 0, sha: 'e'.repeat(40), ref: 'refs/heads/main', scanned: '2026-03-02T00:00:00Z',
    job: { id: `engine-${version}`, correlator: 'engine' }, detector: { name: 'engine-test', version: '1.0.0', url: 'https://example.com/detector' },
    manifests: { 'package-lock.json': { name: 'package-lock.json', resolved: { 'left-pad': { package_url: `pkg:npm/left-pad@${version}`, relationship: 'direct' } } } },
  });
  const engineRecords = async (requestId: string) => (await recordsOf(requestId)).filter((r) => r.actor === 'dependency-bot[bot]').map((r) => ({ ...r, data: JSON.parse(r.data) }));

  it('are recorded by dependency-bot[bot] under the request that caused them: opened, auto-dismissed by a rule, fixed', async () => {
    const post = (id: string, version: string) => t.http().post('/repos/acme-corp/infra/dependency-graph/snapshots').set(bearer(DEMO_OWNER_TOKEN)).set('X-Request-Id', id).send(snapshot(version));
    expect((await post('engine-1', '1.3.0')).status).toBe(201);
    const opened = (await engineRecords('engine-1')).filter((r) => r.data.package === 'left-pad');
    expect(opened.map((r) => [r.action, r.data.changes, r.repo, r.org, Boolean(r.actor_is_bot), r.token_id])).toEqual([
      ['dependency_alert.create', { state: { before: null, after: 'open' } }, 'acme-corp/infra', 'acme-corp', true, null],
    ]);
    await t.http().post('/repos/acme-corp/infra/dependency-bot/rules').set(bearer(DEMO_OWNER_TOKEN)).set('X-Request-Id', 'engine-2')
      .send({ name: 'npm here is vendored', conditions: { ecosystem: ['npm'] } }).expect(201);
    expect((await recordsOf('engine-2')).map((r) => [r.actor, r.action])).toEqual([
      ['alice', 'dependency_bot_rule.create'], ['dependency-bot[bot]', 'dependency_alert.auto_dismiss'],
    ]);
    expect((await engineRecords('engine-2'))[0]!.data).toMatchObject({ alert_number: opened[0]!.data.alert_number, auto_dismissed_by: 'rule', changes: { state: { before: 'open', after: 'auto_dismissed' } } });
    expect((await post('engine-3', '1.3.1')).status).toBe(201);
    expect((await engineRecords('engine-3')).filter((r) => r.data.alert_number === opened[0]!.data.alert_number).map((r) => [r.action, r.data.changes])).toEqual([
      ['dependency_alert.fix', { state: { before: 'auto_dismissed', after: 'fixed' } }],
    ]);
  });
});

describe('GraphQL mutations', () => {
  it('record as REST does: the caller, the token and the request', async () => {
    const res = await t.http().post('/graphql').set(bearer(DEMO_OWNER_TOKEN)).set('X-Request-Id', 'gql-1').send({
      query: 'mutation { assignOrganizationRoleToUser(input: { organization: "acme-corp", user: "bob", roleId: 8132 }) { user { login } } }',
    });
    expect(res.body.errors).toBeUndefined();
    const [record] = await recordsOf('gql-1');
    expect(record).toMatchObject({ action: 'organization_role.assign_user', actor: 'alice', user: 'bob', org: 'acme-corp', request_id: 'gql-1' });
    expect(Number(record.token_id)).toBe(tokenId);
  });

  it('records nothing for a mutation that fails', async () => {
    const before = await count();
    const res = await gql(t, 'mutation { assignOrganizationRoleToUser(input: { organization: "acme-corp", user: "bob", roleId: 999999 }) { user { login } } }', { token: DEMO_OWNER_TOKEN });
    expect(res.errors?.[0]?.extensions.code).toBe('NOT_FOUND');
    expect(await count()).toBe(before);
  });
});
