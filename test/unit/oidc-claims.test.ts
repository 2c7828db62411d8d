import { buildClaims, subClaimPrefix } from '../../src/modules/oidc-tokens/claims';
import type { ClaimSources, RunContext } from '../../src/modules/oidc-tokens/oidc-tokens.types';
import { templateInEffect } from '../../src/modules/oidc/effective-template';

// The claim builder against reference.md Part 2 "OIDC token claims": every subject example of
// the original's documentation, the default template's three cases, `%3A`, immutable ids, and
// the claims themselves (strings, omitted when empty, repo_property_<name>).

const ISSUER = 'https://orgsec.example.com/oidc';

/** octo-org/octo-repo with the ids of the documentation's immutable example. */
function sources(over: Partial<ClaimSources> = {}, subject: Partial<ClaimSources['subject']> = {}): ClaimSources {
  return {
    repository: { id: 456789, name: 'octo-repo', isPrivate: true },
    owner: { id: 123456, login: 'octo-org' },
    enterprise: null,
    subject: { includeClaimKeys: ['repo', 'context'], useImmutableSubject: false, ...subject },
    properties: [],
    ...over,
  };
}
const CONTEXT: RunContext = { event_name: 'push', ref: 'refs/heads/main', sha: 'e6b1a3f0d7c2c4b5a1f3e5d7c9b1a3f5e7d9c1b3', workflow: 'deploy', actor: 'monalisa' };
const subOf = (s: ClaimSources, context: Partial<RunContext> = {}) =>
  buildClaims({ issuer: ISSUER, audience: 'https://orgsec.example.com/octo-org', sources: s, context: { ...CONTEXT, ...context } }).sub;

describe('the default subject (repo, context)', () => {
  it('names the environment when the job uses one', () => {
    expect(subOf(sources(), { environment: 'prod' })).toBe('repo:octo-org/octo-repo:environment:prod');
  });
  it('is pull_request for that event without an environment', () => {
    expect(subOf(sources(), { event_name: 'pull_request', ref: 'refs/pull/7/merge' })).toBe('repo:octo-org/octo-repo:pull_request');
  });
  it('is the ref otherwise', () => {
    expect(subOf(sources())).toBe('repo:octo-org/octo-repo:ref:refs/heads/main');
  });
  it('matches reference.md Part 1\'s examples for acme/api', () => {
    const acme = sources({ owner: { id: 7, login: 'acme' }, repository: { id: 8, name: 'api', isPrivate: false } });
    expect([subOf(acme, { environment: 'prod' }), subOf(acme), subOf(acme, { event_name: 'pull_request' })])
      .toEqual(['repo:acme/api:environment:prod', 'repo:acme/api:ref:refs/heads/main', 'repo:acme/api:pull_request']);
  });
});

describe('the documentation\'s custom subjects', () => {
  it('repo, context, job_workflow_ref', () => {
    const s = sources({}, { includeClaimKeys: ['repo', 'context', 'job_workflow_ref'] });
    expect(subOf(s, { environment: 'prod', job_workflow_ref: 'octo-org/octo-automation/.github/workflows/oidc.yml@refs/heads/main' }))
      .toBe('repo:octo-org/octo-repo:environment:prod:job_workflow_ref:octo-org/octo-automation/.github/workflows/oidc.yml@refs/heads/main');
  });
  it('repository_owner, repository_visibility', () => {
    const s = sources({ owner: { id: 583231, login: 'monalisa' } }, { includeClaimKeys: ['repository_owner', 'repository_visibility'] });
    expect(subOf(s)).toBe('repository_owner:monalisa:repository_visibility:private');
  });
  it('environment, repository_owner, with a ":" in the environment written %3A', () => {
    const s = sources({}, { includeClaimKeys: ['environment', 'repository_owner'] });
    expect(subOf(s, { environment: 'production:eastus' })).toBe('environment:production%3Aeastus:repository_owner:octo-org');
  });
  it('the immutable default: repo:octo-org@123456/octo-repo@456789:ref:refs/heads/main', () => {
    expect(subOf(sources({}, { useImmutableSubject: true }))).toBe('repo:octo-org@123456/octo-repo@456789:ref:refs/heads/main');
  });
});

