import fs from 'node:fs';
import path from 'node:path';
import { createServices, type Services } from '../../src/composition';
import { hashToken } from '../../src/auth/token-format';
import { WorldError } from '../../src/modules/world/world.loader';
import { hashTables } from '../helpers/table-hash';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The demo world as shipped, and the facts about it these tests check.
const DEMO_PATH = path.join(__dirname, '..', '..', 'db', 'demo-world.json');
const demoWorld = (): unknown => JSON.parse(fs.readFileSync(DEMO_PATH, 'utf8'));
const DEMO_TOKENS = (JSON.parse(fs.readFileSync(DEMO_PATH, 'utf8')) as { tokens: Array<{ token: string }> }).tokens.map((t) => t.token);
const DEMO_SUBJECT_DIGEST = 'sha256:8aad120b416386b4269ef62c8fdebcad31a70847297817a149daf927edc85548';
const PREDEFINED_ROLE_NAMES = [
  'all_repo_admin', 'all_repo_maintain', 'all_repo_read', 'all_repo_triage', 'all_repo_write', 'app_manager', 'ci_cd_admin', 'security_manager',
];

let db: TestDatabase;
let services: Services;
let demoSummary: Awaited<ReturnType<Services['world']['load']>>;

beforeAll(async () => {
  db = await createTestDatabase();
  services = createServices(db);
  demoSummary = await services.world.load(demoWorld());
});
afterAll(() => db.destroy());

/** Loads a world that must fail; returns the error after checking it is a WorldError and nothing was written. */
async function expectRejectedWithoutWriting(world: unknown): Promise<WorldError> {
  const before = await hashTables(db.knex);
  const error = await services.world.load(world).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorldError);
  expect(await hashTables(db.knex)).toEqual(before);
  return error as WorldError;
}

async function accountId(login: string): Promise<number> {
  const row = await db.knex('accounts').where('login', login).first('id');
  if (!row) throw new Error(`no account ${login}`);
  return Number(row.id);
}

async function teamId(org: string, slug: string): Promise<number> {
  const row = await db.knex('teams').where({ org_id: await accountId(org), slug }).first('id');
  if (!row) throw new Error(`no team ${org}/${slug}`);
  return Number(row.id);
}

async function repoId(owner: string, name: string): Promise<number> {
  const row = await db.knex('repositories').where({ owner_id: await accountId(owner), name }).first('id');
  if (!row) throw new Error(`no repository ${owner}/${name}`);
  return Number(row.id);
}

async function loginsOf(rows: Array<{ user_id: unknown }>): Promise<string[]> {
  const ids = rows.map((r) => Number(r.user_id));
  if (ids.length === 0) return [];
  return (await db.knex('accounts').whereIn('id', ids).select('login')).map((r) => r.login as string).sort();
}

