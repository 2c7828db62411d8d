// The world the crash tests write into: one enterprise and one organization with
// organization roles on, custom properties to include in OIDC claims, one repository with
// open alerts (its readers can be assignees) and attestations, and one owner who may do it all.

export const ENTERPRISE = 'crash-ent';
export const ORG = 'crash-org';
export const REPO = 'app';
export const OWNER = 'crash-owner';
export const OWNER_TOKEN = 'crash_token_owner';
/** Organization members: role assignees and alert assignees. */
export const MEMBERS = ['crash-m0', 'crash-m1', 'crash-m2', 'crash-m3'];
export const CUSTOM_ROLES = ['Crash auditor', 'Crash deployer'];
export const PROPERTIES = ['environment', 'team', 'region', 'tier'];
export const ALERT_COUNT = 12;
const ADVISORY = 'SVCSA-CRASH-0001';

export function crashWorld() {
  const created = '2026-01-01T00:00:00Z';
  return {
    users: [OWNER, ...MEMBERS].map((login) => ({ login })),
    enterprises: [{ slug: ENTERPRISE, owners: [OWNER] }],
    organizations: [{
      login: ORG, enterprise: ENTERPRISE, organization_roles_enabled: true, owners: [OWNER], members: MEMBERS,
      custom_properties: PROPERTIES.map((name) => ({ name })),
    }],
    teams: [{ org: ORG, slug: 'crew', members: MEMBERS, repositories: [{ name: REPO, permission: 'read' }] }],
    organization_roles: CUSTOM_ROLES.map((name) => ({ org: ORG, name, permissions: ['read_organization_custom_org_role'] })),
    repositories: [{ owner: ORG, name: REPO, private: true }],
    advisories: [{
      svcsa_id: ADVISORY, classification: 'general', severity: 'high', summary: 'A crash-test advisory', description: 'Crash test.',
      published_at: created, updated_at: created, identifiers: [{ type: 'SVCSA', value: ADVISORY }],
      vulnerabilities: [{ package: { ecosystem: 'npm', name: 'left-pad' }, severity: 'high', vulnerable_version_range: '< 2.0.0', first_patched_version: { identifier: '2.0.0' } }],
    }],
    alerts: Array.from({ length: ALERT_COUNT }, (_, i) => ({
      repository: `${ORG}/${REPO}`, number: i + 1, advisory: ADVISORY, package: { ecosystem: 'npm', name: 'left-pad' },
      manifest_path: 'package-lock.json', scope: 'runtime', relationship: 'direct', state: 'open', created_at: created, updated_at: created,
      assignees: [],
    })),
    tokens: [{ token: OWNER_TOKEN, type: 'classic', user: OWNER, scopes: ['admin:org', 'admin:enterprise', 'repo'] }],
  };
}
