import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { importAdvisories } from '../helpers/advisory-import';
import { gql } from '../helpers/graphql';
import { bearer, createTestApp, type TestApp } from '../helpers/test-app';

// Auto-triage moving alerts, through the public API only (reference.md Part 2 "Alert
// lifecycle"): rules and presets written over REST and GraphQL dismiss matching open alerts
// (`auto_dismissed`) and give them back when they no longer match (`auto_reopened`): a rule
// deleted or disabled, a scope moved from development to runtime, a `dismiss_until_patch`
// advisory that gains a patch; enforcement across levels; the preset's defaults by visibility;
// a person's dismissal is never touched; a rule matching on creation records `created`, then
// `auto_dismissed`.

const ORG = 'tl-org';
const TOKEN = 'tl_owner_token';
const owner = bearer(TOKEN);
const REPOS = ['rules', 'creation', 'levels', 'patch', 'preset-public', 'preset-private', 'people', 'graphql'];

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'orgsec-triage-lifecycle-'));
  await t.load({
    users: [{ login: 'tl-owner' }],
    organizations: [{ login: ORG, owners: ['tl-owner'] }],
    repositories: REPOS.map((name) => ({ owner: ORG, name, private: name !== 'preset-public' })),
    tokens: [{ token: TOKEN, type: 'classic', user: 'tl-owner', scopes: ['repo', 'admin:org'] }],
  });
  await importOsv([
    osv('GHSA-tl00-0000-0001', 'left-pad', { fixed: '1.3.1', severity: 'LOW', cwes: ['CWE-400'] }),
    osv('GHSA-tl00-0000-0002', 'minimist', { fixed: '1.2.6', severity: 'HIGH', cwes: ['CWE-1321'] }),
    osv('GHSA-tl00-0000-0003', 'unpatched', { severity: 'MODERATE' }),
  ]);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function osv(id: string, name: string, o: { fixed?: string; severity: string; cwes?: string[]; modified?: string }) {
  return {
    schema_version: '1.6.0', id, modified: o.modified ?? '2026-01-02T00:00:00Z', published: '2026-01-01T00:00:00Z', aliases: [],
    summary: `${name} is vulnerable`, details: `A test advisory on ${name}.`,
    affected: [{ package: { ecosystem: 'npm', name }, ranges: [{ type: 'ECOSYSTEM', events: [{ introduced: '0' }, ...(o.fixed ? [{ fixed: o.fixed }] : [])] }] }],
    database_specific: { severity: o.severity, github_reviewed: true, cwe_ids: o.cwes ?? [] },
  };
}

let batches = 0;
async function importOsv(docs: object[]): Promise<void> {
  const batch = path.join(dir, `batch-${(batches += 1)}`);
  fs.mkdirSync(batch);
  for (const doc of docs) fs.writeFileSync(path.join(batch, `${(doc as { id: string }).id}.json`), JSON.stringify(doc));
  expect((await importAdvisories(t.db, [batch])).problems).toEqual([]);
}

let scans = 0;
/** S1 of one npm lock file: name → [version, scope]. */
async function submit(repo: string, packages: Record<string, [string, 'runtime' | 'development']>) {
  scans += 1;
  const resolved = Object.fromEntries(Object.entries(packages).map(([name, [version, scope]]) => [name, { package_url: `pkg:npm/${name}@${version}`, relationship: 'direct', scope }]));
  const res = await t.http().post(`/repos/${ORG}/${repo}/dependency-graph/snapshots`).set(owner).send({
    version: 0, sha: 'ce587453ced02b1526dfb4cb910479d431683101', ref: 'refs/heads/main',
    job: { id: `run-${scans}`, correlator: 'ci' }, detector: { name: 'detector', version: '1', url: 'https://example.com/d' },
    scanned: new Date(Date.UTC(2026, 4, 1) + scans * 1000).toISOString(),
    manifests: { 'package-lock.json': { name: 'package-lock.json', resolved } },
  });
  expect([res.status, res.body.result]).toEqual([201, 'SUCCESS']);
}

/** The repository's alerts as `number package state`, in number order. */
async function states(repo: string): Promise<string[]> {
  const res = await t.http().get(`/repos/${ORG}/${repo}/dependency-bot/alerts?state=open,fixed,dismissed,auto_dismissed&per_page=100`).set(owner);
  expect(res.status).toBe(200);
  return [...res.body].sort((a, b) => a.number - b.number).map((a) => `${a.number} ${a.dependency.package.name} ${a.state}`);
}

