import type { Permissions, Scope } from '../../src/auth/grants';
import { CLASSIC_SCOPES } from '../../src/auth/grants';
import { generateToken } from '../../src/auth/token-format';
import type { Target } from './access-oracle';

// The world of the access matrix (issue 8): two organizations in two enterprises, a private,
// a public and a user-owned repository, and one caller of every kind the rules tell apart.
// Every fact the oracle (access-oracle.ts) needs is read from this world, never retyped.

export const ORG = 'sec-org';
export const OTHER_ORG = 'sec-other';
export const ENT = 'sec-ent';
export const OTHER_ENT = 'other-ent';
export const MISSING_ORG = 'no-such-org';
export const MISSING_ENT = 'no-such-ent';

export const REPO = {
  private: { owner: ORG, name: 'private-repo' },
  public: { owner: ORG, name: 'public-repo' },
  userOwned: { owner: 'solo', name: 'solo-repo' },
  missing: { owner: ORG, name: 'no-such-repo' },
  /** Outside every fine-grained token that is limited to selected repositories. */
  other: { owner: ORG, name: 'other-repo' },
  foreign: { owner: OTHER_ORG, name: 'foreign-repo' },
} as const;

/** The targets every operation is tried on, by kind; the last of each kind does not exist. */
export const TARGETS: Record<Target['kind'], Array<{ label: string; target: Target }>> = {
  org: [
    { label: 'the owner\'s organization', target: { kind: 'org', login: ORG } },
    { label: 'another organization', target: { kind: 'org', login: OTHER_ORG } },
    { label: 'a missing organization', target: { kind: 'org', login: MISSING_ORG } },
  ],
  enterprise: [
    { label: 'the enterprise', target: { kind: 'enterprise', slug: ENT } },
    { label: 'another enterprise', target: { kind: 'enterprise', slug: OTHER_ENT } },
    { label: 'a missing enterprise', target: { kind: 'enterprise', slug: MISSING_ENT } },
  ],
  repo: [
    { label: 'a private repository', target: { kind: 'repo', ...REPO.private } },
    { label: 'a public repository', target: { kind: 'repo', ...REPO.public } },
    { label: 'a user-owned repository', target: { kind: 'repo', ...REPO.userOwned } },
    { label: 'a missing repository', target: { kind: 'repo', ...REPO.missing } },
  ],
};
export const missingTarget = (kind: Target['kind']): Target => TARGETS[kind].at(-1)!.target;

/** Members of no team, holders of nothing: role assignments to them change no caller's access. */
export const SCRATCH_TEAM = 'scratch';
export const NEWCOMER = 'newcomer';
export const FOREIGN_TEAM = 'foreign-team';
export const CUSTOM_ROLE = 'Role reader';
export const FOREIGN_ROLE = 'Foreign reader';
export const ADVISORY = 'SVCSA-sec-0001';

const ALL_SCOPES = [...CLASSIC_SCOPES];
const ALL_WRITE: Permissions = {
  organization_custom_roles: 'write', members: 'write', organization_administration: 'write', enterprise_administration: 'write',
  actions: 'write', attestations: 'write', dependency_alerts: 'write', contents: 'write', organization_hooks: 'write', repository_hooks: 'write',
};
const ALL_READ: Permissions = Object.fromEntries(Object.keys(ALL_WRITE).map((key) => [key, 'read']));

export interface TokenDeclaration {
  token: string;
  type: 'classic' | 'oauth' | 'fine_grained' | 'app_user' | 'installation';
  user?: string;
  app?: string;
  scopes?: Scope[];
  permissions?: Permissions;
  resource_owner?: string;
  repositories?: 'all' | string[];
  expires_at?: string;
  revoked?: boolean;
}

/** A caller: its Authorization header (none for anonymous) and, for a valid one, the token the world declares. */
export interface Caller {
  key: string;
  name: string;
  header?: string;
  /** Declared but refused (expired, revoked) or never declared (malformed, bad checksum). */
  refused?: boolean;
  token?: TokenDeclaration;
}