describe('loading the demo world', () => {
  it('into an empty database succeeds and reports what it declared, generating no token', () => {
    expect(demoSummary.counts).toMatchObject({
      users: 7, enterprises: 1, organizations: 3, teams: 4, repositories: 6, organization_roles: 3,
      role_assignments: 6, advisories: 4, alerts: 7, attestations: 1, tokens: 11,
    });
    expect(demoSummary.generatedTokens).toEqual([]);
  });

  it('writes 7 users and 3 organizations as accounts', async () => {
    const rows = await db.knex('accounts').select('login', 'type');
    expect(rows.filter((r) => r.type === 'User').map((r) => r.login).sort()).toEqual(['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace']);
    expect(rows.filter((r) => r.type === 'Organization').map((r) => r.login).sort()).toEqual(['acme-corp', 'acme-labs', 'globex']);
    expect(rows).toHaveLength(10);
  });

  it('writes the team hierarchy: platform-infra has platform as its parent', async () => {
    const child = await db.knex('teams').where('id', await teamId('acme-corp', 'platform-infra')).first('parent_id');
    expect(Number(child.parent_id)).toBe(await teamId('acme-corp', 'platform'));
    const roots = await db.knex('teams').whereNull('parent_id').select('slug');
    expect(roots.map((r) => r.slug).sort()).toEqual(['devs', 'platform', 'security']);
  });

  it('writes the role assignments to users and teams, predefined roles by name included', async () => {
    const acme = await accountId('acme-corp');
    const teamRoles = await db.knex('organization_role_teams as rt')
      .join('organization_roles as r', 'r.id', 'rt.role_id')
      .join('teams as t', 't.id', 'rt.team_id')
      .where('rt.org_id', acme)
      .select('t.slug', 'r.name', 'r.id');
    expect(teamRoles.map((r) => `${r.slug}: ${r.name}`).sort()).toEqual(['platform: Auditor', 'platform: all_repo_read', 'security: security_manager']);
    expect(Number(teamRoles.find((r) => r.name === 'security_manager')!.id)).toBe(138);
    const userRoles = await db.knex('organization_role_users as ru')
      .join('organization_roles as r', 'r.id', 'ru.role_id')
      .join('accounts as u', 'u.id', 'ru.user_id')
      .join('accounts as o', 'o.id', 'ru.org_id')
      .orderBy('ru.user_id')
      .select('o.login as org', 'u.login as user', 'r.name as role');
    expect(userRoles).toEqual([
      { org: 'acme-corp', user: 'bob', role: 'Auditor' },
      { org: 'acme-corp', user: 'carol', role: 'Role reader' },
      { org: 'globex', user: 'grace', role: 'Release manager' },
    ]);
  });

  it('writes 7 declared alerts and 2 computed from the snapshots, with their numbers, states and assignees', async () => {
    const alerts = await db.knex('dependency_alerts as a')
      .join('repositories as r', 'r.id', 'a.repo_id')
      .orderBy(['r.name', 'a.number'])
      .select('a.id', 'r.name as repo', 'a.number', 'a.state');
    expect(alerts.map((a) => `${a.repo}#${a.number} ${a.state}`)).toEqual([
      'api#1 open', 'api#2 dismissed', 'api#3 fixed', 'infra#1 open', 'prototype#1 fixed', 'prototype#2 auto_dismissed', 'site#1 open', 'web#1 open', 'web#2 auto_dismissed',
    ]);
    const assigneesOf = async (repo: string) => {
      const alert = alerts.find((a) => `${a.repo}#${a.number}` === repo)!;
      return loginsOf(await db.knex('dependency_alert_assignees').where('alert_id', alert.id).select('user_id'));
    };
    expect(await assigneesOf('api#1')).toEqual(['bob']);
    expect(await assigneesOf('infra#1')).toEqual(['bob', 'erin']);
    expect(await assigneesOf('site#1')).toEqual(['grace']);
    expect(await assigneesOf('web#1')).toEqual([]);
    const dismissed = await db.knex('dependency_alerts').where('id', alerts.find((a) => a.state === 'dismissed')!.id)
      .first('dismissed_reason', 'dismissed_by_id');
    expect(dismissed.dismissed_reason).toBe('tolerable_risk');
    expect(Number(dismissed.dismissed_by_id)).toBe(await accountId('alice'));
  });

  it('writes the attestation on acme-corp/web with its subject digest', async () => {
    const attestations = await db.knex('attestations').select('id', 'repo_id');
    expect(attestations).toHaveLength(1);
    expect(Number(attestations[0]!.repo_id)).toBe(await repoId('acme-corp', 'web'));
    const subjects = await db.knex('attestation_subjects').where('attestation_id', attestations[0]!.id).select('digest');
    expect(subjects.map((s) => s.digest)).toEqual([DEMO_SUBJECT_DIGEST]);
  });

  it('writes the OIDC property inclusions and subject templates', async () => {
    const enterprise = await db.knex('enterprises').where('slug', 'acme').first('id');
    expect(await db.knex('enterprise_oidc_property_inclusions').select('enterprise_id', 'custom_property_name'))
      .toEqual([{ enterprise_id: enterprise.id, custom_property_name: 'environment' }]);
    expect(await db.knex('organization_oidc_property_inclusions').select('org_id', 'custom_property_name'))
      .toEqual([{ org_id: await accountId('acme-corp'), custom_property_name: 'environment' }]);
    const orgTemplates = await db.knex('organization_oidc_subject_templates').select('org_id', 'include_claim_keys');
    expect(orgTemplates).toHaveLength(1);
    expect(Number(orgTemplates[0]!.org_id)).toBe(await accountId('acme-corp'));
    expect(JSON.parse(orgTemplates[0]!.include_claim_keys)).toEqual(['repo', 'context', 'job_workflow_ref']);
    const repoTemplates = await db.knex('repository_oidc_subject_templates').select('repo_id', 'use_default', 'include_claim_keys');
    const byRepo = new Map(repoTemplates.map((t) => [Number(t.repo_id), t]));
    expect(byRepo.size).toBe(2);
    const infra = byRepo.get(await repoId('acme-corp', 'infra'));
    expect(JSON.parse(infra.include_claim_keys)).toEqual(['repository_owner', 'environment']);
    expect(Boolean(infra.use_default)).toBe(false);
    // No claim keys declared: null, meaning "follow the organization's template".
    expect(byRepo.get(await repoId('acme-corp', 'api')).include_claim_keys).toBeNull();
  });

  it('stores the 11 tokens only as hashes: no raw token value appears in any tokens row', async () => {
    const rows = await db.knex('tokens').select('*');
    expect(rows).toHaveLength(11);
    expect(rows.map((r) => r.token_hash).sort()).toEqual(DEMO_TOKENS.map(hashToken).sort());
    const stored = JSON.stringify(rows);
    for (const token of DEMO_TOKENS) expect(stored).not.toContain(token);
  });

  it('a second time changes nothing', async () => {
    const before = await hashTables(db.knex);
    const summary = await services.world.load(demoWorld());
    expect(summary.generatedTokens).toEqual([]);
    expect(await hashTables(db.knex)).toEqual(before);
  });
});

