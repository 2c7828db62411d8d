// The small world the model-based test runs in: one organization (with a sibling in the same
// enterprise), two repositories, eight alerts in every state, a team hierarchy, and one caller
// of each kind. The model's static facts below are read off this declaration, never off the API.

export const ENTERPRISE = 'mb-ent';
export const ORG = 'mb-org';
export const SIBLING_ORG = 'mb-sibling';
export const REPOS = [`${ORG}/app-private`, `${ORG}/app-public`] as const;
export type RepoName = (typeof REPOS)[number];
export const PRIVATE_REPOS: readonly RepoName[] = [`${ORG}/app-private`];

export const USERS = ['mb-owner', 'mb-secmgr', 'mb-writer', 'mb-reader', 'mb-outsider', 'mb-dev-a', 'mb-dev-b'] as const;
export type Login = (typeof USERS)[number];

/** The callers; `anonymous` sends no token. Every token carries every scope these operations accept,
 * so a refusal is always about who the caller is, which the model decides. */
export const CALLERS = ['owner', 'secmgr', 'writer', 'reader', 'outsider', 'member', 'anonymous'] as const;
export type Caller = (typeof CALLERS)[number];
export const CALLER_LOGIN: Record<Exclude<Caller, 'anonymous'>, Login> = {
  owner: 'mb-owner', secmgr: 'mb-secmgr', writer: 'mb-writer', reader: 'mb-reader', outsider: 'mb-outsider', member: 'mb-dev-a',
};
export const tokenOf = (caller: Exclude<Caller, 'anonymous'>) => `model_token_${caller}`;

export const ORG_OWNERS: readonly Login[] = ['mb-owner'];
export const ORG_MEMBERS: readonly Login[] = ['mb-secmgr', 'mb-writer', 'mb-dev-a', 'mb-dev-b'];
export const ENTERPRISE_OWNERS: readonly Login[] = ['mb-owner'];

export type RepoPermission = 'read' | 'triage' | 'write' | 'maintain' | 'admin';
export interface TeamFacts { slug: string; parent: string | null; members: Login[]; repositories: Array<{ repo: RepoName; permission: RepoPermission }> }
export const TEAMS: readonly TeamFacts[] = [
  { slug: 'security', parent: null, members: ['mb-secmgr'], repositories: [] },
  { slug: 'writers', parent: null, members: ['mb-writer'], repositories: REPOS.map((repo) => ({ repo, permission: 'write' as const })) },
  { slug: 'platform', parent: null, members: ['mb-dev-b'], repositories: [] },
  { slug: 'platform-ci', parent: 'platform', members: ['mb-dev-a'], repositories: [] },
];
export const COLLABORATORS: ReadonlyArray<{ repo: RepoName; login: Login; permission: RepoPermission }> = [
  { repo: `${ORG}/app-private`, login: 'mb-reader', permission: 'read' },
];

export interface RoleFacts { name: string; permissions: string[]; baseRole: RepoPermission | null; predefined: boolean }
/** The roles the commands use: predefined ones (as the migration defines them) and this organization's custom roles. */
export const ROLES: readonly RoleFacts[] = [
  {
    name: 'security_manager', baseRole: 'read', predefined: true,
    permissions: ['read_organization_security_alerts', 'write_organization_security_alerts', 'read_organization_security_configuration', 'write_organization_security_configuration'],
  },
  { name: 'all_repo_read', permissions: [], baseRole: 'read', predefined: true },
  { name: 'all_repo_write', permissions: [], baseRole: 'write', predefined: true },
  {
    name: 'ci_cd_admin', baseRole: null, predefined: true,
    permissions: ['write_organization_actions_secrets', 'write_organization_actions_settings', 'write_organization_actions_variables', 'write_organization_runners_and_runner_groups', 'write_organization_oidc_settings'],
  },
  { name: 'Auditor', permissions: ['read_organization_custom_org_role'], baseRole: null, predefined: false },
  { name: 'Pipeline', permissions: ['write_organization_oidc_settings'], baseRole: 'maintain', predefined: false },
];
/** A role of the sibling organization: unknown in this one. */
export const FOREIGN_ROLE = 'Foreign role';
export const INITIAL_TEAM_ROLES: ReadonlyArray<{ team: string; role: string }> = [{ team: 'security', role: 'security_manager' }];
export const INITIAL_USER_ROLES: ReadonlyArray<{ user: Login; role: string }> = [{ user: 'mb-dev-b', role: 'Auditor' }];

export const ORG_PROPERTIES = ['environment', 'team', 'cost.center'];
export const SIBLING_PROPERTIES = ['region'];
export const INITIAL_OIDC = {
  orgInclusions: ['team'],
  enterpriseInclusions: ['environment'],
  orgTemplate: { include_claim_keys: ['repo', 'context', 'job_workflow_ref'], use_immutable_subject: true },
  repoTemplates: [{ repository: `${ORG}/app-private` as RepoName, use_default: false }],
};

const ADVISORIES = [
  { svcsa_id: 'SVCSA-MODEL-0001', severity: 'high', package: { ecosystem: 'npm', name: 'left-pad' } },
  { svcsa_id: 'SVCSA-MODEL-0002', severity: 'critical', package: { ecosystem: 'pip', name: 'requests' } },
] as const;

