import { AuthenticationError, ForbiddenError, NotFoundError } from '../errors/domain';
import type { Executor } from '../database/transaction';
import { holdsSecurityManager, satisfiesOrgRule } from './caller-rules';
import { grantsLevel } from './grants';
import type { AccessStore } from './access.store';
import { repoPermissionAtLeast } from './access.store';
import type { PermissionGrant, Principal } from './principal';
import { OPERATIONS, type OperationName } from '../operations';
import { CALLER_RULE_WORDING, type CallerRule, type Requirement } from './requirements';

export type Target =
  | { kind: 'org'; orgId: number }
  | { kind: 'enterprise'; enterpriseId: number }
  | { kind: 'repo'; repoId: number; ownerId: number; ownerIsOrg: boolean; isPrivate: boolean };

export interface Decision {
  /** Allowed only through a public-only grant (public_repo): touch public repositories only. */
  publicOnly: boolean;
}

/**
 * The one authorization decision, for REST and GraphQL alike. Order: credentials (401),
 * visibility (404, identical to a missing thing), the token's grant (403), the caller (403).
 */
export class Authorizer {
  constructor(private readonly deps: { access: AccessStore }) {}

  async assertAllowed(db: Executor, principal: Principal, operation: OperationName, target: Target | null): Promise<Decision> {
    const { requirement } = OPERATIONS[operation];
    // Public reference data: whoever calls may read it (bad credentials were refused before).
    if (requirement.target === 'public') return { publicOnly: false };
    const isPublicRepo = target?.kind === 'repo' && !target.isPrivate;
    if (requirement.publicRead && isPublicRepo) return { publicOnly: false };
    if (principal.kind === 'anonymous') {
      // Callable without a token: what anonymous callers may not see is simply not there.
      if (requirement.publicRead) throw new NotFoundError();
      throw new AuthenticationError('Requires authentication');
    }
    // spec §5 #23: fine-grained and app tokens are refused outright, whatever they may see.
    if (requirement.permission === null && principal.grant.kind === 'permissions') {
      throw new ForbiddenError(`Resource not accessible by ${principal.tokenType === 'fine_grained' ? 'personal access token' : 'integration'}`);
    }
    if (target === null) throw new NotFoundError();
    await this.assertVisible(db, principal, target);
    const decision = this.assertGranted(principal, requirement, isPublicRepo);
    if (principal.kind === 'user') await this.assertCaller(db, principal.userId, requirement.caller, target);
    return decision;
  }

