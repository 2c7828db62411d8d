// The vocabulary of what a token can be granted (interfaces.md "Tokens").

export const CLASSIC_SCOPES = [
  'admin:org', 'write:org', 'read:org', 'admin:enterprise', 'repo', 'public_repo', 'security_events',
  // Webhooks (interfaces.md Part 2): implied by nothing and implying nothing, as in the original,
  // where admin:org does not reach organization hooks. The original's narrower read:repo_hook and
  // write:repo_hook are not offered: one scope per kind of hook, as interfaces.md gives them.
  'admin:org_hook', 'admin:repo_hook',
  // The audit log (issue 37): implied by admin:org, as in the original.
  'read:audit_log',
] as const;
export type Scope = (typeof CLASSIC_SCOPES)[number];

const SCOPE_IMPLIES: Partial<Record<Scope, readonly Scope[]>> = {
  'admin:org': ['write:org', 'read:org', 'read:audit_log'],
  'write:org': ['read:org'],
  repo: ['public_repo', 'security_events'],
};

export function isScope(value: string): value is Scope {
  return (CLASSIC_SCOPES as readonly string[]).includes(value);
}

/** A token's scopes with everything they imply. */
export function expandScopes(scopes: readonly Scope[]): ReadonlySet<Scope> {
  const expanded = new Set<Scope>();
  for (const scope of scopes) {
    expanded.add(scope);
    for (const implied of SCOPE_IMPLIES[scope] ?? []) expanded.add(implied);
  }
  return expanded;
}

export const PERMISSION_KEYS = [
  'organization_custom_roles', 'members', 'organization_administration', 'enterprise_administration',
  'actions', 'attestations', 'dependency_alerts', 'contents', 'organization_hooks', 'repository_hooks',
  'id_token',
] as const;
export type PermissionKey = (typeof PERMISSION_KEYS)[number];
export type PermissionLevel = 'read' | 'write';
export type Permissions = Partial<Record<PermissionKey, PermissionLevel>>;

/** Write implies read. */
export function grantsLevel(granted: PermissionLevel | undefined, needed: PermissionLevel): boolean {
  return granted === 'write' || (granted === 'read' && needed === 'read');
}

export const TOKEN_TYPES = ['classic', 'oauth', 'fine_grained', 'app_user', 'installation'] as const;
export type TokenType = (typeof TOKEN_TYPES)[number];

export function usesScopes(type: TokenType): boolean {
  return type === 'classic' || type === 'oauth';
}
