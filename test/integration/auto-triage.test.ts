import { StoreAuthorizedLookups } from '../../src/modules/accounts/authorized-lookups';
import { AccountsStore } from '../../src/modules/accounts/accounts.store';
import type { AlertReevaluation } from '../../src/modules/alert-engine/alert-reevaluation';
import { AutoTriageService } from '../../src/modules/auto-triage/auto-triage.service';
import { WebhooksStore } from '../../src/modules/webhooks/webhooks.store';
import { AutoTriageStore } from '../../src/modules/auto-triage/auto-triage.store';
import type { TriageFacts, TriagePolicies } from '../../src/modules/auto-triage/triage-policy';
import { createServices, type Services } from '../../src/composition';
import type { Principal } from '../../src/auth/principal';
import { AttestationsStore } from '../../src/modules/attestations/attestations.store';
import { AlertsStore } from '../../src/modules/dependency-alerts/alerts.store';
import { AdvisoryAlertJsonStore } from '../../src/modules/advisories/advisories.alert-json-store';
import { AdvisoryLookupStore } from '../../src/modules/advisories/advisories.lookup-store';
import { AdvisoriesWorldStore } from '../../src/modules/advisories/advisories.world-store';
import { DependencySnapshotsStore } from '../../src/modules/dependency-graph/dependency-snapshots.store';
import { SnapshotQueueStore } from '../../src/modules/dependency-graph/snapshot-queue.store';
import { OrgRolesStore } from '../../src/modules/org-roles/org-roles.store';
import { WorldLoader } from '../../src/modules/world/world.loader';
import { recordStatements } from '../helpers/statements';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { AuditLogStore } from '../../src/modules/audit-log/audit-log.store';
import { AuditRecorder } from '../../src/modules/audit-log/audit-recorder';

// The stored side of auto-triage on every dialect: the TriagePolicies seam reads the rules, the
// presets and visibility of many repositories in two statements, and every rule or preset write
// calls AlertReevaluation with the repositories it reaches, inside its own transaction.

let db: TestDatabase;
let services: Services;
const store = new AutoTriageStore();
/** As composition.ts builds it for the alert engine. */
let policies: TriagePolicies;
const OWNER_TOKEN = 'atp_owner_token';

const DEV_NPM: TriageFacts = {
  ecosystem: 'npm', packageName: 'left-pad', manifestPath: 'package-lock.json', scope: 'development', severity: 'low',
  cweIds: ['CWE-400'], svcsaId: 'GHSA-3fvg-4v2m-98jf', cveId: null, hasPatch: false,
};

beforeAll(async () => {
  db = await createTestDatabase();
  services = createServices(db);
  policies = services.triagePolicies;
  await services.world.load({
    users: [{ login: 'atp-owner' }, { login: 'atp-solo' }],
    organizations: [{ login: 'atp-org', owners: ['atp-owner'] }],
    repositories: [
      { owner: 'atp-org', name: 'public', private: false },
      { owner: 'atp-org', name: 'private', private: true },
      { owner: 'atp-org', name: 'opted-out', private: false },
      { owner: 'atp-solo', name: 'solo', private: false },
    ],
    dependency_bot_rules: [
      { org: 'atp-org', name: 'Critical pip', enforcement: 'enabled', conditions: { severity: ['critical'], ecosystem: ['pip'] } },
      { repository: 'atp-org/opted-out', name: 'Opt out', enforcement: 'disabled', conditions: { ecosystem: ['pip'], severity: ['critical'] } },
      { repository: 'atp-org/private', name: 'Lockfile until patched', conditions: { manifest: ['package-lock.json'] }, action: 'dismiss_until_patch' },
    ],
    dependency_bot_presets: [{ repository: 'atp-org/opted-out', low_impact_development: false }],
    tokens: [{ token: OWNER_TOKEN, type: 'classic', user: 'atp-owner', scopes: ['repo'] }],
  });
});
afterAll(() => db.destroy());

