import { expandScopes, grantsLevel } from '../../src/auth/grants';
import type { CallerRule } from '../../src/auth/requirements';
import { OPERATIONS, type OperationName } from '../../src/operations';
import type { Caller, TokenDeclaration } from './security-world';

// The one access oracle of the tests: what an operation must answer a caller on a target,
// from the catalogue's requirements (src/operations) and what the caller is in the world file
// alone (no database, no service code). The security matrices and the per-area authorization
// tests (test/api/*-authorization.test.ts) all read it. The rules in order: 401, 404
// (invisible = missing), 403 for the token's grant, 403 for who the caller is, then success.

export type Target =
  | { kind: 'org'; login: string }
  | { kind: 'enterprise'; slug: string }
  | { kind: 'repo'; owner: string; name: string };

export type Reason = 'credentials' | 'invisible' | 'grant' | 'caller' | 'allowed';
export interface Expectation { status: number; reason: Reason }

type RepoPermission = 'read' | 'triage' | 'write' | 'maintain' | 'admin';
const RANK: Record<RepoPermission, number> = { read: 1, triage: 2, write: 3, maintain: 4, admin: 5 };

// Facts of the predefined roles the rules read (reference.md "Organization roles").
const PREDEFINED: Record<string, { base: RepoPermission | null; permissions: string[] }> = {
  security_manager: { base: 'read', permissions: [] },
  all_repo_read: { base: 'read', permissions: [] },
  all_repo_triage: { base: 'triage', permissions: [] },
  all_repo_write: { base: 'write', permissions: [] },
  all_repo_maintain: { base: 'maintain', permissions: [] },
  all_repo_admin: { base: 'admin', permissions: [] },
  ci_cd_admin: { base: null, permissions: ['write_organization_oidc_settings'] },
};

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** What the oracle reads of a world file (the sections the rules depend on; any may be absent). */
export interface AccessWorld {
  enterprises?: ReadonlyArray<{ slug: string; owners: readonly string[]; members?: readonly string[] }>;
  organizations?: ReadonlyArray<{ login: string; enterprise?: string; owners?: readonly string[]; members?: readonly string[] }>;
  teams?: ReadonlyArray<{ org: string; slug: string; members?: readonly string[]; parent?: string; repositories?: ReadonlyArray<{ name: string; permission: string }> }>;
  repositories?: ReadonlyArray<{ owner: string; name: string; private?: boolean; collaborators?: ReadonlyArray<{ login: string; permission: string }> }>;
  organization_roles?: ReadonlyArray<{ org: string; name: string; permissions: readonly string[]; base_role?: string | null }>;
  role_assignments?: ReadonlyArray<{ org: string; role: string; user?: string; team?: string }>;
  tokens?: ReadonlyArray<{ token?: string }>;
}

/** The world with every section present. */
type World = { [K in keyof AccessWorld]-?: NonNullable<AccessWorld[K]> };

/**
 * A caller of a world's token (none: anonymous), as the oracle reads it: refused when the
 * world declares the token revoked or expired.
 */
export function worldCaller(world: AccessWorld, name: string, token?: string): Caller {
  if (token === undefined) return { key: 'anonymous', name };
  const declared = world.tokens?.find((t) => t.token === token) as TokenDeclaration | undefined;
  if (!declared) throw new Error(`the world declares no token ${token}`);
  const refused = declared.revoked === true || (declared.expires_at !== undefined && Date.parse(declared.expires_at) <= Date.now());
  return refused ? { key: token, name, header: `Bearer ${token}`, refused } : { key: token, name, header: `Bearer ${token}`, token: declared };
}

/** A world token in words, for test names: the token, its kind, whose, and why it is refused. */
function tokenInWords(declared: TokenDeclaration): string {
  const whose = declared.user ?? declared.app;
  const owner = declared.resource_owner === undefined ? '' : ` on ${declared.resource_owner}`;
  const refused = declared.revoked === true ? ', revoked' : declared.expires_at !== undefined ? `, expiring ${declared.expires_at}` : '';
  return `${declared.token} (${declared.type} of ${whose}${owner}${refused})`;
}

/**
 * Every caller a world can have: no token, and each token it declares (the tests read the
 * world's list rather than typing it again, so a token added to a world is tried too).
 */
export function worldCallers(world: AccessWorld): Caller[] {
  const declared = (world.tokens ?? []) as readonly TokenDeclaration[];
  return [worldCaller(world, 'no token'), ...declared.map((t) => worldCaller(world, tokenInWords(t), t.token))];
}

export class AccessOracle {
  private readonly world: World;

  constructor(world: AccessWorld) {
    this.world = {
      enterprises: world.enterprises ?? [], organizations: world.organizations ?? [], teams: world.teams ?? [], repositories: world.repositories ?? [],
      organization_roles: world.organization_roles ?? [], role_assignments: world.role_assignments ?? [], tokens: world.tokens ?? [],
    };
  }