const classic = (key: string, user: string, scopes: Scope[] = ALL_SCOPES, extra: Partial<TokenDeclaration> = {}): TokenDeclaration =>
  ({ token: `sec_${key}`, type: 'classic', user, scopes, ...extra });
const fine = (key: string, user: string, owner: string, permissions: Permissions, repositories: 'all' | string[] = 'all'): TokenDeclaration =>
  ({ token: `sec_${key}`, type: 'fine_grained', user, resource_owner: owner, permissions, repositories });
const installation = (key: string, owner: string, permissions: Permissions, repositories: 'all' | string[] = 'all'): TokenDeclaration =>
  ({ token: `sec_${key}`, type: 'installation', app: 'sec-bot', resource_owner: owner, permissions, repositories });

/** A generated-looking token whose checksum is wrong: refused before any look-up. */
function badChecksumToken(): string {
  const valid = generateToken('classic');
  const last = valid.at(-1)!;
  return `${valid.slice(0, -1)}${last === 'A' ? 'B' : 'A'}`;
}

const TOKEN_CALLERS: Array<[string, string, TokenDeclaration]> = [
  ['an organization owner (classic, all scopes)', 'owner', classic('owner', 'owner')],
  ['the owner of another organization (classic, all scopes)', 'other_owner', classic('other_owner', 'other-owner')],
  ['a member without any role', 'member', classic('member', 'member')],
  ['a member holding a custom role that reads roles', 'role_reader', classic('role_reader', 'role-reader')],
  ['a security manager', 'sec_manager', classic('sec_manager', 'sec-manager')],
  ['a ci_cd_admin', 'ci_admin', classic('ci_admin', 'ci-admin')],
  ['a member holding all_repo_write through a team', 'team_writer', classic('team_writer', 'team-writer')],
  ['a read collaborator', 'reader', classic('reader', 'reader-collab')],
  ['a write collaborator', 'writer', classic('writer', 'writer-collab')],
  ['the owner of a user-owned repository', 'solo', classic('solo', 'solo')],
  ...ALL_SCOPES.map((scope): [string, string, TokenDeclaration] => {
    const key = `owner_only_${scope.replace(':', '_')}`;
    return [`the owner with only ${scope}`, key, classic(key, 'owner', [scope])];
  }),
  ['the owner through an OAuth app', 'owner_oauth', { ...classic('owner_oauth', 'owner'), type: 'oauth' }],
  ['an owner\'s fine-grained token with every permission', 'fine', fine('fine', 'owner', ORG, ALL_WRITE)],
  ['an owner\'s fine-grained token with read permissions only', 'fine_read', fine('fine_read', 'owner', ORG, ALL_READ)],
  ['an owner\'s fine-grained token for another organization', 'fine_other_org', fine('fine_other_org', 'owner', OTHER_ORG, ALL_WRITE)],
  ['an owner\'s fine-grained token limited to other repositories', 'fine_other_repos', fine('fine_other_repos', 'owner', ORG, ALL_WRITE, [REPO.other.name])],
  ['a member\'s fine-grained token with every permission', 'fine_member', fine('fine_member', 'member', ORG, ALL_WRITE)],
  ['an enterprise owner\'s fine-grained token for the enterprise', 'fine_enterprise', fine('fine_enterprise', 'ent-owner', ENT, ALL_WRITE)],
  ['an owner\'s app user token', 'app_user', { ...fine('app_user', 'owner', ORG, ALL_WRITE), type: 'app_user', app: 'sec-dashboard' }],
  ['an installation with every permission', 'installation', installation('installation', ORG, ALL_WRITE)],
  ['an installation without the permissions', 'installation_none', installation('installation_none', ORG, { actions: 'read' })],
  ['an installation on selected repositories', 'installation_selected', installation('installation_selected', ORG, ALL_WRITE, [REPO.public.name])],
  ['an installation on another organization', 'installation_other', installation('installation_other', OTHER_ORG, ALL_WRITE)],
  ['an enterprise owner', 'ent_owner', classic('ent_owner', 'ent-owner')],
  ['an enterprise member', 'ent_member', classic('ent_member', 'ent-member')],
];

