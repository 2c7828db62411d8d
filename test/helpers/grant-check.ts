import { expandScopes, grantsLevel, type Permissions, type Scope } from '../../src/auth/grants';
import type { Requirement } from '../../src/auth/requirements';

// Shared by the authorization matrices: what a world declares for a token, and whether a
// token's grant meets an operation's requirement (the third check of the rules).

export interface DeclaredGrant {
  scopes?: Scope[];
  permissions?: Permissions;
}

/** Looks up a token's declared grant in a world file. */
export function declaredGrants(world: { tokens: Array<{ token?: string }> }) {
  return (token: string): DeclaredGrant => {
    const found = world.tokens.find((t) => t.token === token);
    if (!found) throw new Error(`the world declares no token ${token}`);
    return found as DeclaredGrant;
  };
}

export function grantMeets(requirement: Requirement, grant: { scopes: Scope[] } | { permissions: Permissions }): boolean {
  if ('scopes' in grant) {
    const effective = expandScopes(grant.scopes);
    return requirement.scopes.some((s) => effective.has(s));
  }
  const permission = requirement.permission;
  return permission !== null && grantsLevel(grant.permissions[permission[0]], permission[1]);
}