  exists(target: Target): boolean {
    switch (target.kind) {
      case 'org': return this.world.organizations.some((o) => same(o.login, target.login));
      case 'enterprise': return this.world.enterprises.some((e) => same(e.slug, target.slug));
      case 'repo': return this.repo(target) !== undefined;
    }
  }

  isPrivateRepo(target: Target): boolean {
    return target.kind === 'repo' && this.repo(target)?.private === true;
  }

  /** Whether the caller may see the target at all (a GraphQL look-up), for a valid caller. */
  isVisible(caller: Caller, target: Target): boolean {
    if (!this.exists(target)) return false;
    if (target.kind === 'repo' && !this.isPrivateRepo(target)) return true;
    return this.isReachable(caller, target);
  }

  /**
   * Whether an operation on the target gets past the 404 step. Stricter than isVisible: a
   * fine-grained or installation token reaches nothing outside its resource owner and
   * repositories, public repositories included (README "Tokens and access"; the public
   * reads #19 and #22 are decided before this step).
   */
  isReachable(caller: Caller, target: Target): boolean {
    if (!this.exists(target)) return false;
    const token = caller.token;
    if (!token) return target.kind === 'org' || (target.kind === 'repo' && !this.isPrivateRepo(target)); // anonymous callers see organizations and public repositories
    if (token.resource_owner !== undefined && !this.isWithinResourceOwner(token, target)) return false;
    if (target.kind === 'repo' && !this.isPrivateRepo(target)) return true;
    if (token.user === undefined) return true;
    if (target.kind === 'repo') return this.repoPermission(token.user, target) !== null;
    if (target.kind === 'enterprise') return this.enterpriseRole(token.user, target.slug) !== null;
    return true;
  }

  private isWithinResourceOwner(token: NonNullable<Caller['token']>, target: Target): boolean {
    const owner = token.resource_owner!;
    switch (target.kind) {
      case 'enterprise': return same(owner, target.slug);
      case 'org': return same(owner, target.login);
      case 'repo': return same(owner, target.owner) && (token.repositories === undefined || token.repositories === 'all' || token.repositories.includes(target.name));
    }
  }

  expect(caller: Caller, operation: OperationName, target: Target, success: number): Expectation {
    const { requirement } = OPERATIONS[operation];
    if (caller.refused) return { status: 401, reason: 'credentials' };
    if (requirement.target === 'public') return { status: success, reason: 'allowed' }; // anyone, with or without a token
    const publicRepo = target.kind === 'repo' && this.exists(target) && !this.isPrivateRepo(target);
    if (requirement.publicRead === true && publicRepo) return { status: success, reason: 'allowed' };
    const token = caller.token;
    if (!token) return requirement.publicRead === true ? { status: 404, reason: 'invisible' } : { status: 401, reason: 'credentials' };
    const usesPermissions = token.permissions !== undefined;
    // spec §5 #23: fine-grained and app tokens are refused whatever they name.
    if (usesPermissions && requirement.permission === null) return { status: 403, reason: 'grant' };
    if (!this.isReachable(caller, target)) return { status: 404, reason: 'invisible' };
    if (!this.grantMeets(caller, operation, target)) return { status: 403, reason: 'grant' };
    if (token.user === undefined) return { status: success, reason: 'allowed' }; // an installation: its permissions alone decide
    return this.satisfies(token.user, requirement.caller, target) ? { status: success, reason: 'allowed' } : { status: 403, reason: 'caller' };
  }

  private grantMeets(caller: Caller, operation: OperationName, target: Target): boolean {
    const { requirement } = OPERATIONS[operation];
    const token = caller.token!;
    if (token.permissions !== undefined) {
      return requirement.permission !== null && grantsLevel(token.permissions[requirement.permission[0]], requirement.permission[1]);
    }
    const effective = expandScopes(token.scopes ?? []);
    if (requirement.scopes.some((s) => effective.has(s))) return true;
    // public_repo suffices on a public repository and, showing public ones only, on the organization list.
    const publicScopes: readonly string[] = requirement.publicScopes ?? [];
    const publicTarget = target.kind === 'org' || (target.kind === 'repo' && !this.isPrivateRepo(target));
    return publicTarget && [...effective].some((s) => publicScopes.includes(s));
  }