const REFUSED_TOKENS: TokenDeclaration[] = [
  classic('expired', 'owner', ALL_SCOPES, { expires_at: '2020-01-01T00:00:00Z' }),
  classic('revoked', 'owner', ALL_SCOPES, { revoked: true }),
];

export const CALLERS: Caller[] = [
  { key: 'anonymous', name: 'no token' },
  { key: 'expired', name: 'an expired token', header: `Bearer ${REFUSED_TOKENS[0]!.token}`, refused: true },
  { key: 'revoked', name: 'a revoked token', header: `Bearer ${REFUSED_TOKENS[1]!.token}`, refused: true },
  { key: 'malformed', name: 'a malformed Authorization header', header: 'Bearer two words', refused: true },
  { key: 'bad_checksum', name: 'a token with a bad checksum', header: `Bearer ${badChecksumToken()}`, refused: true },
  { key: 'unknown', name: 'a well-formed token that was never issued', header: `Bearer ${generateToken('classic')}`, refused: true },
  { key: 'basic', name: 'Basic credentials', header: `Basic ${Buffer.from('owner:password').toString('base64')}`, refused: true },
  ...TOKEN_CALLERS.map(([name, key, token]): Caller => ({ key, name, header: `Bearer ${token.token}`, token })),
];

export function callerByKey(key: string): Caller {
  const caller = CALLERS.find((c) => c.key === key);
  if (!caller) throw new Error(`no caller ${key}`);
  return caller;
}

/** Custom properties each caller creates (add_) and deletes (del_) inclusions of: rows stay independent. */
export const addProperty = (caller: Caller) => `add_${caller.key}`;
export const deleteProperty = (caller: Caller) => `del_${caller.key}`;

/**
 * The auto-triage rule of each target the rule operations are tried on, declared in this order,
 * so on a fresh database the rule of the n-th owner has id n (a missing target names rule 1).
 */
export const RULE_OWNERS: ReadonlyArray<{ target: Target; declared: { org: string } | { repository: string } }> = [
  { target: { kind: 'org', login: ORG }, declared: { org: ORG } },
  { target: { kind: 'org', login: OTHER_ORG }, declared: { org: OTHER_ORG } },
  ...[REPO.private, REPO.public, REPO.userOwned].map((r) => ({ target: { kind: 'repo', ...r } as Target, declared: { repository: `${r.owner}/${r.name}` } })),
];
export const MATRIX_RULE = { name: 'matrix', enforcement: 'enabled', conditions: { severity: ['low'] }, action: 'dismiss' } as const;
export function ruleIdOf(target: Target): number {
  const at = RULE_OWNERS.findIndex((o) => JSON.stringify(o.target) === JSON.stringify(target));
  return at < 0 ? 1 : at + 1;
}

/**
 * The hook of each target the hook operations are tried on, declared in the rules' order, so on a
 * fresh database the hook of the n-th owner has id n, and (recordMatrixDeliveries) its one
 * delivery attempt id n too; a missing target names hook 1.
 */
export const HOOK_OWNERS = RULE_OWNERS;
export const MATRIX_HOOK = { config: { url: 'https://hooks.example.com/matrix' }, events: ['dependency_bot_alert'], active: false } as const;
export const hookIdOf = ruleIdOf;

const alert = (repo: { owner: string; name: string }, number: number) => ({
  repository: `${repo.owner}/${repo.name}`, number, advisory: ADVISORY, package: { ecosystem: 'npm', name: 'left-pad' },
  manifest_path: 'package-lock.json', state: 'open', created_at: '2026-02-01T10:00:00Z', updated_at: '2026-02-01T10:00:00Z', assignees: [],
});

