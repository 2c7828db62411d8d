import { expandScopes, type PermissionKey, type PermissionLevel, type Scope } from '../auth/grants';
import type { TokenDeclaration, World } from '../modules/world/world.schema';

// What a declared token may do, in plain words, read from the world it belongs to: who it
// acts as and that user's standing (owner, member, collaborator, roles), then what its
// scopes or permissions allow. The start banner shows it for each demo token.

/** Two short lines: who the token acts as, and what it can do. */
export interface TokenAbilities {
  who: string;
  can: string;
}

// Typed by the grant vocabulary, so a new scope or permission key cannot go undescribed.
const SCOPE_WORDS: Record<Scope, string> = {
  'admin:org': 'administer organizations',
  'write:org': 'change organizations',
  'read:org': 'read organizations',
  'admin:enterprise': 'administer enterprises',
  repo: 'full repository access',
  public_repo: 'public repositories',
  security_events: 'security alerts',
  'admin:org_hook': 'organization webhooks',
  'admin:repo_hook': 'repository webhooks',
  'read:audit_log': 'audit logs',
};

const PERMISSION_WORDS: Record<PermissionKey, string> = {
  organization_custom_roles: 'custom roles',
  members: 'members',
  organization_administration: 'org administration',
  enterprise_administration: 'enterprise administration',
  actions: 'Actions (OIDC)',
  attestations: 'attestations',
  dependency_alerts: 'dependency alerts',
  contents: 'contents (dependency snapshots, SBOM)',
  id_token: 'OIDC tokens (mint)',
  organization_hooks: 'organization webhooks',
  repository_hooks: 'repository webhooks',
};

const TYPE_WORDS: Record<TokenDeclaration['type'], string> = {
  classic: 'classic token',
  oauth: 'OAuth token',
  fine_grained: 'fine-grained token',
  app_user: 'app-user token',
  installation: 'app installation token',
};

export function describeToken(token: TokenDeclaration, world: World): TokenAbilities {
  if (token.type === 'installation') {
    return {
      who: `app ${token.app} installed on ${token.resource_owner}, no user`,
      can: `${TYPE_WORDS[token.type]}: ${permissionWords(token.permissions)} on ${repositoryWords(token.repositories)}`,
    };
  }
  const who = `${token.user}: ${standingOf(token.user, world)}`;
  if ('scopes' in token) return { who, can: `${TYPE_WORDS[token.type]}: ${scopeWords(token.scopes)}` };
  const through = token.type === 'app_user' && token.app ? ` through app ${token.app}` : '';
  return {
    who,
    can: `${TYPE_WORDS[token.type]}${through}, only ${token.resource_owner} (${repositoryWords(token.repositories)}): ${permissionWords(token.permissions)}`,
  };
}

/** Where the user stands: organizations and enterprises they own or belong to, repositories they collaborate on, roles held. */
export function standingOf(login: string, world: World): string {
  const parts: string[] = [];
  const ownedOrgs = world.organizations.filter((o) => o.owners?.includes(login)).map((o) => o.login);
  const memberOrgs = world.organizations.filter((o) => !o.owners?.includes(login) && o.members?.includes(login)).map((o) => o.login);
  if (ownedOrgs.length) parts.push(`owner of ${ownedOrgs.join(', ')}`);
  if (memberOrgs.length) parts.push(`member of ${memberOrgs.join(', ')}`);
  const ownedEnterprises = world.enterprises.filter((e) => e.owners?.includes(login)).map((e) => e.slug);
  const memberEnterprises = world.enterprises.filter((e) => !e.owners?.includes(login) && e.members?.includes(login)).map((e) => e.slug);
  if (ownedEnterprises.length) parts.push(`enterprise owner of ${ownedEnterprises.join(', ')}`);
  if (memberEnterprises.length) parts.push(`enterprise member of ${memberEnterprises.join(', ')}`);
  parts.push(...collaborations(login, world));
  parts.push(...rolesOf(login, world).map((roles) => `${roles.includes(',') ? 'roles' : 'role'} ${roles}`));
  return parts.length ? parts.join('; ') : 'no organization or repository access';
}

/** Per organization, "Auditor, all_repo_read in acme-corp": roles held directly or through a team (a child team inherits its parent's). */
function rolesOf(login: string, world: World): string[] {
  const teamsOf = (org: string) => {
    const held = new Set(world.teams.filter((t) => t.org === org && t.members?.includes(login)).map((t) => t.slug));
    for (const slug of [...held]) {
      for (let parent = world.teams.find((t) => t.org === org && t.slug === slug)?.parent; parent; parent = world.teams.find((t) => t.org === org && t.slug === parent)?.parent) held.add(parent);
    }
    return held;
  };
  const byOrg = new Map<string, Set<string>>();
  for (const a of world.role_assignments) {
    if (a.user === login || (a.team !== undefined && teamsOf(a.org).has(a.team))) byOrg.set(a.org, (byOrg.get(a.org) ?? new Set()).add(String(a.role)));
  }
  return [...byOrg].map(([org, roles]) => `${[...roles].join(', ')} in ${org}`);
}

/** "outside read collaborator on acme-corp/api (private)": outside when not in the owning organization. */
function collaborations(login: string, world: World): string[] {
  const byKind = new Map<string, string[]>();
  for (const repo of world.repositories) {
    const grant = repo.collaborators?.find((c) => c.login === login);
    if (!grant) continue;
    const org = world.organizations.find((o) => o.login === repo.owner);
    const isOutside = org !== undefined && !org.owners?.includes(login) && !org.members?.includes(login);
    const kind = `${isOutside ? 'outside ' : ''}${grant.permission} collaborator on`;
    byKind.set(kind, [...(byKind.get(kind) ?? []), `${repo.owner}/${repo.name}${repo.private ? ' (private)' : ''}`]);
  }
  return [...byKind].map(([kind, repos]) => `${kind} ${repos.join(', ')}`);
}

/** The scopes that matter (none implied by another it holds), each in words. */
function scopeWords(scopes: readonly Scope[]): string {
  const strongest = scopes.filter((scope) => !scopes.some((other) => other !== scope && expandScopes([other]).has(scope)));
  return strongest.length ? strongest.map((scope) => SCOPE_WORDS[scope]).join(', ') : 'no scopes (public data only)';
}

/** "write members, attestations; read custom roles". */
function permissionWords(permissions: Partial<Record<PermissionKey, PermissionLevel>>): string {
  const byLevel = (level: PermissionLevel) =>
    Object.entries(permissions).filter(([, granted]) => granted === level).map(([key]) => PERMISSION_WORDS[key as PermissionKey]);
  const groups = (['write', 'read'] as const).map((level) => [level, byLevel(level)] as const).filter(([, keys]) => keys.length > 0);
  return groups.length ? groups.map(([level, keys]) => `${level} ${keys.join(', ')}`).join('; ') : 'no permissions';
}

function repositoryWords(repositories: 'all' | readonly string[]): string {
  return repositories === 'all' ? 'all repositories' : `repositories ${repositories.join(', ')}`;
}