describe('a world with a dangling reference', () => {
  // Each world also declares a new user, which must not be written either.
  const newcomer = { login: 'dangling-newcomer' };

  it.each([
    ['a team member login that does not exist',
      { users: [newcomer], teams: [{ org: 'acme-corp', slug: 'dangling-team', members: ['no-such-user'] }] },
      ['teams[0]', '"no-such-user"']],
    ['a repository whose owner does not exist',
      { users: [newcomer], repositories: [{ owner: 'no-such-owner', name: 'orphan' }] },
      ['repositories[0]', '"no-such-owner"']],
    ['an alert whose advisory does not exist',
      { users: [newcomer], alerts: [{ repository: 'acme-corp/api', number: 99, advisory: 'SVCSA-0000-NOPE', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'package-lock.json' }] },
      ['alerts[0]', '"SVCSA-0000-NOPE"']],
    ['a role assignment naming a missing role',
      { users: [newcomer], role_assignments: [{ org: 'acme-corp', role: 'No such role', user: 'bob' }] },
      ['role_assignments[0]', '"No such role"']],
    ['a role assignment naming a missing team',
      { users: [newcomer], role_assignments: [{ org: 'acme-corp', role: 'all_repo_read', team: 'no-such-team' }] },
      ['role_assignments[0]', '"no-such-team"']],
    ['an organization member that does not exist',
      { users: [newcomer], organizations: [{ login: 'dangling-org', owners: ['dangling-newcomer'], members: ['no-such-member'] }] },
      ['organizations[0]', '"no-such-member"']],
    ['a token for a user that does not exist',
      { users: [newcomer], tokens: [{ type: 'classic', user: 'no-such-user', scopes: ['read:org'] }] },
      ['tokens[0]', '"no-such-user"']],
  ])('fails naming the entry and writes nothing, for %s', async (_case, world, fragments) => {
    const error = await expectRejectedWithoutWriting(world);
    for (const fragment of fragments) expect(error.message).toContain(fragment);
  });

  it('fails naming the later entry even when earlier entries of the same file were valid', async () => {
    const error = await expectRejectedWithoutWriting({
      users: [newcomer],
      teams: [
        { org: 'acme-corp', slug: 'dangling-ok', members: ['bob'] },
        { org: 'acme-corp', slug: 'dangling-bad', members: ['bob', 'ghost-member'] },
      ],
    });
    expect(error.message).toMatch(/^teams\[1\] "acme-corp\/dangling-bad": user "ghost-member" does not exist/);
  });
});

