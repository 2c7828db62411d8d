import { OPERATION_LIST } from '../../src/operations';

// A canary for the catalogue's requirements: the spec's §5 grants, typed out by hand from the
// spec, so a wrong entry in src/operations cannot hide behind tests that derive
// their expectations from it.
const SPEC_SECTION_5: Record<string, { scopes: string[]; publicScopes?: string[]; permission: string | null }> = {
  '#1': { scopes: ['admin:org'], permission: 'organization_custom_roles:read' },
  '#2': { scopes: ['admin:org'], permission: 'members:write' },
  '#3': { scopes: ['admin:org'], permission: 'members:write' },
  '#4': { scopes: ['admin:org'], permission: 'members:write' },
  '#5': { scopes: ['admin:org'], permission: 'members:write' },
  '#6': { scopes: ['admin:org'], permission: 'members:write' },
  '#7': { scopes: ['admin:org'], permission: 'members:write' },
  '#8': { scopes: ['admin:org'], permission: 'organization_custom_roles:read' },
  '#9': { scopes: ['admin:org'], permission: 'members:read' },
  '#10': { scopes: ['admin:org'], permission: 'members:read' },
  '#11': { scopes: ['admin:enterprise'], permission: 'enterprise_administration:read' },
  '#12': { scopes: ['admin:enterprise'], permission: 'enterprise_administration:write' },
  '#13': { scopes: ['admin:enterprise'], permission: 'enterprise_administration:write' },
  '#14': { scopes: ['read:org'], permission: 'organization_administration:read' },
  '#15': { scopes: ['admin:org'], permission: 'organization_administration:write' },
  '#16': { scopes: ['admin:org'], permission: 'organization_administration:write' },
  '#17': { scopes: ['read:org'], permission: 'organization_administration:read' },
  '#18': { scopes: ['write:org'], permission: 'organization_administration:write' },
  '#19': { scopes: ['repo'], permission: 'actions:read' },
  '#20': { scopes: ['repo'], permission: 'actions:write' },
  '#21': { scopes: ['repo'], permission: 'attestations:write' },
  '#22': { scopes: ['repo'], permission: 'attestations:read' },
  '#23': { scopes: ['repo', 'security_events'], permission: null },
  '#24': { scopes: ['security_events'], publicScopes: ['public_repo'], permission: 'dependency_alerts:read' },
  '#25': { scopes: ['security_events'], publicScopes: ['public_repo'], permission: 'dependency_alerts:read' },
  '#26': { scopes: ['security_events'], publicScopes: ['public_repo'], permission: 'dependency_alerts:read' },
  '#27': { scopes: ['security_events'], publicScopes: ['public_repo'], permission: 'dependency_alerts:write' },
  // interfaces.md Part 2 "Dependency snapshots and computed alerts": S1 and S2.
  '#30': { scopes: ['repo'], publicScopes: ['public_repo'], permission: 'contents:write' },
  '#31': { scopes: ['repo'], permission: 'contents:read' },
  // interfaces.md Part 2 "Auto-triage rules": security_events (or repo), dependency_alerts read for GET, write otherwise.
  ...Object.fromEntries([32, 34, 37, 39, 42, 44].map((n) => [`#${n}`, { scopes: ['security_events', 'repo'], permission: 'dependency_alerts:read' }])),
  ...Object.fromEntries([33, 35, 36, 38, 40, 41, 43, 45].map((n) => [`#${n}`, { scopes: ['security_events', 'repo'], permission: 'dependency_alerts:write' }])),
  // interfaces.md Part 2 "Webhooks": admin:org_hook (not implied by admin:org) and organization_hooks; admin:repo_hook and
  // repository_hooks; read for GET (list, get, deliveries, one delivery), write otherwise.
  ...Object.fromEntries([46, 48, 52, 53].map((n) => [`#${n}`, { scopes: ['admin:org_hook'], permission: 'organization_hooks:read' }])),
  ...Object.fromEntries([47, 49, 50, 51, 54].map((n) => [`#${n}`, { scopes: ['admin:org_hook'], permission: 'organization_hooks:write' }])),
  ...Object.fromEntries([55, 57, 61, 62].map((n) => [`#${n}`, { scopes: ['admin:repo_hook'], permission: 'repository_hooks:read' }])),
  ...Object.fromEntries([56, 58, 59, 60, 63].map((n) => [`#${n}`, { scopes: ['admin:repo_hook'], permission: 'repository_hooks:write' }])),
  // interfaces.md Part 2 "OIDC tokens": the mint needs repo or id_token: write; the preview follows #19.
  '#64': { scopes: ['repo'], permission: 'id_token:write' },
  '#65': { scopes: ['repo'], permission: 'actions:read' },
  // Issue 37, the audit log: read:audit_log (admin:org implies it); organization_administration or enterprise_administration read.
  '#66': { scopes: ['read:audit_log'], permission: 'organization_administration:read' },
  '#67': { scopes: ['read:audit_log'], permission: 'enterprise_administration:read' },
  // Issue 39, SBOM uploads: as #30.
  '#68': { scopes: ['repo'], publicScopes: ['public_repo'], permission: 'contents:write' },
  // Issue 39, VEX documents: as #25 (a repository's alerts) and #24 (an organization's).
  '#69': { scopes: ['security_events'], publicScopes: ['public_repo'], permission: 'dependency_alerts:read' },
  '#70': { scopes: ['security_events'], publicScopes: ['public_repo'], permission: 'dependency_alerts:read' },
  // Issue 39, an alert's dependency paths: as #26.
  '#71': { scopes: ['security_events'], publicScopes: ['public_repo'], permission: 'dependency_alerts:read' },
};