async function repoId(name: string): Promise<number> {
  return Number((await db.knex('repositories').where('name', name).first('id')).id);
}

describe('StoreTriagePolicies', () => {
  it('reads every repository\'s policy in two statements, and answers for every id asked', async () => {
    const ids = await Promise.all(['public', 'private', 'opted-out', 'solo'].map(repoId));
    const recording = recordStatements(db);
    const answer = await policies.forRepositories(db.knex, [...ids, 999_999]);
    recording.stop();
    expect(recording.sql).toHaveLength(2);
    expect([...answer.keys()].sort((a, b) => a - b)).toEqual([...ids, 999_999].sort((a, b) => a - b));
    expect(answer.get(999_999)!(DEV_NPM)).toBeNull();
  });

  it('gives each repository its rules, its organization\'s and the preset as its visibility and settings say', async () => {
    const [pub, priv, optedOut, solo] = await Promise.all(['public', 'private', 'opted-out', 'solo'].map(repoId));
    const answer = await policies.forRepositories(db.knex, [pub!, priv!, optedOut!, solo!]);
    const critical: TriageFacts = { ...DEV_NPM, ecosystem: 'pip', severity: 'critical', scope: 'runtime', manifestPath: 'requirements.txt' };
    // The preset: on by default for public repositories, off for private ones and where set false.
    expect(answer.get(pub!)!(DEV_NPM)).toEqual({ kind: 'preset', preset: 'low_impact_development' });
    expect(answer.get(solo!)!(DEV_NPM)).toEqual({ kind: 'preset', preset: 'low_impact_development' });
    expect(answer.get(optedOut!)!({ ...DEV_NPM, manifestPath: 'x' })).toBeNull();
    // The organization's enabled rule, except where the repository disabled one with its conditions.
    expect(answer.get(pub!)!(critical)).toMatchObject({ kind: 'rule', action: 'dismiss' });
    expect(answer.get(priv!)!(critical)).toMatchObject({ kind: 'rule', action: 'dismiss' });
    expect(answer.get(optedOut!)!(critical)).toBeNull();
    expect(answer.get(solo!)!(critical)).toBeNull();
    // The private repository's own rule, until a patch exists.
    expect(answer.get(priv!)!(DEV_NPM)).toMatchObject({ kind: 'rule', action: 'dismiss_until_patch' });
    expect(answer.get(priv!)!({ ...DEV_NPM, hasPatch: true })).toBeNull();
  });

  it('reads inside the caller\'s transaction: an uncommitted rule counts', async () => {
    const id = await repoId('private');
    const trx = await db.knex.transaction();
    try {
      await store.insertRule(trx, { kind: 'repo', repoId: id }, { name: 'pending', enforcement: 'enabled', conditions: { package: ['left-pad'] }, action: 'dismiss' }, '2026-03-01T00:00:00Z');
      const policy = (await policies.forRepositories(trx, [id])).get(id)!;
      expect(policy({ ...DEV_NPM, manifestPath: 'other' })).toMatchObject({ kind: 'rule', action: 'dismiss' });
    } finally {
      await trx.rollback();
    }
  });
});

