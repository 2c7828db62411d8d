import { createServices, type Services } from '../../src/composition';
import type { TriagePolicies } from '../../src/modules/auto-triage/triage-policy';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// The engine's auto-triage transitions on a real database, with the triage policy given as a
// plain function (the rules and presets come with the auto-triage branch): an alert a policy
// matches on creation records `created` then `auto_dismissed`; it is auto-reopened when the
// policy stops matching (scope moved to runtime) or a dismiss_until_patch rule's vulnerability
// gains a patch. Snapshots and advisories come from world files, through S1's own recording.

const policies: TriagePolicies = {
  forRepositories: async (_db, repoIds) => new Map(repoIds.map((id) => [id, (facts) => {
    if (facts.packageName === 'dev-pkg' && facts.scope === 'development') return { kind: 'preset', preset: 'low_impact_development' };
    if (facts.packageName === 'rule-pkg' && !facts.hasPatch) return { kind: 'rule', ruleId: 1, action: 'dismiss_until_patch' };
    return null;
  }])),
};

let db: TestDatabase;
let services: Services;
beforeAll(async () => {
  db = await createTestDatabase();
  services = createServices(db, { triagePolicies: policies });
});
afterAll(() => db.destroy());

const advisory = (svcsa: string, name: string, patched: string | null) => ({
  svcsa_id: svcsa, summary: svcsa, severity: 'low', published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z',
  vulnerabilities: [{ package: { ecosystem: 'npm', name }, severity: 'low', vulnerable_version_range: '< 2.0.0', first_patched_version: patched === null ? null : { identifier: patched } }],
});
let scans = 0;
const snapshot = (devScope: string) => ({
  repository: 'tr-org/app', version: 0, sha: 'ce587453ced02b1526dfb4cb910479d431683101', ref: 'refs/heads/main',
  job: { id: `scan-${scans}`, correlator: 'ci' }, detector: { name: 'd', version: '1', url: 'https://example.com/d' },
  scanned: new Date(Date.UTC(2026, 2, 1) + (scans += 1) * 1000).toISOString(),
  manifests: { lock: { name: 'package-lock.json', resolved: {
    dev: { package_url: 'pkg:npm/dev-pkg@1.0.0', scope: devScope },
    rule: { package_url: 'pkg:npm/rule-pkg@1.0.0' },
  } } },
});

async function states(): Promise<Array<[number, string, string | null]>> {
  const rows = await db.knex('dependency_alerts').orderBy('number').select('number', 'state', 'auto_dismissed_by');
  return rows.map((r) => [Number(r.number), r.state, r.auto_dismissed_by ?? null]);
}

async function events(): Promise<Array<[string, number, string]>> {
  const rows = await db.knex('events').orderBy('id').select('action', 'payload');
  return rows.map((r) => {
    const { alert } = JSON.parse(r.payload);
    return [r.action, alert.number, alert.state];
  });
}

it('dismisses on creation (created, then auto_dismissed) and reopens when the policy stops matching', async () => {
  await services.world.load({
    users: [{ login: 'tr-owner' }],
    organizations: [{ login: 'tr-org', owners: ['tr-owner'] }],
    repositories: [{ owner: 'tr-org', name: 'app', private: true }],
    advisories: [advisory('SVCSA-TR-1', 'dev-pkg', '2.0.0'), advisory('SVCSA-TR-2', 'rule-pkg', null)],
    dependency_snapshots: [snapshot('development')],
  });
  expect(await states()).toEqual([[1, 'auto_dismissed', 'preset'], [2, 'auto_dismissed', 'rule']]);
  expect(await events()).toEqual([['created', 1, 'open'], ['created', 2, 'open'], ['auto_dismissed', 1, 'auto_dismissed'], ['auto_dismissed', 2, 'auto_dismissed']]);

  // dev-pkg moved to runtime: the preset no longer matches.
  await services.world.load({ dependency_snapshots: [snapshot('runtime')] });
  expect(await states()).toEqual([[1, 'open', null], [2, 'auto_dismissed', 'rule']]);

  // rule-pkg's advisory gains a patched version: the dismiss_until_patch rule lets go.
  await services.world.load({ advisories: [advisory('SVCSA-TR-2', 'rule-pkg', '2.0.0')] });
  expect(await states()).toEqual([[1, 'open', null], [2, 'open', null]]);
  expect((await events()).slice(4)).toEqual([['auto_reopened', 1, 'open'], ['auto_reopened', 2, 'open']]);
  const alert = await db.knex('dependency_alerts').where('number', 2).first('auto_dismissed_at', 'has_patch');
  expect(alert.auto_dismissed_at).toBeNull();
  expect(Boolean(alert.has_patch)).toBe(true);
});