/** The repository's events as `action number`, in order. */
async function events(repo: string): Promise<string[]> {
  const repoId = Number((await t.db.knex('repositories').where('name', repo).first('id')).id);
  const rows = await t.db.knex('events').where('repo_id', repoId).orderBy('id').select('action', 'payload');
  return rows.map((row) => `${row.action} ${JSON.parse(row.payload).alert.number}`);
}

async function send(method: 'post' | 'patch' | 'put' | 'delete', url: string, body?: object) {
  const res = await t.http()[method](url).set(owner).send(body);
  expect(res.status).toBeLessThan(300);
  return res.body;
}

const orgRules = `/orgs/${ORG}/dependency-bot/rules`;
const repoRules = (repo: string) => `/repos/${ORG}/${repo}/dependency-bot/rules`;

describe('rules', () => {
  it('a new rule auto-dismisses the open alerts it matches; disabling or deleting it reopens them', async () => {
    await submit('rules', { 'left-pad': ['1.3.0', 'runtime'], minimist: ['1.2.0', 'runtime'] });
    expect(await states('rules')).toEqual(['1 left-pad open', '2 minimist open']);

    const rule = await send('post', repoRules('rules'), { name: 'Low severity', conditions: { severity: ['low'] } });
    expect(await states('rules')).toEqual(['1 left-pad auto_dismissed', '2 minimist open']);
    const dismissed = (await t.http().get(`/repos/${ORG}/rules/dependency-bot/alerts/1`).set(owner)).body;
    expect(dismissed.auto_dismissed_at).toEqual(expect.any(String));
    expect(dismissed.updated_at).toBe(dismissed.auto_dismissed_at);

    await send('patch', `${repoRules('rules')}/${rule.id}`, { enforcement: 'disabled' });
    expect(await states('rules')).toEqual(['1 left-pad open', '2 minimist open']);
    expect((await t.http().get(`/repos/${ORG}/rules/dependency-bot/alerts/1`).set(owner)).body.auto_dismissed_at).toBeNull();

    await send('patch', `${repoRules('rules')}/${rule.id}`, { enforcement: 'enabled' });
    expect(await states('rules')).toEqual(['1 left-pad auto_dismissed', '2 minimist open']);
    await send('delete', `${repoRules('rules')}/${rule.id}`);
    expect(await states('rules')).toEqual(['1 left-pad open', '2 minimist open']);
    expect(await events('rules')).toEqual(['created 1', 'created 2', 'auto_dismissed 1', 'auto_reopened 1', 'auto_dismissed 1', 'auto_reopened 1']);
  });

  it('an alert a rule matches when it is raised records `created`, then `auto_dismissed`', async () => {
    await send('post', repoRules('creation'), { name: 'Prototype dependencies', conditions: { package: ['minimist'] } });
    await submit('creation', { minimist: ['1.2.0', 'runtime'] });
    expect(await states('creation')).toEqual(['1 minimist auto_dismissed']);
    expect(await events('creation')).toEqual(['created 1', 'auto_dismissed 1']);
    // Upgraded past the range while auto-dismissed: fixed.
    await submit('creation', { minimist: ['1.2.6', 'runtime'] });
    expect(await states('creation')).toEqual(['1 minimist fixed']);
    expect(await events('creation')).toEqual(['created 1', 'auto_dismissed 1', 'fixed 1']);
  });

  it('an enforced organization rule applies whatever the repository says; an enabled one yields to a disabled repository rule with the same conditions', async () => {
    await submit('levels', { minimist: ['1.2.0', 'runtime'] });
    const conditions = { severity: ['high'], ecosystem: ['npm'] };
    await send('post', repoRules('levels'), { name: 'Not here', enforcement: 'disabled', conditions: { ecosystem: ['npm'], severity: ['high'] } });
    const orgRule = await send('post', orgRules, { name: 'High npm', enforcement: 'enabled', conditions });
    expect(await states('levels')).toEqual(['1 minimist open']);
    await send('patch', `${orgRules}/${orgRule.id}`, { enforcement: 'enforced' });
    expect(await states('levels')).toEqual(['1 minimist auto_dismissed']);
    await send('delete', `${orgRules}/${orgRule.id}`);
    expect(await states('levels')).toEqual(['1 minimist open']);
  });

  it('dismiss_until_patch holds while the advisory has no patch, and reopens the alert when an import brings one', async () => {
    await submit('patch', { unpatched: ['2.0.0', 'runtime'] });
    await send('post', repoRules('patch'), { name: 'Until patched', conditions: { package: ['unpatched'] }, action: 'dismiss_until_patch' });
    expect(await states('patch')).toEqual(['1 unpatched auto_dismissed']);
    await importOsv([osv('GHSA-tl00-0000-0003', 'unpatched', { severity: 'MODERATE', fixed: '2.1.0', modified: '2026-02-01T00:00:00Z' })]);
    expect(await states('patch')).toEqual(['1 unpatched open']);
    expect(await events('patch')).toEqual(['created 1', 'auto_dismissed 1', 'auto_reopened 1']);
  });

  it('never touches a person\'s dismissal', async () => {
    await submit('people', { minimist: ['1.2.0', 'runtime'] });
    await send('patch', `/repos/${ORG}/people/dependency-bot/alerts/1`, { state: 'dismissed', dismissed_reason: 'tolerable_risk' });
    const rule = await send('post', repoRules('people'), { name: 'Everything high', conditions: { severity: ['high'] } });
    await send('delete', `${repoRules('people')}/${rule.id}`);
    expect(await states('people')).toEqual(['1 minimist dismissed']);
    expect(await events('people')).toEqual(['created 1', 'dismissed 1']);
  });
});

