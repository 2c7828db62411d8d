import type { PermissionKey, PermissionLevel, Scope, TokenType } from './grants';

export interface ScopeGrant {
  kind: 'scopes';
  /** As declared on the token (X-OAuth-Scopes). */
  declared: readonly Scope[];
  /** Declared plus implied. */
  effective: ReadonlySet<Scope>;
}

export type ResourceOwner = { type: 'Account'; id: number } | { type: 'Enterprise'; id: number };

export interface PermissionGrant {
  kind: 'permissions';
  permissions: Partial<Record<PermissionKey, PermissionLevel>>;
  owner: ResourceOwner;
  repositories: 'all' | ReadonlySet<number>;
}

export type Principal =
  | { kind: 'anonymous' }
  | { kind: 'user'; tokenId: number; tokenType: TokenType; userId: number; login: string; grant: ScopeGrant | PermissionGrant }
  | { kind: 'app'; tokenId: number; tokenType: 'installation'; appName: string; grant: PermissionGrant };

export const ANONYMOUS: Principal = { kind: 'anonymous' };