describe('a world with a schema error', () => {
  it.each([
    ['an unknown key', { users: [{ login: 'schema-user', nickname: 'x' }] }, 'users[0]: unknown key(s) "nickname"'],
    ['an unknown top-level key', { usrs: [] }, '(world): unknown key(s) "usrs"'],
    ['a wrong enum value', { teams: [{ org: 'acme-corp', slug: 'schema-team', privacy: 'public' }] }, 'teams[0].privacy:'],
    ['a dismissed alert without dismissed_reason', {
      alerts: [{
        repository: 'acme-corp/api', advisory: 'SVCSA-2026-0001', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'schema/package-lock.json',
        state: 'dismissed', dismissed_at: '2026-03-01T00:00:00Z', dismissed_by: 'alice',
      }],
    }, 'alerts[0]: a dismissed alert needs dismissed_at, dismissed_by and dismissed_reason'],
    // PostgreSQL refuses a NUL in text and SQLite keeps it: refused alike, before any SQL.
    ['a NUL character in a user name', { users: [{ login: 'schema-nul', name: 'nul\u0000name' }] }, 'users[0].name: must be Unicode text without NUL characters'],
    ['a NUL character in an alert', {
      alerts: [{
        repository: 'acme-corp/api', advisory: 'SVCSA-2026-0001', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'nul\u0000/package-lock.json', state: 'open',
      }],
    }, 'alerts[0].manifest_path: must be Unicode text without NUL characters'],
    ['a lone surrogate in an advisory', { advisories: [{ svcsa_id: 'SVCSA-2026-0999', summary: 'half \ud800 a pair', severity: 'low' }] }, 'advisories[0].summary: must be Unicode text without NUL characters'],
  ])('fails naming the path and writes nothing, for %s', async (_case, world, expected) => {
    const error = await expectRejectedWithoutWriting({ users: [{ login: 'schema-newcomer' }], ...world });
    expect(error.message).toContain(expected);
  });
});

