import type { HeldRole } from './access.store';

// What the organization-level caller rules ask of a user's standing in one organization: the
// one definition, read by the authorizer for one organization and by AccessStore's batch
// (alertManagedOrgIds) for all the organizations of an enterprise.

/** A user's standing in an organization: membership, and the roles held directly or through teams. */
export interface OrgStanding {
  membership: 'admin' | 'member' | null;
  roles: readonly HeldRole[];
}

export type OrgCallerRule = 'orgRoleReader' | 'orgSecurityManager' | 'orgOidcAdmin';

const SECURITY_MANAGER = 'security_manager';
const ROLE_READ_PERMISSIONS = ['read_organization_custom_org_role', 'write_organization_custom_org_role'];
const OIDC_ADMIN_PERMISSION = 'write_organization_oidc_settings';

/** reference.md "Organization roles": a security manager holds the predefined security_manager role. */
export function holdsSecurityManager(roles: readonly HeldRole[]): boolean {
  return roles.some((r) => r.name === SECURITY_MANAGER);
}

/** An owner satisfies every organization rule; a member through the roles held; an outsider none. */
export function satisfiesOrgRule(rule: OrgCallerRule, { membership, roles }: OrgStanding): boolean {
  if (membership === 'admin') return true;
  if (membership === null) return false;
  switch (rule) {
    case 'orgRoleReader': return roles.some((r) => r.permissions.some((p) => ROLE_READ_PERMISSIONS.includes(p)));
    case 'orgOidcAdmin': return roles.some((r) => r.permissions.includes(OIDC_ADMIN_PERMISSION));
    case 'orgSecurityManager': return holdsSecurityManager(roles);
  }
}
