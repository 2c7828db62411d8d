// A generated world for the dependency-alert tests: one enterprise with two organizations,
// public and private repositories, advisories with every combination of the facts the
// filters read, and several hundred alerts. Deterministic (seeded), so failures repeat.

export const ENTERPRISE = 'al-ent';
export const ORG = 'al-org';
export const OTHER_ORG = 'al-other';
export const REPOS = ['repo-0', 'repo-1', 'repo-2', 'repo-3', 'repo-4', 'repo-5'];
export const PRIVATE_REPOS = ['repo-0', 'repo-1', 'repo-2'];
export const DEVS = ['dev-0', 'dev-1', 'dev-2', 'dev-3'];
export const MANIFESTS = ['package-lock.json', 'web/package-lock.json', 'requirements.txt', 'Gemfile.lock'];
const TIMES = Array.from({ length: 12 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}T12:00:00Z`);

export const AL = {
  owner: 'alerts_token_owner',
  ownerPublicRepo: 'alerts_token_owner_public_repo',
  ownerReadOrg: 'alerts_token_owner_read_org',
  securityManager: 'alerts_token_security_manager',
  writer: 'alerts_token_writer',
  maintainer: 'alerts_token_maintainer',
  triager: 'alerts_token_triager',
  reader: 'alerts_token_reader',
  member: 'alerts_token_member',
  outsider: 'alerts_token_outsider',
  otherOwner: 'alerts_token_other_owner',
  entMember: 'alerts_token_ent_member',
  fine: 'alerts_token_fine',
  fineReadOnly: 'alerts_token_fine_read_only',
  fineSelected: 'alerts_token_fine_selected',
  installation: 'alerts_token_installation',
  installationOther: 'alerts_token_installation_other',
  expired: 'alerts_token_expired',
} as const;

/** mulberry32: a small seeded PRNG. */
function random(seed: number) {
  let a = seed;
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Advisory {
  svcsa_id: string;
  classification: 'general' | 'malware';
  severity: 'low' | 'medium' | 'high' | 'critical';
  epss: { percentage: number; percentile: string } | null;
  vulnerabilities: Array<{ package: { ecosystem: string; name: string }; first_patched_version: { identifier: string } | null }>;
}

export interface DeclaredAlert {
  repository: string;
  number: number;
  advisory: string;
  package: { ecosystem: string; name: string };
  manifest_path: string;
  scope: 'development' | 'runtime';
  relationship: 'unknown' | 'direct' | 'transitive' | 'inconclusive';
  state: 'open' | 'dismissed' | 'fixed' | 'auto_dismissed';
  created_at: string;
  updated_at: string;
  fixed_at?: string;
  auto_dismissed_at?: string;
  dismissed_at?: string;
  dismissed_by?: string;
  dismissed_reason?: string;
  assignees: string[];
}

const ECOSYSTEM_PACKAGES: Array<[string, string]> = [
  ['npm', 'left-pad'], ['npm', 'lodash'], ['pip', 'requests'], ['rubygems', 'rack'], ['maven', 'log4j-core'], ['go', 'x-net'], ['rust', 'hyper'],
];

export function makeAdvisories(): Advisory[] {
  const severities = ['low', 'medium', 'high', 'critical'] as const;
  return Array.from({ length: 8 }, (_, i) => {
    const [ecosystemA, nameA] = ECOSYSTEM_PACKAGES[i % ECOSYSTEM_PACKAGES.length]!;
    const [ecosystemB, nameB] = ECOSYSTEM_PACKAGES[(i + 3) % ECOSYSTEM_PACKAGES.length]!;
    return {
      svcsa_id: `SVCSA-TEST-${i}`,
      classification: i === 7 ? 'malware' : 'general',
      severity: severities[i % 4]!,
      epss: i % 3 === 2 ? null : { percentage: [0.0004, 0.25, 0.5, 0.75, 0.9, 1, 0.1, 0.33][i]!, percentile: '0.5' },
      vulnerabilities: [
        { package: { ecosystem: ecosystemA, name: nameA }, first_patched_version: i % 2 === 0 ? { identifier: '2.0.0' } : null },
        { package: { ecosystem: ecosystemB, name: nameB }, first_patched_version: { identifier: '9.9.9' } },
      ],
    };
  });
}

export function makeAlerts(count: number, seed: number, advisories: Advisory[], firstNumbers: Record<string, number> = {}): DeclaredAlert[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  const numbers: Record<string, number> = { ...firstNumbers };
  const repos = [...REPOS.map((r) => `${ORG}/${r}`), `${OTHER_ORG}/other-0`, `${OTHER_ORG}/other-1`];
  return Array.from({ length: count }, () => {
    const repository = pick(repos);
    numbers[repository] = (numbers[repository] ?? 0) + 1;
    const advisory = pick(advisories);
    const vulnerability = pick(advisory.vulnerabilities);
    const created = pick(TIMES);
    const updated = next() < 0.5 ? created : pick(TIMES.filter((t) => t >= created));
    const state = pick(['open', 'open', 'dismissed', 'fixed', 'auto_dismissed'] as const);
    const alert: DeclaredAlert = {
      repository,
      number: numbers[repository]!,
      advisory: advisory.svcsa_id,
      package: vulnerability.package,
      manifest_path: pick(MANIFESTS),
      scope: pick(['development', 'runtime'] as const),
      relationship: pick(['unknown', 'direct', 'transitive', 'inconclusive'] as const),
      state,
      created_at: created,
      updated_at: updated,
      assignees: DEVS.filter(() => next() < 0.2),
    };
    if (state === 'fixed') alert.fixed_at = updated;
    if (state === 'auto_dismissed') alert.auto_dismissed_at = updated;
    if (state === 'dismissed') Object.assign(alert, { dismissed_at: updated, dismissed_by: 'al-owner', dismissed_reason: pick(['fix_started', 'inaccurate', 'not_used']) });
    return alert;
  });
}

export function alertsWorld(alerts: DeclaredAlert[], advisories: Advisory[]) {
  const fine = { dependency_alerts: 'write' } as const;
  return {
    users: ['al-owner', 'al-secmgr', 'al-writer', 'al-maintainer', 'al-triager', 'al-reader', 'al-member', 'al-outsider', 'al-other-owner', 'al-ent-member', ...DEVS]
      .map((login) => ({ login })),
    enterprises: [{ slug: ENTERPRISE, owners: ['al-owner'], members: ['al-ent-member'] }],
    organizations: [
      { login: ORG, enterprise: ENTERPRISE, owners: ['al-owner'], members: ['al-secmgr', 'al-writer', 'al-maintainer', 'al-triager', 'al-member', ...DEVS] },
      { login: OTHER_ORG, enterprise: ENTERPRISE, owners: ['al-other-owner', 'al-owner'], members: ['al-secmgr'] },
    ],
    teams: [
      { org: ORG, slug: 'security', members: ['al-secmgr'] },
      { org: ORG, slug: 'devs', members: DEVS, repositories: REPOS.map((name) => ({ name, permission: 'read' })) },
      { org: ORG, slug: 'writers', members: ['al-writer'], repositories: REPOS.map((name) => ({ name, permission: 'write' })) },
    ],
    role_assignments: [{ org: ORG, role: 'security_manager', team: 'security' }],
    repositories: [
      ...REPOS.map((name, i) => ({
        owner: ORG, name, private: PRIVATE_REPOS.includes(name),
        collaborators: [
          { login: 'al-reader', permission: 'read' }, { login: 'al-triager', permission: 'triage' }, { login: 'al-maintainer', permission: 'maintain' },
        ],
        storage_records: i % 2 === 0 ? [{ artifact_registry: 'vendorx-artifactory', artifact_registry_url: `https://registry.example/${name}` }] : [],
        deployment_records: i < 3 ? [{ name: `${name}-prod`, runtime_risks: i === 0 ? ['internet-exposed', 'sensitive-data'] : ['lateral-movement'] }] : [],
      })),
      { owner: OTHER_ORG, name: 'other-0', private: true },
      { owner: OTHER_ORG, name: 'other-1', private: false },
    ],
    advisories: advisories.map((a) => ({
      ...a, summary: `Advisory ${a.svcsa_id}`, description: 'A test advisory.', published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z',
      cvss: { vector_string: 'CVSS:3.1/AV:N', score: 5 }, identifiers: [{ type: 'SVCSA', value: a.svcsa_id }],
      vulnerabilities: a.vulnerabilities.map((v) => ({ ...v, severity: a.severity, vulnerable_version_range: '< 9.9.9' })),
    })),
    alerts,
    tokens: [
      { token: AL.owner, type: 'classic', user: 'al-owner', scopes: ['repo', 'admin:org'] },
      { token: AL.ownerPublicRepo, type: 'classic', user: 'al-owner', scopes: ['public_repo'] },
      { token: AL.ownerReadOrg, type: 'classic', user: 'al-owner', scopes: ['read:org'] },
      { token: AL.securityManager, type: 'classic', user: 'al-secmgr', scopes: ['security_events'] },
      { token: AL.writer, type: 'classic', user: 'al-writer', scopes: ['security_events'] },
      { token: AL.maintainer, type: 'classic', user: 'al-maintainer', scopes: ['security_events'] },
      { token: AL.triager, type: 'classic', user: 'al-triager', scopes: ['security_events'] },
      { token: AL.reader, type: 'classic', user: 'al-reader', scopes: ['security_events'] },
      { token: AL.member, type: 'classic', user: 'al-member', scopes: ['security_events'] },
      { token: AL.outsider, type: 'classic', user: 'al-outsider', scopes: ['repo'] },
      { token: AL.otherOwner, type: 'classic', user: 'al-other-owner', scopes: ['repo'] },
      { token: AL.entMember, type: 'classic', user: 'al-ent-member', scopes: ['repo'] },
      { token: AL.fine, type: 'fine_grained', user: 'al-owner', resource_owner: ORG, permissions: fine },
      { token: AL.fineReadOnly, type: 'fine_grained', user: 'al-owner', resource_owner: ORG, permissions: { dependency_alerts: 'read' } },
      { token: AL.fineSelected, type: 'fine_grained', user: 'al-owner', resource_owner: ORG, repositories: ['repo-1', 'repo-4'], permissions: fine },
      { token: AL.installation, type: 'installation', app: 'scanner', resource_owner: ORG, permissions: fine },
      { token: AL.installationOther, type: 'installation', app: 'scanner', resource_owner: OTHER_ORG, permissions: fine },
      { token: AL.expired, type: 'classic', user: 'al-owner', scopes: ['repo'], expires_at: '2020-01-01T00:00:00Z' },
    ],
  };
}
