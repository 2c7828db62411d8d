import {
  ALERTS, COLLABORATORS, ENTERPRISE_OWNERS, INITIAL_OIDC, INITIAL_TEAM_ROLES, INITIAL_USER_ROLES, ORG_MEMBERS, ORG_OWNERS, PRIVATE_REPOS, ROLES, TEAMS, USERS,
  type AlertState, type DeclaredAlert, type Login, type RepoName, type RepoPermission,
} from './model-world';

// The in-memory model: what the world declared, changed only by the commands' documented
// effects, and the README's access rules computed over it.

export interface ModelAlert {
  readonly declared: DeclaredAlert;
  state: AlertState;
  updatedAt: string;
  fixedAt: string | null;
  autoDismissedAt: string | null;
  dismissedAt: string | null;
  dismissedBy: Login | null;
  dismissedReason: string | null;
  dismissedComment: string | null;
  assignees: Login[];
}

export interface RepoTemplate { useDefault: boolean; keys: string[] | null; immutable: boolean }

export interface Model {
  alerts: Map<string, ModelAlert>;
  /** role name → teams (slugs) assigned it directly. */
  teamRoles: Map<string, Set<string>>;
  /** role name → users assigned it directly. */
  userRoles: Map<string, Set<Login>>;
  orgInclusions: Set<string>;
  enterpriseInclusions: Set<string>;
  orgTemplate: { keys: string[]; immutable: boolean };
  repoTemplates: Map<RepoName, RepoTemplate>;
}

export const DEFAULT_CLAIM_KEYS = ['repo', 'context'];
export const alertKey = (repo: RepoName, number: number) => `${repo}#${number}`;

export function seedModel(): Model {
  const alerts = new Map(ALERTS.map((a): [string, ModelAlert] => [alertKey(a.repository, a.number), {
    declared: a, state: a.state, updatedAt: a.updated_at, fixedAt: a.fixed_at, autoDismissedAt: a.auto_dismissed_at, dismissedAt: a.dismissed_at,
    dismissedBy: a.dismissed_by, dismissedReason: a.dismissed_reason, dismissedComment: a.dismissed_comment, assignees: [...a.assignees],
  }]));
  const teamRoles = new Map(ROLES.map((r) => [r.name, new Set(INITIAL_TEAM_ROLES.filter((a) => a.role === r.name).map((a) => a.team))]));
  const userRoles = new Map(ROLES.map((r) => [r.name, new Set(INITIAL_USER_ROLES.filter((a) => a.role === r.name).map((a) => a.user))]));
  return {
    alerts, teamRoles, userRoles,
    orgInclusions: new Set(INITIAL_OIDC.orgInclusions),
    enterpriseInclusions: new Set(INITIAL_OIDC.enterpriseInclusions),
    orgTemplate: { keys: [...INITIAL_OIDC.orgTemplate.include_claim_keys], immutable: INITIAL_OIDC.orgTemplate.use_immutable_subject },
    repoTemplates: new Map(INITIAL_OIDC.repoTemplates.map((t) => [t.repository, { useDefault: t.use_default, keys: null, immutable: false }])),
  };
}

const RANK: Record<RepoPermission, number> = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };
export const atLeast = (p: RepoPermission | null, needed: RepoPermission) => p !== null && RANK[p] >= RANK[needed];

export const isOrgOwner = (login: Login) => ORG_OWNERS.includes(login);
export const isOrgMember = (login: Login) => isOrgOwner(login) || ORG_MEMBERS.includes(login);
const teamOf = (slug: string) => TEAMS.find((t) => t.slug === slug);

/** A team and its ancestors: child teams inherit their parent's access and roles. */
function withAncestors(slug: string): string[] {
  const out: string[] = [];
  for (let team = teamOf(slug); team; team = team.parent === null ? undefined : teamOf(team.parent)) out.push(team.slug);
  return out;
}
const effectiveTeams = (login: Login) => [...new Set(TEAMS.filter((t) => t.members.includes(login)).flatMap((t) => withAncestors(t.slug)))];

/** Roles a member holds, directly or through any of their teams. */
export function heldRoles(m: Model, login: Login): string[] {
  if (!isOrgMember(login)) return [];
  const teams = effectiveTeams(login);
  return ROLES.filter((r) => m.userRoles.get(r.name)!.has(login) || teams.some((t) => m.teamRoles.get(r.name)!.has(t))).map((r) => r.name);
}

/** The highest repository role a user has, from every source. */
export function repoPermission(m: Model, login: Login, repo: RepoName): RepoPermission | null {
  if (isOrgOwner(login)) return 'admin';
  const grants: Array<RepoPermission | null> = COLLABORATORS.filter((c) => c.repo === repo && c.login === login).map((c) => c.permission);
  if (isOrgMember(login)) {
    const teams = effectiveTeams(login);
    grants.push(...TEAMS.filter((t) => teams.includes(t.slug)).flatMap((t) => t.repositories.filter((g) => g.repo === repo).map((g) => g.permission)));
    grants.push(...heldRoles(m, login).map((name) => ROLES.find((r) => r.name === name)!.baseRole));
  }
  return grants.reduce<RepoPermission | null>((best, p) => (p !== null && (best === null || RANK[p] > RANK[best]) ? p : best), null);
}

export type Decision = 200 | 401 | 403 | 404;
export type Who = Login | null; // null: no token