  /** Whether the caller may see a target at all (the visibility step alone, for GraphQL look-ups). */
  async isVisible(db: Executor, principal: Principal, target: Target): Promise<boolean> {
    // Public repositories are visible to everyone, whatever token (or none) they come with.
    if (target.kind === 'repo' && !target.isPrivate) return true;
    if (principal.kind === 'anonymous') return target.kind === 'org';
    try {
      await this.assertVisible(db, principal, target);
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
  }

  private async assertVisible(db: Executor, principal: Exclude<Principal, { kind: 'anonymous' }>, target: Target): Promise<void> {
    if (principal.grant.kind === 'permissions' && !withinResourceOwner(principal.grant, target)) throw new NotFoundError();
    if (principal.kind !== 'user') return;
    if (target.kind === 'repo' && target.isPrivate) {
      const permission = await this.deps.access.repoPermission(db, repoOf(target), principal.userId);
      if (permission === null) throw new NotFoundError();
    }
    if (target.kind === 'enterprise') {
      if ((await this.deps.access.enterpriseRole(db, target.enterpriseId, principal.userId)) === null) throw new NotFoundError();
    }
  }

  private assertGranted(principal: Exclude<Principal, { kind: 'anonymous' }>, requirement: Requirement, isPublicRepo: boolean): Decision {
    const grant = principal.grant;
    if (grant.kind === 'scopes') {
      if (requirement.scopes.some((s) => grant.effective.has(s))) return { publicOnly: false };
      if (requirement.publicScopes?.some((s) => grant.effective.has(s)) && (isPublicRepo || requirement.target === 'org')) {
        return { publicOnly: true };
      }
      // The accepted scopes also go out as X-Accepted-OAuth-Scopes (http/operation.ts).
      throw new ForbiddenError(`This operation needs a token with one of these scopes: ${[...requirement.scopes, ...(requirement.publicScopes ?? [])].join(', ')}.`);
    }
    const by = principal.tokenType === 'fine_grained' ? 'personal access token' : 'integration';
    if (requirement.permission === null) throw new ForbiddenError(`Resource not accessible by ${by}`);
    const [key, level] = requirement.permission;
    if (!grantsLevel(grant.permissions[key], level)) {
      throw new ForbiddenError(`Resource not accessible by ${by}`, { acceptedPermission: `${key}=${level}` });
    }
    return { publicOnly: false };
  }

  private async assertCaller(db: Executor, userId: number, rule: CallerRule, target: Target): Promise<void> {
    if (!(await this.satisfies(db, userId, rule, target))) throw new ForbiddenError(CALLER_RULE_WORDING[rule].refusal);
  }

  private async satisfies(db: Executor, userId: number, rule: CallerRule, target: Target): Promise<boolean> {
    const access = this.deps.access;
    switch (rule) {
      case 'orgAdmin':
        return target.kind === 'org' && (await access.orgMembership(db, target.orgId, userId)) === 'admin';
      case 'orgRoleReader':
      case 'orgSecurityManager':
      case 'orgOidcAdmin': {
        if (target.kind !== 'org') return false;
        const membership = await access.orgMembership(db, target.orgId, userId);
        // Only a member's roles decide: an owner or an outsider is answered without reading them.
        const roles = membership === 'member' ? await access.heldRoles(db, target.orgId, userId) : [];
        return satisfiesOrgRule(rule, { membership, roles });
      }
      case 'enterpriseOwner':
        return target.kind === 'enterprise' && (await access.enterpriseRole(db, target.enterpriseId, userId)) === 'owner';
      case 'enterpriseMember':
        return target.kind === 'enterprise' && (await access.enterpriseRole(db, target.enterpriseId, userId)) !== null;
      case 'repoReader':
      case 'repoWriter':
      case 'repoAlertManager': {
        if (target.kind !== 'repo') return false;
        const permission = await access.repoPermission(db, repoOf(target), userId);
        if (rule === 'repoReader') return repoPermissionAtLeast(permission, 'read') || !target.isPrivate;
        if (repoPermissionAtLeast(permission, 'write')) return true;
        if (rule === 'repoWriter' || !target.ownerIsOrg) return false;
        // reference.md: security managers of the owning organization see and triage alerts.
        return holdsSecurityManager(await access.heldRoles(db, target.ownerId, userId));
      }
      case 'repoAdmin':
        return target.kind === 'repo' && (await access.repoPermission(db, repoOf(target), userId)) === 'admin';
      case 'repoSecurityAdmin': {
        if (target.kind !== 'repo') return false;
        // An organization owner is an admin of each of its repositories (access.store.ts).
        if ((await access.repoPermission(db, repoOf(target), userId)) === 'admin') return true;
        return target.ownerIsOrg && holdsSecurityManager(await access.heldRoles(db, target.ownerId, userId));
      }
      case 'anyone':
        return true;
    }
  }
}

/** The authorization target of a repository. */
export function repoTarget(repo: { id: number; ownerId: number; ownerType: 'User' | 'Organization'; isPrivate: boolean }): Target {
  return { kind: 'repo', repoId: repo.id, ownerId: repo.ownerId, ownerIsOrg: repo.ownerType === 'Organization', isPrivate: repo.isPrivate };
}

function repoOf(target: Extract<Target, { kind: 'repo' }>) {
  return { id: target.repoId, ownerId: target.ownerId, ownerIsOrg: target.ownerIsOrg };
}

function withinResourceOwner(grant: PermissionGrant, target: Target): boolean {
  switch (target.kind) {
    case 'enterprise':
      return grant.owner.type === 'Enterprise' && grant.owner.id === target.enterpriseId;
    case 'org':
      return grant.owner.type === 'Account' && grant.owner.id === target.orgId;
    case 'repo':
      return grant.owner.type === 'Account' && grant.owner.id === target.ownerId
        && (grant.repositories === 'all' || grant.repositories.has(target.repoId));
  }
}