describe('declared lists replace what was loaded before', () => {
  const world = {
    users: ['lists-owner', 'lists-stay', 'lists-leave'].map((login) => ({ login })),
    enterprises: [{ slug: 'lists-ent', owners: ['lists-owner'] }],
    organizations: [
      { login: 'lists-org', enterprise: 'lists-ent', organization_roles_enabled: true, owners: ['lists-owner'], members: ['lists-stay', 'lists-leave'],
        custom_properties: [{ name: 'keep' }, { name: 'drop' }, { name: 'shared' }] },
      { login: 'lists-other', enterprise: 'lists-ent', organization_roles_enabled: true, owners: ['lists-owner'], members: ['lists-leave'],
        custom_properties: [{ name: 'shared' }] },
    ],
    teams: [
      { org: 'lists-org', slug: 'crew', members: ['lists-stay', 'lists-leave'] },
      { org: 'lists-other', slug: 'crew', members: ['lists-leave'] },
    ],
    organization_roles: [
      { org: 'lists-org', name: 'Lister', permissions: ['read_organization_custom_org_role'] },
      { org: 'lists-other', name: 'Lister', permissions: ['read_organization_custom_org_role'] },
    ],
    role_assignments: [
      { org: 'lists-org', role: 'Lister', user: 'lists-stay' },
      { org: 'lists-org', role: 'Lister', user: 'lists-leave' },
      { org: 'lists-org', role: 'all_repo_read', user: 'lists-leave' },
      { org: 'lists-other', role: 'Lister', user: 'lists-leave' },
    ],
    oidc: {
      enterprise_property_inclusions: ['keep', 'drop', 'shared'].map((name) => ({ enterprise: 'lists-ent', custom_property_name: name })),
      organization_property_inclusions: ['keep', 'drop', 'shared'].map((name) => ({ org: 'lists-org', custom_property_name: name })),
    },
  };

  beforeAll(async () => {
    await services.world.load(world);
    // The reload declares only the organization: what it no longer lists goes.
    await services.world.load({
      organizations: [{ login: 'lists-org', owners: ['lists-owner'], members: ['lists-stay'], custom_properties: [{ name: 'keep' }] }],
    });
  });

  it('removes a member no longer declared from the organization', async () => {
    const members = await db.knex('organization_members').where('org_id', await accountId('lists-org')).select('user_id');
    expect(await loginsOf(members)).toEqual(['lists-owner', 'lists-stay']);
  });

  it('removes the leaving member from the teams of that organization only', async () => {
    expect(await loginsOf(await db.knex('team_members').where('team_id', await teamId('lists-org', 'crew')).select('user_id'))).toEqual(['lists-stay']);
    expect(await loginsOf(await db.knex('team_members').where('team_id', await teamId('lists-other', 'crew')).select('user_id'))).toEqual(['lists-leave']);
  });

  it('removes the leaving member\'s role assignments in that organization only', async () => {
    const rows = await db.knex('organization_role_users as ru')
      .join('organization_roles as r', 'r.id', 'ru.role_id')
      .join('accounts as u', 'u.id', 'ru.user_id')
      .join('accounts as o', 'o.id', 'ru.org_id')
      .whereIn('o.login', ['lists-org', 'lists-other'])
      .select('o.login as org', 'u.login as user', 'r.name as role');
    expect(rows.map((r) => `${r.org}: ${r.user} as ${r.role}`).sort()).toEqual(['lists-org: lists-stay as Lister', 'lists-other: lists-leave as Lister']);
  });

  it('deletes a custom property no longer declared, with the organization OIDC inclusion naming it', async () => {
    const org = await accountId('lists-org');
    const properties = await db.knex('organization_custom_properties').where('org_id', org).select('name');
    expect(properties.map((p) => p.name)).toEqual(['keep']);
    const inclusions = await db.knex('organization_oidc_property_inclusions').where('org_id', org).select('custom_property_name');
    expect(inclusions.map((i) => i.custom_property_name)).toEqual(['keep']);
  });

  it('deletes an enterprise inclusion naming a property no organization of the enterprise defines any more, and keeps the others', async () => {
    const enterprise = await db.knex('enterprises').where('slug', 'lists-ent').first('id');
    const inclusions = await db.knex('enterprise_oidc_property_inclusions').where('enterprise_id', enterprise.id).select('custom_property_name');
    // "shared" is still defined by lists-other, so its inclusion stays.
    expect(inclusions.map((i) => i.custom_property_name).sort()).toEqual(['keep', 'shared']);
  });
});

describe('an alert declared without a number', () => {
  const world = {
    users: [{ login: 'numbering-owner' }],
    organizations: [{ login: 'numbering-org', owners: ['numbering-owner'] }],
    repositories: [{ owner: 'numbering-org', name: 'svc' }],
    alerts: [
      { repository: 'numbering-org/svc', number: 1, advisory: 'SVCSA-2026-0001', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'a/package-lock.json' },
      { repository: 'numbering-org/svc', number: 2, advisory: 'SVCSA-2026-0001', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'b/package-lock.json' },
      { repository: 'numbering-org/svc', advisory: 'SVCSA-2026-0001', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'c/package-lock.json' },
    ],
  };
  const alertsOfSvc = async () =>
    db.knex('dependency_alerts').where('repo_id', await repoId('numbering-org', 'svc')).orderBy('number').select('number', 'manifest_path');

  it('gets the next number in its repository', async () => {
    await services.world.load(world);
    expect(await alertsOfSvc()).toEqual([
      { number: 1, manifest_path: 'a/package-lock.json' },
      { number: 2, manifest_path: 'b/package-lock.json' },
      { number: 3, manifest_path: 'c/package-lock.json' },
    ]);
  });

  it('is not created a second time when the same file is loaded again', async () => {
    const before = await hashTables(db.knex);
    await services.world.load(world);
    expect(await alertsOfSvc()).toHaveLength(3);
    expect(await hashTables(db.knex)).toEqual(before);
  });
});

