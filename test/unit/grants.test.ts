import { CLASSIC_SCOPES, expandScopes, grantsLevel, type PermissionLevel, type Scope } from '../../src/auth/grants';

const sorted = (scopes: Iterable<Scope>) => [...scopes].sort();

describe('expandScopes', () => {
  // Every classic scope with exactly what it grants; a scope missing here fails the completeness test below.
  const grantsOf: Record<Scope, Scope[]> = {
    'admin:org': ['admin:org', 'read:audit_log', 'read:org', 'write:org'],
    'write:org': ['read:org', 'write:org'],
    'read:org': ['read:org'],
    'admin:enterprise': ['admin:enterprise'],
    repo: ['public_repo', 'repo', 'security_events'],
    public_repo: ['public_repo'],
    security_events: ['security_events'],
    // Hooks: implied by nothing and implying nothing (admin:org does not reach organization hooks, as in the original).
    'admin:org_hook': ['admin:org_hook'],
    'admin:repo_hook': ['admin:repo_hook'],
    'read:audit_log': ['read:audit_log'],
  };

  it('has an expectation for every classic scope', () => {
    expect(Object.keys(grantsOf).sort()).toEqual([...CLASSIC_SCOPES].sort());
  });

  it.each(Object.entries(grantsOf) as [Scope, Scope[]][])('when given only %s, grants exactly %j', (scope, granted) => {
    expect(sorted(expandScopes([scope]))).toEqual(granted.sort());
  });

  it('when given read:org, does not grant write:org or admin:org', () => {
    const expanded = expandScopes(['read:org']);
    expect(expanded.has('write:org')).toBe(false);
    expect(expanded.has('admin:org')).toBe(false);
  });

  it('when given admin:enterprise, grants no organization or repository scope', () => {
    expect(sorted(expandScopes(['admin:enterprise']))).toEqual(['admin:enterprise']);
  });

  it('when given public_repo or security_events, does not grant repo', () => {
    expect(expandScopes(['public_repo', 'security_events']).has('repo')).toBe(false);
  });

  it('when given several scopes, grants the union of what each grants', () => {
    expect(sorted(expandScopes(['write:org', 'repo']))).toEqual(['public_repo', 'read:org', 'repo', 'security_events', 'write:org']);
  });

  it('when given a scope twice, grants it once', () => {
    expect(sorted(expandScopes(['read:org', 'read:org']))).toEqual(['read:org']);
  });

  it('when given no scopes, grants nothing', () => {
    expect(expandScopes([]).size).toBe(0);
  });
});

describe('grantsLevel', () => {
  it.each<[PermissionLevel | undefined, PermissionLevel, boolean]>([
    ['write', 'write', true],
    ['write', 'read', true],
    ['read', 'read', true],
    ['read', 'write', false],
    [undefined, 'read', false],
    [undefined, 'write', false],
  ])('when %s is granted and %s is needed, answers %s', (granted, needed, expected) => {
    expect(grantsLevel(granted, needed)).toBe(expected);
  });
});