/** README "Tokens and access": 401 without a token, 404 for a private repository the caller cannot see, then 403. */
function repoDecision(m: Model, who: Who, repo: RepoName, allowed: (login: Login) => boolean, publicRead = false): Decision {
  const isPrivate = PRIVATE_REPOS.includes(repo);
  if (publicRead && !isPrivate) return 200;
  if (who === null) return publicRead ? 404 : 401;
  if (isPrivate && repoPermission(m, who, repo) === null) return 404;
  return allowed(who) ? 200 : 403;
}

/** #25–#27: writers, maintainers, admins, organization owners and security managers. */
export const alertAccess = (m: Model, who: Who, repo: RepoName) =>
  repoDecision(m, who, repo, (login) => atLeast(repoPermission(m, login, repo), 'write') || heldRoles(m, login).includes('security_manager'));
/** #19: read access, none for a public repository. */
export const repoTemplateReadAccess = (m: Model, who: Who, repo: RepoName) => repoDecision(m, who, repo, () => true, true);
/** #20: write access. */
export const repoTemplateWriteAccess = (m: Model, who: Who, repo: RepoName) =>
  repoDecision(m, who, repo, (login) => atLeast(repoPermission(m, login, repo), 'write'));
/** #2–#7, #9, #10: organization owners. */
export const roleAdminAccess = (who: Who): Decision => (who === null ? 401 : isOrgOwner(who) ? 200 : 403);
/** Owners, or members holding (directly or through a team) a role with the permission. */
function ownerOrRolePermission(m: Model, who: Who, permission: string): Decision {
  if (who === null) return 401;
  const held = heldRoles(m, who).map((name) => ROLES.find((r) => r.name === name)!);
  return isOrgOwner(who) || held.some((r) => r.permissions.includes(permission)) ? 200 : 403;
}
/** #14–#18: owners, or members holding a role with write_organization_oidc_settings. */
export const orgOidcAccess = (m: Model, who: Who) => ownerOrRolePermission(m, who, 'write_organization_oidc_settings');
/** #1 and #8: owners, or members holding a role with read_organization_custom_org_role. */
export const roleReaderAccess = (m: Model, who: Who) => ownerOrRolePermission(m, who, 'read_organization_custom_org_role');
/** #11–#13: enterprise owners; an enterprise the caller is no part of is not there (404). */
export function enterpriseOidcAccess(who: Who): Decision {
  if (who === null) return 401;
  if (ENTERPRISE_OWNERS.includes(who)) return 200;
  return isOrgMember(who) ? 403 : 404;
}

/** Whether a login may be an alert's assignee: a user with (at least read) access to the repository. */
export const canBeAssigned = (m: Model, login: string, repo: RepoName) =>
  (USERS as readonly string[]).includes(login) && repoPermission(m, login as Login, repo) !== null;

/** How a team or user holds a role (reference.md): itself, through a team, or both. */
const assignmentOf = (direct: boolean, via: string[]) => (via.length === 0 ? 'direct' : direct ? 'mixed' : 'indirect');

/** #9: teams holding a role, directly or as descendants of an assigned team. */
export function roleTeams(m: Model, role: string): Array<{ slug: string; assignment: string; parent: string | null }> {
  const assigned = m.teamRoles.get(role)!;
  return TEAMS.flatMap((team) => {
    const direct = assigned.has(team.slug);
    const via = withAncestors(team.slug).slice(1).filter((s) => assigned.has(s));
    return direct || via.length > 0 ? [{ slug: team.slug, assignment: assignmentOf(direct, via), parent: team.parent }] : [];
  });
}

/** #10: users holding a role, with the assigned teams they hold it through. */
export function roleUsers(m: Model, role: string): Array<{ login: Login; assignment: string; via: string[] }> {
  const assigned = m.teamRoles.get(role)!;
  const logins = new Set<Login>([...m.userRoles.get(role)!, ...TEAMS.flatMap((t) => t.members)]);
  return [...logins].flatMap((login) => {
    const direct = m.userRoles.get(role)!.has(login);
    const via = [...new Set(TEAMS.filter((t) => t.members.includes(login)).flatMap((t) => withAncestors(t.slug)).filter((s) => assigned.has(s)))];
    return direct || via.length > 0 ? [{ login, assignment: assignmentOf(direct, via), via }] : [];
  });
}

/**
 * #19: the keys in effect, and the subject's repo part: with immutable ids when the repository's
 * setting says so, or, never configured or following its organization's template, the
 * organization's (the ids are the database's: any digits).
 */
export function repoTemplateView(m: Model, repo: RepoName) {
  const stored = m.repoTemplates.get(repo);
  const immutable = !stored ? m.orgTemplate.immutable : stored.immutable || (!stored.useDefault && stored.keys === null && m.orgTemplate.immutable);
  const [owner, name] = repo.split('/');
  const sub_claim_prefix = immutable ? expect.stringMatching(new RegExp(`^repo:${owner}@\\d+/${name}@\\d+$`)) : `repo:${repo}`;
  if (!stored || stored.useDefault) return { use_default: true, include_claim_keys: DEFAULT_CLAIM_KEYS, use_immutable_subject: stored?.immutable ?? false, sub_claim_prefix };
  return { use_default: false, include_claim_keys: stored.keys ?? m.orgTemplate.keys, use_immutable_subject: stored.immutable, sub_claim_prefix };
}