describe('a token declared without a value', () => {
  const world = {
    users: [{ login: 'generated-user' }],
    tokens: [{ type: 'classic', user: 'generated-user', scopes: ['read:org'] }],
  };

  it('is generated once, returned in the summary, and authenticates as its user', async () => {
    const summary = await services.world.load(world);
    expect(summary.generatedTokens).toEqual([
      { entry: 'tokens[0]', description: 'classic token for generated-user', token: expect.stringMatching(/^osp_[0-9A-Za-z]{36}$/) },
    ]);
    const token = summary.generatedTokens[0]!.token;
    const principal = await services.at(undefined).authenticator.authenticate(`Bearer ${token}`);
    expect(principal).toMatchObject({ kind: 'user', tokenType: 'classic', userId: await accountId('generated-user'), login: 'generated-user' });
    expect(JSON.stringify(await db.knex('tokens').select('*'))).not.toContain(token);
  });

  it('is not generated again when the same file is loaded again', async () => {
    const before = await hashTables(db.knex);
    const summary = await services.world.load(world);
    expect(summary.generatedTokens).toEqual([]);
    const counted = await db.knex('tokens').where('user_id', await accountId('generated-user')).count({ n: '*' }).first();
    expect(Number(counted?.n)).toBe(1);
    expect(await hashTables(db.knex)).toEqual(before);
  });
});

describe('a team parent cycle', () => {
  it('(a → b → a) is rejected naming the entry, and nothing is written', async () => {
    const error = await expectRejectedWithoutWriting({
      teams: [
        { org: 'acme-corp', slug: 'cycle-a', parent: 'cycle-b' },
        { org: 'acme-corp', slug: 'cycle-b', parent: 'cycle-a' },
      ],
    });
    // Judged on the end state: the message names a team of the cycle.
    expect(error.message).toMatch(/^teams\[[01]\] "acme-corp\/cycle-[ab]": the parent chain makes a cycle$/);
  });

  it('(a team its own parent) is rejected naming the entry', async () => {
    const error = await expectRejectedWithoutWriting({ teams: [{ org: 'acme-corp', slug: 'cycle-self', parent: 'cycle-self' }] });
    expect(error.message).toContain('teams[0] "acme-corp/cycle-self"');
    expect(error.message).toContain('cycle');
  });

  it('through a team already in the database is rejected too', async () => {
    // platform-infra's parent is platform; making platform its child closes the loop.
    const error = await expectRejectedWithoutWriting({ teams: [{ org: 'acme-corp', slug: 'platform', parent: 'platform-infra' }] });
    expect(error.message).toContain('teams[0] "acme-corp/platform"');
  });
});

describe('loading with replace', () => {
  let fresh: TestDatabase;
  let freshServices: Services;
  beforeAll(async () => {
    fresh = await createTestDatabase();
    freshServices = createServices(fresh);
    await freshServices.world.load({
      users: [{ login: 'first-only' }, { login: 'in-both' }],
      organizations: [{ login: 'first-org', owners: ['first-only'], members: ['in-both'] }],
      organization_roles: [{ org: 'first-org', name: 'First role', permissions: ['read_organization_custom_org_role'] }],
      tokens: [{ token: 'first_world_token', type: 'classic', user: 'first-only', scopes: ['read:org'] }],
    });
    await freshServices.world.load({ users: [{ login: 'in-both' }, { login: 'second-only' }] }, { replace: true });
  });
  afterAll(() => fresh.destroy());

  it('empties the database first: what only the first world declared is gone', async () => {
    const accounts = await fresh.knex('accounts').select('login');
    expect(accounts.map((a) => a.login).sort()).toEqual(['in-both', 'second-only']);
    expect(await fresh.knex('organizations').select('account_id')).toEqual([]);
    expect(await fresh.knex('tokens').select('id')).toEqual([]);
    await expect(freshServices.at(undefined).authenticator.authenticate('Bearer first_world_token')).rejects.toThrow('Bad credentials');
  });

  it('keeps the predefined organization roles, and only them', async () => {
    const roles = await fresh.knex('organization_roles').orderBy('id').select('name', 'org_id', 'source');
    expect(roles.sort((a, b) => (a.name < b.name ? -1 : 1))).toEqual(PREDEFINED_ROLE_NAMES.map((name) => ({ name, org_id: null, source: 'Predefined' })));
  });
});