  private satisfies(user: string, rule: CallerRule, target: Target): boolean {
    const login = target.kind === 'org' ? target.login : target.kind === 'repo' ? target.owner : undefined;
    const membership = login === undefined ? null : this.orgMembership(user, login);
    const roles = login === undefined || membership === null ? [] : this.heldRoles(user, login);
    const permission = target.kind === 'repo' ? this.repoPermission(user, target) : null;
    const atLeast = (needed: RepoPermission) => permission !== null && RANK[permission] >= RANK[needed];
    const holdsSecurityManager = roles.some((r) => r.name === 'security_manager');
    switch (rule) {
      case 'orgAdmin': return target.kind === 'org' && membership === 'admin';
      case 'orgRoleReader': return target.kind === 'org' && (membership === 'admin' || roles.some((r) => r.permissions.some((p) => /^(read|write)_organization_custom_org_role$/.test(p))));
      case 'orgOidcAdmin': return target.kind === 'org' && (membership === 'admin' || roles.some((r) => r.permissions.includes('write_organization_oidc_settings')));
      case 'orgSecurityManager': return target.kind === 'org' && (membership === 'admin' || holdsSecurityManager);
      case 'enterpriseOwner': return target.kind === 'enterprise' && this.enterpriseRole(user, target.slug) === 'owner';
      case 'enterpriseMember': return target.kind === 'enterprise' && this.enterpriseRole(user, target.slug) !== null;
      case 'repoReader': return atLeast('read') || !this.isPrivateRepo(target);
      case 'repoWriter': return atLeast('write');
      case 'repoAlertManager': return atLeast('write') || holdsSecurityManager;
      case 'repoAdmin': return atLeast('admin');
      case 'repoSecurityAdmin': return atLeast('admin') || holdsSecurityManager;
      case 'anyone': return true;
    }
  }

  // ---- what a user is in the world

  private repo(target: { owner: string; name: string }) {
    return this.world.repositories.find((r) => same(r.owner, target.owner) && same(r.name, target.name));
  }

  orgMembership(user: string, org: string): 'admin' | 'member' | null {
    const found = this.world.organizations.find((o) => same(o.login, org));
    if (!found) return null;
    if (found.owners?.includes(user)) return 'admin';
    return found.members?.includes(user) ? 'member' : null;
  }

  enterpriseRole(user: string, slug: string): 'owner' | 'member' | null {
    const enterprise = this.world.enterprises.find((e) => same(e.slug, slug));
    if (!enterprise) return null;
    if (enterprise.owners.includes(user)) return 'owner';
    if (enterprise.members?.includes(user)) return 'member';
    // Members of its organizations are members of the enterprise.
    return this.world.organizations.some((o) => o.enterprise === enterprise.slug && this.orgMembership(user, o.login) !== null) ? 'member' : null;
  }

  /** Teams of the user in an organization, with the parents they inherit from. */
  private teamsOf(user: string, org: string): string[] {
    const teams = this.world.teams.filter((t) => same(t.org, org));
    const found = new Set(teams.filter((t) => t.members?.includes(user)).map((t) => t.slug));
    for (let grew = true; grew;) {
      grew = false;
      for (const team of teams) {
        if (found.has(team.slug) && team.parent && !found.has(team.parent)) { found.add(team.parent); grew = true; }
      }
    }
    return [...found];
  }

  heldRoles(user: string, org: string): Array<{ name: string; base: RepoPermission | null; permissions: string[] }> {
    const teams = this.teamsOf(user, org);
    const names = this.world.role_assignments
      .filter((a) => same(a.org, org) && (a.user === user || teams.includes(a.team ?? '')))
      .map((a) => a.role);
    return [...new Set(names)].map((name) => {
      const custom = this.world.organization_roles.find((r) => same(r.org, org) && r.name === name);
      if (custom) return { name, base: (custom.base_role ?? null) as RepoPermission | null, permissions: [...custom.permissions] };
      const predefined = PREDEFINED[name];
      if (!predefined) throw new Error(`the oracle does not know the role ${name}`);
      return { name, ...predefined };
    });
  }

  repoPermission(user: string, target: { owner: string; name: string }): RepoPermission | null {
    const repo = this.repo(target);
    if (!repo) return null;
    const collaborator = (repo.collaborators?.find((c) => c.login === user)?.permission ?? null) as RepoPermission | null;
    const isOrg = this.world.organizations.some((o) => same(o.login, repo.owner));
    if (!isOrg) return same(repo.owner, user) ? 'admin' : collaborator;
    const membership = this.orgMembership(user, repo.owner);
    if (membership === 'admin') return 'admin';
    if (membership === null) return collaborator;
    const teams = this.teamsOf(user, repo.owner);
    const teamGrants = this.world.teams
      .filter((t) => same(t.org, repo.owner) && teams.includes(t.slug))
      .flatMap((t) => (t.repositories ?? []).filter((r) => same(r.name, repo.name)).map((r) => r.permission as RepoPermission));
    const candidates = [collaborator, ...teamGrants, ...this.heldRoles(user, repo.owner).map((r) => r.base)].filter((p): p is RepoPermission => p !== null);
    return candidates.reduce<RepoPermission | null>((best, p) => (best === null || RANK[p] > RANK[best] ? p : best), null);
  }
}

/** Where an area's operation is tried: its enterprise, its organization or one of the organization's repositories (by name). */
export function areaTarget(area: { enterprise?: string; org: string }, on: string): Target {
  if (on === 'enterprise') return { kind: 'enterprise', slug: area.enterprise! };
  if (on === 'org') return { kind: 'org', login: area.org };
  return { kind: 'repo', owner: area.org, name: on };
}