// Who may call (spec §4.1 rules, §5 "Who may call", reference.md for alerts).
const CALLERS: Record<string, string> = {
  '#1': 'orgRoleReader', '#8': 'orgRoleReader',
  '#2': 'orgAdmin', '#3': 'orgAdmin', '#4': 'orgAdmin', '#5': 'orgAdmin', '#6': 'orgAdmin', '#7': 'orgAdmin', '#9': 'orgAdmin', '#10': 'orgAdmin',
  '#11': 'enterpriseOwner', '#12': 'enterpriseOwner', '#13': 'enterpriseOwner',
  '#14': 'orgOidcAdmin', '#15': 'orgOidcAdmin', '#16': 'orgOidcAdmin', '#17': 'orgOidcAdmin', '#18': 'orgOidcAdmin',
  '#19': 'repoReader', '#20': 'repoWriter',
  '#23': 'enterpriseMember', '#24': 'orgSecurityManager', '#25': 'repoAlertManager', '#26': 'repoAlertManager', '#27': 'repoAlertManager',
  '#30': 'repoWriter', '#31': 'repoReader',
  // Organization rules and presets: an owner or security manager; repository ones: a repository admin, an owner or a security manager.
  ...Object.fromEntries([32, 33, 34, 35, 36, 42, 43].map((n) => [`#${n}`, 'orgSecurityManager'])),
  ...Object.fromEntries([37, 38, 39, 40, 41, 44, 45].map((n) => [`#${n}`, 'repoSecurityAdmin'])),
  // Hooks: an organization owner; a repository admin.
  ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`#${46 + i}`, 'orgAdmin'])),
  ...Object.fromEntries(Array.from({ length: 9 }, (_, i) => [`#${55 + i}`, 'repoAdmin'])),
  '#64': 'repoWriter', '#65': 'repoReader',
  // The audit log: owners only.
  '#66': 'orgAdmin', '#67': 'enterpriseOwner',
  '#68': 'repoWriter',
  '#69': 'repoAlertManager', '#70': 'orgSecurityManager',
  '#71': 'repoAlertManager',
};

const entries = OPERATION_LIST.map((entry) => ({ spec: `#${entry.number}`, ...entry.requirement }));
/** interfaces.md Part 2's global advisory database (#28, #29) needs no token. */
const PART_2: Record<string, string> = { '#28': 'public', '#29': 'public' };

it('has exactly one entry per spec operation, #1 to #27, then Part 2\'s', () => {
  expect(entries.map((r) => r.spec).sort()).toEqual([...Object.keys(SPEC_SECTION_5), ...Object.keys(PART_2)].sort());
});

it.each(Object.entries(PART_2))('%s reads public reference data: no scope, no permission, anyone', (spec, target) => {
  const entry = entries.find((r) => r.spec === spec)!;
  expect({ target: entry.target, scopes: [...entry.scopes], permission: entry.permission, caller: entry.caller }).toEqual({ target, scopes: [], permission: null, caller: 'anyone' });
});

it.each(Object.entries(SPEC_SECTION_5))('%s asks for the scopes and permission of the spec\'s section 5', (spec, expected) => {
  const entry = entries.find((r) => r.spec === spec)!;
  expect({
    scopes: [...entry.scopes],
    ...(entry.publicScopes ? { publicScopes: [...entry.publicScopes] } : {}),
    permission: entry.permission ? entry.permission.join(':') : null,
  }).toEqual(expected);
  if (CALLERS[spec]) expect(entry.caller).toBe(CALLERS[spec]);
});

it('lets only #19, #22, S2 (#31) and the OIDC preview (#65) be called without a token, on public repositories', () => {
  expect(entries.filter((r) => r.publicRead).map((r) => r.spec).sort()).toEqual(['#19', '#22', '#31', '#65']);
});