describe('regressions found in review', () => {
  it('an unnumbered alert declared before a numbered one in the same repository keeps its own number, and a reload changes nothing', async () => {
    const world = {
      users: [{ login: 'reg-owner' }],
      organizations: [{ login: 'reg-org', owners: ['reg-owner'] }],
      repositories: [{ owner: 'reg-org', name: 'r' }],
      alerts: [
        { repository: 'reg-org/r', advisory: 'SVCSA-2026-0001', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'x/package.json' },
        { repository: 'reg-org/r', number: 1, advisory: 'SVCSA-2026-0001', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'y/package.json' },
      ],
    };
    await services.world.load(world);
    const rows = await db.knex('dependency_alerts').where('repo_id', await repoId('reg-org', 'r')).orderBy('number').select('number', 'manifest_path');
    expect(rows).toEqual([{ number: 1, manifest_path: 'y/package.json' }, { number: 2, manifest_path: 'x/package.json' }]);
    const before = await hashTables(db.knex);
    await services.world.load(world);
    expect(await hashTables(db.knex)).toEqual(before);
  });

  it('a valid reparenting is accepted whatever the order of the entries', async () => {
    await services.world.load({
      users: [{ login: 'reparent-owner' }],
      organizations: [{ login: 'reparent-org', owners: ['reparent-owner'] }],
      teams: [{ org: 'reparent-org', slug: 'a' }, { org: 'reparent-org', slug: 'b', parent: 'a' }],
    });
    await services.world.load({ teams: [{ org: 'reparent-org', slug: 'a', parent: 'b' }, { org: 'reparent-org', slug: 'b', parent: null }] });
    const a = await db.knex('teams').where('id', await teamId('reparent-org', 'a')).first('parent_id');
    expect(Number(a.parent_id)).toBe(await teamId('reparent-org', 'b'));
  });

  it('removing a custom property removes its values from the organization\'s repositories', async () => {
    await services.world.load({
      users: [{ login: 'prop-owner' }],
      organizations: [{ login: 'prop-org', owners: ['prop-owner'], custom_properties: [{ name: 'tier' }, { name: 'zone' }] }],
      repositories: [{ owner: 'prop-org', name: 'svc', custom_properties: { tier: 'gold', zone: 'eu' } }],
    });
    await services.world.load({ organizations: [{ login: 'prop-org', custom_properties: [{ name: 'zone' }] }] });
    const values = await db.knex('repository_custom_property_values').where('repo_id', await repoId('prop-org', 'svc')).select('name');
    expect(values.map((v) => v.name)).toEqual(['zone']);
    // Reloading the repository without the removed property works.
    await services.world.load({ repositories: [{ owner: 'prop-org', name: 'svc', custom_properties: { zone: 'us' } }] });
  });
});