describe('AutoTriageService re-evaluates what a write reaches, in the write\'s transaction', () => {
  let principal: Principal;
  const calls: Array<{ repoIds: number[]; inTransaction: boolean; rulesSeen: number }> = [];
  const recording: AlertReevaluation = {
    async repositories(trx, repoIds) {
      // What the engine will see: the write itself, not yet committed.
      const rulesSeen = Number((await trx('dependency_bot_rules').count({ n: '*' }).first())?.n);
      calls.push({ repoIds: [...repoIds], inTransaction: trx.isTransaction === true, rulesSeen });
    },
  };
  const serviceWith = (reevaluation: AlertReevaluation) => new AutoTriageService({
    db: db.knex, lookups: new StoreAuthorizedLookups({ accounts: new AccountsStore(), authorizer: services.authorizer }), store, reevaluation, audit: new AuditRecorder(new AuditLogStore()),
  });

  beforeAll(async () => {
    principal = await services.at(undefined).authenticator.authenticate(`Bearer ${OWNER_TOKEN}`);
  });
  beforeEach(() => calls.splice(0));

  it('an organization rule reaches every repository of the organization; a repository preset that repository', async () => {
    const service = serviceWith(recording);
    const before = Number((await db.knex('dependency_bot_rules').count({ n: '*' }).first())?.n);
    const created = await service.createRule(principal, { level: 'org', org: 'atp-org' }, { name: 'new', enforcement: 'enforced', conditions: { severity: ['low'] }, action: 'dismiss' });
    const orgRepos = (await Promise.all(['public', 'private', 'opted-out'].map(repoId))).sort((a, b) => a - b);
    expect(calls).toEqual([{ repoIds: orgRepos, inTransaction: true, rulesSeen: before + 1 }]);
    await service.deleteRule(principal, { level: 'org', org: 'atp-org' }, created.id);
    await service.setPresets(principal, { level: 'repo', owner: 'atp-org', repo: 'public' }, { lowImpactDevelopment: false });
    expect(calls.slice(1).map((c) => c.repoIds)).toEqual([orgRepos, [await repoId('public')]]);
  });

  it('a failing re-evaluation undoes the write, its audit-log record with it', async () => {
    const failing = serviceWith({ repositories: async () => { throw new Error('engine failed'); } });
    const before = await db.knex('dependency_bot_rules').select('id');
    const records = await db.knex('audit_log').select('id');
    await expect(failing.createRule(principal, { level: 'repo', owner: 'atp-org', repo: 'public' }, {
      name: 'never', enforcement: 'enabled', conditions: { severity: ['low'] }, action: 'dismiss',
    })).rejects.toThrow('engine failed');
    expect(await db.knex('dependency_bot_rules').select('id')).toEqual(before);
    expect(await db.knex('audit_log').select('id')).toEqual(records);
  });

  it('a world file\'s rules and presets re-evaluate the repositories they reach, in the load\'s transaction', async () => {
    const loader = new WorldLoader({
      db: db.knex, accounts: new AccountsStore(), roles: new OrgRolesStore(), tokens: services.tokens, attestations: new AttestationsStore(),
      alerts: new AlertsStore({ advisories: new AdvisoryLookupStore() }), advisories: new AdvisoriesWorldStore({ alertJson: new AdvisoryAlertJsonStore({ records: new AdvisoryLookupStore() }) }), snapshots: new DependencySnapshotsStore(), snapshotQueue: new SnapshotQueueStore(), autoTriage: store, webhooks: new WebhooksStore(), auditLog: new AuditLogStore(), audit: new AuditRecorder(new AuditLogStore()),
      // This world holds no snapshot: only the rules' re-evaluation may be asked for.
      alertEngine: { ...recording, afterSnapshot: async () => { throw new Error('no snapshot was loaded'); } },
    });
    await loader.load({
      dependency_bot_rules: [{ repository: 'atp-solo/solo', name: 'From the world', conditions: { severity: ['high'] } }],
      dependency_bot_presets: [{ org: 'atp-org', low_impact_development: true }],
    });
    const expected = (await Promise.all(['public', 'private', 'opted-out', 'solo'].map(repoId))).sort((a, b) => a - b);
    expect(calls).toEqual([{ repoIds: expected, inTransaction: true, rulesSeen: expect.any(Number) }]);
  });

  it('reads re-evaluate nothing', async () => {
    const service = serviceWith(recording);
    await service.listRules(principal, { level: 'org', org: 'atp-org' });
    await service.presets(principal, { level: 'repo', owner: 'atp-org', repo: 'private' });
    expect(calls).toEqual([]);
  });
});

