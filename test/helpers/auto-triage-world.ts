// A world for the auto-triage tests: an organization with a private and a public repository, a
// user-owned one, and callers the access rules tell apart (interfaces.md Part 2 "Auto-triage rules").
export const ORG = 'at-org';
export const PRIVATE = `${ORG}/at-private`;
export const PUBLIC = `${ORG}/at-public`;
export const SOLO = 'at-solo/at-own';

export const T = {
  owner: 'at_owner',
  securityManager: 'at_sec_manager',
  member: 'at_member',
  repoAdmin: 'at_repo_admin',
  writer: 'at_writer',
  outsider: 'at_outsider',
  solo: 'at_solo_token',
  readOrgOnly: 'at_owner_read_org',
  fineRead: 'at_fine_read',
  fineWrite: 'at_fine_write',
  installation: 'at_installation',
} as const;

export function autoTriageWorld() {
  return {
    users: ['at-owner', 'at-sec', 'at-member', 'at-admin', 'at-writer', 'at-outsider', 'at-solo'].map((login) => ({ login })),
    organizations: [{ login: ORG, owners: ['at-owner'], members: ['at-sec', 'at-member'] }, { login: 'at-elsewhere', owners: ['at-outsider'] }],
    role_assignments: [{ org: ORG, role: 'security_manager', user: 'at-sec' }],
    repositories: [
      { owner: ORG, name: 'at-private', private: true, collaborators: [{ login: 'at-admin', permission: 'admin' }, { login: 'at-writer', permission: 'write' }] },
      { owner: ORG, name: 'at-public', private: false },
      { owner: 'at-solo', name: 'at-own', private: true },
    ],
    tokens: [
      { token: T.owner, type: 'classic', user: 'at-owner', scopes: ['security_events'] },
      { token: T.securityManager, type: 'classic', user: 'at-sec', scopes: ['repo'] },
      { token: T.member, type: 'classic', user: 'at-member', scopes: ['repo'] },
      { token: T.repoAdmin, type: 'classic', user: 'at-admin', scopes: ['repo'] },
      { token: T.writer, type: 'classic', user: 'at-writer', scopes: ['repo'] },
      { token: T.outsider, type: 'classic', user: 'at-outsider', scopes: ['repo'] },
      { token: T.solo, type: 'classic', user: 'at-solo', scopes: ['repo'] },
      { token: T.readOrgOnly, type: 'classic', user: 'at-owner', scopes: ['read:org'] },
      { token: T.fineRead, type: 'fine_grained', user: 'at-owner', resource_owner: ORG, permissions: { dependency_alerts: 'read' } },
      { token: T.fineWrite, type: 'fine_grained', user: 'at-owner', resource_owner: ORG, permissions: { dependency_alerts: 'write' } },
      { token: T.installation, type: 'installation', app: 'at-bot', resource_owner: ORG, permissions: { dependency_alerts: 'write' } },
    ],
  };
}