export function securityWorld() {
  const properties = CALLERS.flatMap((c) => [addProperty(c), deleteProperty(c)]).map((name) => ({ name, value_type: 'string' }));
  const deletable = CALLERS.map(deleteProperty);
  const orgMembers = ['member', 'role-reader', 'sec-manager', 'ci-admin', 'team-writer', NEWCOMER];
  return {
    users: ['owner', 'other-owner', ...orgMembers, 'reader-collab', 'writer-collab', 'solo', 'ent-owner', 'ent-member'].map((login) => ({ login })),
    enterprises: [
      { slug: ENT, name: 'Security Enterprise', owners: ['owner', 'ent-owner'], members: ['ent-member'] },
      { slug: OTHER_ENT, name: 'Other Enterprise', owners: ['other-owner'] },
    ],
    organizations: [
      { login: ORG, enterprise: ENT, organization_roles_enabled: true, owners: ['owner'], members: orgMembers, custom_properties: properties },
      { login: OTHER_ORG, enterprise: OTHER_ENT, organization_roles_enabled: true, owners: ['other-owner'], members: [NEWCOMER], custom_properties: properties },
    ],
    teams: [
      { org: ORG, slug: 'writers', members: ['team-writer'] },
      { org: ORG, slug: SCRATCH_TEAM },
      { org: OTHER_ORG, slug: SCRATCH_TEAM },
      { org: OTHER_ORG, slug: FOREIGN_TEAM },
    ],
    organization_roles: [
      { org: ORG, name: CUSTOM_ROLE, permissions: ['read_organization_custom_org_role'] },
      { org: OTHER_ORG, name: FOREIGN_ROLE, permissions: ['read_organization_custom_org_role'] },
    ],
    role_assignments: [
      { org: ORG, role: CUSTOM_ROLE, user: 'role-reader' },
      { org: ORG, role: 'security_manager', user: 'sec-manager' },
      { org: ORG, role: 'ci_cd_admin', user: 'ci-admin' },
      { org: ORG, role: 'all_repo_write', team: 'writers' },
      { org: OTHER_ORG, role: FOREIGN_ROLE, team: FOREIGN_TEAM },
    ],
    repositories: [
      { ...REPO.private, private: true, collaborators: [{ login: 'reader-collab', permission: 'read' }, { login: 'writer-collab', permission: 'write' }] },
      { ...REPO.public, private: false },
      { ...REPO.other, private: true },
      { ...REPO.userOwned, private: true },
      { ...REPO.foreign, private: true },
    ],
    advisories: [{
      svcsa_id: ADVISORY, classification: 'general', summary: 'Prototype pollution', severity: 'high',
      published_at: '2026-01-10T12:00:00Z', updated_at: '2026-01-10T12:00:00Z',
      vulnerabilities: [{ package: { ecosystem: 'npm', name: 'left-pad' }, severity: 'high', vulnerable_version_range: '< 1.3.1', first_patched_version: { identifier: '1.3.1' } }],
    }],
    // Alert 2 exists only in the private repository, alert 3 only in another organization's.
    alerts: [
      alert(REPO.private, 1), alert(REPO.private, 2), alert(REPO.public, 1), alert(REPO.userOwned, 1), alert(REPO.other, 1),
      alert(REPO.foreign, 1), alert(REPO.foreign, 2), alert(REPO.foreign, 3),
    ],
    dependency_bot_rules: RULE_OWNERS.map((o) => ({ ...o.declared, ...MATRIX_RULE })),
    webhooks: HOOK_OWNERS.map((o) => ({ ...o.declared, ...MATRIX_HOOK, events: [...MATRIX_HOOK.events] })),
    oidc: {
      enterprise_property_inclusions: [ENT, OTHER_ENT].flatMap((enterprise) => deletable.map((custom_property_name) => ({ enterprise, custom_property_name }))),
      organization_property_inclusions: [ORG, OTHER_ORG].flatMap((org) => deletable.map((custom_property_name) => ({ org, custom_property_name }))),
    },
    tokens: [...TOKEN_CALLERS.map(([, , token]) => token), ...REFUSED_TOKENS],
  };
}

export type SecurityWorld = ReturnType<typeof securityWorld>;

/** Who the audit log names as a caller's actor: its token's user, or its app as `app[bot]`. */
export function actorNameOf(caller: Caller): string | undefined {
  const token = caller.token;
  if (token === undefined) return undefined;
  return 'user' in token ? String(token.user) : `${String((token as { app?: string }).app)}[bot]`;
}