describe('the low_impact_development preset', () => {
  it('is on by default for a public repository: npm development dependencies with a listed CWE, until the scope moves to runtime', async () => {
    await submit('preset-public', { 'left-pad': ['1.3.0', 'development'], minimist: ['1.2.0', 'development'] });
    // left-pad's advisory has CWE-400 (listed); minimist's CWE-1321 is not.
    expect(await states('preset-public')).toEqual(['1 left-pad auto_dismissed', '2 minimist open']);
    await submit('preset-public', { 'left-pad': ['1.3.0', 'runtime'], minimist: ['1.2.0', 'development'] });
    expect(await states('preset-public')).toEqual(['1 left-pad open', '2 minimist open']);
    await submit('preset-public', { 'left-pad': ['1.3.0', 'development'], minimist: ['1.2.0', 'development'] });
    expect(await states('preset-public')).toEqual(['1 left-pad auto_dismissed', '2 minimist open']);
    // The organization turns it off; the repository's null follows.
    await send('put', `/orgs/${ORG}/dependency-bot/presets`, { low_impact_development: false });
    expect(await states('preset-public')).toEqual(['1 left-pad open', '2 minimist open']);
    expect(await events('preset-public')).toEqual(['created 1', 'created 2', 'auto_dismissed 1', 'auto_reopened 1', 'auto_dismissed 1', 'auto_reopened 1']);
  });

  it('is off by default for a private repository, and the repository\'s own true beats its organization\'s false', async () => {
    await submit('preset-private', { 'left-pad': ['1.3.0', 'development'] });
    expect(await states('preset-private')).toEqual(['1 left-pad open']);
    await send('put', `/repos/${ORG}/preset-private/dependency-bot/presets`, { low_impact_development: true });
    expect(await states('preset-private')).toEqual(['1 left-pad auto_dismissed']);
    await send('put', `/repos/${ORG}/preset-private/dependency-bot/presets`, { low_impact_development: null });
    expect(await states('preset-private')).toEqual(['1 left-pad open']);
  });
});

describe('through GraphQL', () => {
  it('a rule created by a mutation dismisses at once, and deleting it reopens', async () => {
    await submit('graphql', { minimist: ['1.2.0', 'runtime'] });
    const created = await gql(t, 'mutation($input: CreateDependencyBotRuleInput!) { createDependencyBotRule(input: $input) { rule { id } } }', {
      token: TOKEN, variables: { input: { owner: ORG, repository: 'graphql', name: 'From GraphQL', conditions: { package: ['minimist'] } } },
    });
    expect(created.errors).toBeUndefined();
    const read = () => gql(t, `{ repository(owner: "${ORG}", name: "graphql") { dependencyAlerts(first: 10, states: [OPEN, AUTO_DISMISSED]) { edges { node { number state } } } } }`, { token: TOKEN });
    expect((await read()).data.repository.dependencyAlerts.edges).toEqual([{ node: { number: 1, state: 'AUTO_DISMISSED' } }]);
    const deleted = await gql(t, 'mutation($input: DeleteDependencyBotRuleInput!) { deleteDependencyBotRule(input: $input) { deletedRuleId } }', {
      token: TOKEN, variables: { input: { owner: ORG, repository: 'graphql', ruleId: created.data.createDependencyBotRule.rule.id } },
    });
    expect(deleted.errors).toBeUndefined();
    expect((await read()).data.repository.dependencyAlerts.edges).toEqual([{ node: { number: 1, state: 'OPEN' } }]);
  });
});