describe('custom templates', () => {
  it('keep their order, and any claim may be a key, a custom property\'s too', () => {
    const s = sources({ properties: [['environment', 'prod'], ['team', 'payments']] }, { includeClaimKeys: ['repo_property_team', 'context', 'repo', 'workflow'] });
    expect(subOf(s, { environment: 'staging' })).toBe('repo_property_team:payments:environment:staging:repo:octo-org/octo-repo:workflow:deploy');
  });
  it('use immutable ids in their repo part too', () => {
    expect(subOf(sources({}, { includeClaimKeys: ['repository_owner', 'repo'], useImmutableSubject: true })))
      .toBe('repository_owner:octo-org:repo:octo-org@123456/octo-repo@456789');
  });
  it('escape a ":" inside any value, the context\'s ref included', () => {
    expect(subOf(sources({}, { includeClaimKeys: ['context', 'workflow'] }), { ref: 'refs/tags/v1:rc', workflow: 'build:all' }))
      .toBe('ref:refs/tags/v1%3Arc:workflow:build%3Aall');
  });
  it('keep the place of a key whose claim has no value, empty', () => {
    expect(subOf(sources({}, { includeClaimKeys: ['repo', 'environment'] }))).toBe('repo:octo-org/octo-repo:environment:');
  });
  it('empty (as #18 accepts) fall back to the default', () => {
    expect(subOf(sources({}, { includeClaimKeys: [] }))).toBe('repo:octo-org/octo-repo:ref:refs/heads/main');
  });
});

describe('the claims', () => {
  it('carry the run and the repository, every id and number a string, defaults where the run is silent, nothing empty', () => {
    const { claims } = buildClaims({
      issuer: ISSUER, audience: ['sts.amazonaws.com', 'api://AzureADTokenExchange'],
      sources: sources({ enterprise: { id: 42, slug: 'octo-ent' }, properties: [['cost.center', 'cc-7'], ['regions', 'eu,us']] }),
      context: { ...CONTEXT, run_id: '9120381', run_number: '12', actor_id: '583231', workflow_ref: 'octo-org/octo-repo/.github/workflows/deploy.yml@refs/heads/main' },
    });
    expect(claims).toEqual({
      iss: ISSUER, sub: 'repo:octo-org/octo-repo:ref:refs/heads/main', aud: ['sts.amazonaws.com', 'api://AzureADTokenExchange'],
      actor: 'monalisa', actor_id: '583231', enterprise: 'octo-ent', enterprise_id: '42', event_name: 'push',
      job_workflow_ref: 'octo-org/octo-repo/.github/workflows/deploy.yml@refs/heads/main', job_workflow_sha: CONTEXT.sha,
      ref: 'refs/heads/main', ref_type: 'branch', repository: 'octo-org/octo-repo', repository_id: '456789', repository_owner: 'octo-org',
      repository_owner_id: '123456', repository_visibility: 'private', run_attempt: '1', run_id: '9120381', run_number: '12',
      runner_environment: 'self-hosted', sha: CONTEXT.sha, workflow: 'deploy',
      workflow_ref: 'octo-org/octo-repo/.github/workflows/deploy.yml@refs/heads/main', workflow_sha: CONTEXT.sha,
      'repo_property_cost.center': 'cc-7', repo_property_regions: 'eu,us',
    });
  });
  it('take ref_type tag from a tag ref, and leave it out for other refs', () => {
    const claims = (ref: string) => buildClaims({ issuer: ISSUER, audience: 'a', sources: sources(), context: { ...CONTEXT, ref } }).claims;
    expect([claims('refs/tags/v1.2.0').ref_type, 'ref_type' in claims('refs/pull/3/merge')]).toEqual(['tag', false]);
  });
});

describe('the template in effect and sub_claim_prefix', () => {
  const org = { includeClaimKeys: ['repository_owner', 'context'], useImmutableSubject: true };
  it.each([
    ['never configured: default keys, the organization\'s immutability', undefined, org, ['repo', 'context'], true],
    ['use_default: its own immutability', { useDefault: true, includeClaimKeys: null, useImmutableSubject: false }, org, ['repo', 'context'], false],
    ['opted into the organization\'s template: its keys and immutability', { useDefault: false, includeClaimKeys: null, useImmutableSubject: false }, org, org.includeClaimKeys, true],
    ['its own keys: its own immutability', { useDefault: false, includeClaimKeys: ['repo'], useImmutableSubject: false }, org, ['repo'], false],
    ['owned by a user: the default', { useDefault: false, includeClaimKeys: null, useImmutableSubject: true }, undefined, ['repo', 'context'], true],
  ] as const)('%s', (_name, stored, orgTemplate, keys, immutable) => {
    const effective = templateInEffect(stored === undefined ? undefined : { ...stored, includeClaimKeys: stored.includeClaimKeys === null ? null : [...stored.includeClaimKeys] }, orgTemplate);
    expect([effective.includeClaimKeys, effective.immutableInEffect]).toEqual([keys, immutable]);
  });
  it('sub_claim_prefix is the subject\'s repo part', () => {
    const { owner, repository } = sources();
    expect([subClaimPrefix(owner, repository, false), subClaimPrefix(owner, repository, true)]).toEqual(['repo:octo-org/octo-repo', 'repo:octo-org@123456/octo-repo@456789']);
  });
});