describe('reloading keeps what the file leaves out, and updates what it changes', () => {
  it('an alert without created_at keeps its stored times and version on reload', async () => {
    const world = {
      users: [{ login: 'times-owner' }],
      organizations: [{ login: 'times-org', owners: ['times-owner'] }],
      repositories: [{ owner: 'times-org', name: 'r' }],
      alerts: [{ repository: 'times-org/r', number: 1, advisory: 'SVCSA-2026-0001', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'package.json' }],
    };
    await services.world.load(world);
    const repo = await repoId('times-org', 'r');
    await db.knex('dependency_alerts').where({ repo_id: repo }).update({ created_at: '2020-01-01T00:00:00Z', updated_at: '2020-01-02T00:00:00Z' });
    const before = await hashTables(db.knex);
    await services.world.load(world);
    expect(await hashTables(db.knex)).toEqual(before);
  });

  it('a token declared without a value can be revoked or narrowed by reloading its declaration', async () => {
    const token = { type: 'classic', user: 'alice', name: 'ci-token', scopes: ['admin:org', 'repo'] };
    const first = await services.world.load({ tokens: [token] });
    const raw = first.generatedTokens[0]!.token;
    const narrowed = await services.world.load({ tokens: [{ ...token, scopes: ['read:org'] }] });
    expect(narrowed.generatedTokens).toEqual([]);
    const principal = await services.at(undefined).authenticator.authenticate(`Bearer ${raw}`);
    expect(principal.kind === 'user' && principal.grant.kind === 'scopes' ? principal.grant.declared : []).toEqual(['read:org']);
    await services.world.load({ tokens: [{ ...token, revoked: true }] });
    await expect(services.at(undefined).authenticator.authenticate(`Bearer ${raw}`)).rejects.toThrow('Bad credentials');
  });

  it('two tokens declared without a value for the same user and owner need different names', async () => {
    const error = await expectRejectedWithoutWriting({
      tokens: [
        { type: 'classic', user: 'bob', scopes: ['repo'] },
        { type: 'classic', user: 'bob', scopes: ['read:org'] },
      ],
    });
    expect(error.message).toMatch(/^tokens\[1\]: declares the same token as tokens\[0\]/);
  });

  it('a custom role\'s updated_at moves when it changes, and only then', async () => {
    const role = { org: 'acme-corp', name: 'Timekeeper', permissions: ['read_organization_custom_org_role'] };
    await services.world.load({ organization_roles: [role] });
    await db.knex('organization_roles').where({ name: 'Timekeeper' }).update({ updated_at: '2020-01-01T00:00:00Z' });
    await services.world.load({ organization_roles: [role] });
    expect((await db.knex('organization_roles').where({ name: 'Timekeeper' }).first('updated_at')).updated_at).toBe('2020-01-01T00:00:00Z');
    await services.world.load({ organization_roles: [{ ...role, description: 'now described' }] });
    expect((await db.knex('organization_roles').where({ name: 'Timekeeper' }).first('updated_at')).updated_at).not.toBe('2020-01-01T00:00:00Z');
  });

  it('a role may be given by its id in a string', async () => {
    await services.world.load({ role_assignments: [{ org: 'acme-corp', role: '138', user: 'carol' }] });
    const carol = await accountId('carol');
    expect(await db.knex('organization_role_users').where({ user_id: carol, role_id: 138 })).toHaveLength(1);
  });

  it('a token value shaped like a generated token with a wrong checksum is refused', async () => {
    const error = await expectRejectedWithoutWriting({
      tokens: [{ token: 'osp_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa000000', type: 'classic', user: 'alice', scopes: ['repo'] }],
    });
    expect(error.message).toMatch(/tokens\[0\]\.token: .*checksum/);
  });
});

describe('advisory reloads keep the copies on alert rows true', () => {
  it('severity, classification and EPSS follow the advisory even when it stops naming the alert\'s package', async () => {
    const advisory = (severity: string, pkg: string) => ({
      svcsa_id: 'SVCSA-COPY-1', summary: 's', severity, published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
      epss: { percentage: severity === 'low' ? 0.1 : 0.9, percentile: '0.5' },
      vulnerabilities: [{ package: { ecosystem: 'npm', name: pkg }, severity, vulnerable_version_range: '< 2.0.0', first_patched_version: { identifier: '2.0.0' } }],
    });
    await services.world.load({
      users: [{ login: 'copy-owner' }], organizations: [{ login: 'copy-org', owners: ['copy-owner'] }], repositories: [{ owner: 'copy-org', name: 'r' }],
      advisories: [advisory('low', 'left-pad')],
      alerts: [{ repository: 'copy-org/r', number: 1, advisory: 'SVCSA-COPY-1', package: { ecosystem: 'npm', name: 'left-pad' }, manifest_path: 'package.json' }],
    });
    await services.world.load({ advisories: [advisory('critical', 'other-package')] });
    const row = await db.knex('dependency_alerts').where('repo_id', await repoId('copy-org', 'r')).first('severity', 'epss_percentage', 'has_patch');
    expect(row.severity).toBe('critical');
    expect(Number(row.epss_percentage)).toBe(0.9);
    expect(Boolean(row.has_patch)).toBe(false);
  });
});