export type AlertState = 'open' | 'dismissed' | 'fixed' | 'auto_dismissed';
export interface DeclaredAlert {
  repository: RepoName; number: number; advisory: string; package: { ecosystem: string; name: string }; manifest_path: string;
  scope: 'runtime' | 'development'; relationship: 'direct' | 'transitive'; state: AlertState; created_at: string; updated_at: string;
  fixed_at: string | null; auto_dismissed_at: string | null; dismissed_at: string | null; dismissed_by: Login | null;
  dismissed_reason: string | null; dismissed_comment: string | null; assignees: Login[];
}

/** Four alerts per repository, one in each state, with and without assignees and comments. */
export const ALERTS: readonly DeclaredAlert[] = REPOS.flatMap((repository, r) =>
  (['open', 'dismissed', 'fixed', 'auto_dismissed'] as const).map((state, i): DeclaredAlert => {
    const advisory = ADVISORIES[(r + i) % ADVISORIES.length]!;
    const created = `2026-03-0${i + 1}T1${r}:00:00Z`;
    const updated = `2026-04-0${i + 1}T1${r}:30:00Z`;
    return {
      repository, number: i + 1, advisory: advisory.svcsa_id, package: { ...advisory.package }, manifest_path: i % 2 ? 'requirements.txt' : 'package-lock.json',
      scope: i % 2 ? 'development' : 'runtime', relationship: r ? 'transitive' : 'direct', state, created_at: created, updated_at: updated,
      fixed_at: state === 'fixed' ? updated : null, auto_dismissed_at: state === 'auto_dismissed' ? updated : null,
      dismissed_at: state === 'dismissed' ? updated : null, dismissed_by: state === 'dismissed' ? 'mb-owner' : null,
      dismissed_reason: state === 'dismissed' ? 'inaccurate' : null, dismissed_comment: state === 'dismissed' && r === 0 ? 'Seen before.' : null,
      assignees: i === 0 ? ['mb-writer'] : [],
    };
  }));

const TOKEN_SCOPES = ['repo', 'admin:org', 'admin:enterprise'];

/** The world file. */
export function modelWorld() {
  return {
    users: USERS.map((login) => ({ login })),
    enterprises: [{ slug: ENTERPRISE, owners: [...ENTERPRISE_OWNERS] }],
    organizations: [
      { login: ORG, enterprise: ENTERPRISE, organization_roles_enabled: true, owners: [...ORG_OWNERS], members: [...ORG_MEMBERS],
        custom_properties: ORG_PROPERTIES.map((name) => ({ name })) },
      { login: SIBLING_ORG, enterprise: ENTERPRISE, organization_roles_enabled: true, owners: ['mb-owner'],
        custom_properties: SIBLING_PROPERTIES.map((name) => ({ name })) },
    ],
    teams: [
      ...TEAMS.map((team) => ({
        org: ORG, slug: team.slug, parent: team.parent, members: team.members,
        repositories: team.repositories.map((g) => ({ name: g.repo.split('/')[1]!, permission: g.permission })),
      })),
      { org: SIBLING_ORG, slug: 'sibling-team' },
    ],
    organization_roles: [
      ...ROLES.filter((r) => !r.predefined).map((r) => ({ org: ORG, name: r.name, permissions: r.permissions, base_role: r.baseRole })),
      { org: SIBLING_ORG, name: FOREIGN_ROLE, permissions: ['write_organization_oidc_settings'] },
    ],
    role_assignments: [
      ...INITIAL_TEAM_ROLES.map((a) => ({ org: ORG, role: a.role, team: a.team })),
      ...INITIAL_USER_ROLES.map((a) => ({ org: ORG, role: a.role, user: a.user })),
    ],
    repositories: REPOS.map((full) => ({
      owner: ORG, name: full.split('/')[1]!, private: PRIVATE_REPOS.includes(full),
      collaborators: COLLABORATORS.filter((c) => c.repo === full).map((c) => ({ login: c.login, permission: c.permission })),
    })),
    advisories: ADVISORIES.map((a) => ({
      svcsa_id: a.svcsa_id, summary: `Advisory ${a.svcsa_id}`, severity: a.severity, published_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-02T00:00:00Z',
      vulnerabilities: [{ package: a.package, severity: a.severity, vulnerable_version_range: '< 2.0.0', first_patched_version: { identifier: '2.0.0' } }],
    })),
    alerts: ALERTS.map((a) => ({ ...a })),
    oidc: {
      enterprise_property_inclusions: INITIAL_OIDC.enterpriseInclusions.map((name) => ({ enterprise: ENTERPRISE, custom_property_name: name })),
      organization_property_inclusions: INITIAL_OIDC.orgInclusions.map((name) => ({ org: ORG, custom_property_name: name })),
      organization_subject_templates: [{ org: ORG, ...INITIAL_OIDC.orgTemplate }],
      repository_subject_templates: INITIAL_OIDC.repoTemplates,
    },
    tokens: (Object.keys(CALLER_LOGIN) as Array<keyof typeof CALLER_LOGIN>).map((caller) => ({
      token: tokenOf(caller), type: 'classic', user: CALLER_LOGIN[caller], scopes: TOKEN_SCOPES,
    })),
  };
}
