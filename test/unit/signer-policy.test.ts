import { policyProblem, signerPolicyOf } from '../../src/modules/attestations/signer-policy';

// `orgsec attestations verify`'s identity options: a plain identity is text, never a pattern;
// a pattern is anchored at the start; a workflow is a run of exactly that workflow at any ref.

const SAN = 'https://github.com/cli/cli/.github/workflows/deployment.yml@refs/heads/trunk';
const signer = (san = SAN, issuer = 'https://token.actions.githubusercontent.com') => ({
  certificateIssuer: issuer, subjectAlternativeName: san, sourceRepositoryUri: null, sourceRepositoryOwnerUri: null, runnerEnvironment: null, workflowRef: null,
});
const accepts = (options: Parameters<typeof signerPolicyOf>[0], s = signer()) => policyProblem(signerPolicyOf(options), s) === undefined;

describe('--cert-identity', () => {
  it('accepts the exact SAN only: no substring, no regex meaning of its dots', () => {
    expect(accepts({ certIdentity: SAN })).toBe(true);
    expect(accepts({ certIdentity: 'https://github.com/cli/cli/' })).toBe(false);
    expect(accepts({ certIdentity: SAN.replace('github.com', 'github.com') }, signer(SAN.replace('github.com', 'githubXcom')))).toBe(false);
    expect(accepts({ certIdentity: 'https://github.com/cli/cli/.github/workflows/deployment.yml@refs/heads/.*' })).toBe(false);
  });
});

describe('--cert-identity-regex', () => {
  it('is anchored at the start (an implicit ^) but not at the end', () => {
    expect(accepts({ certIdentityRegex: 'https://github\\.com/cli/' })).toBe(true);
    expect(accepts({ certIdentityRegex: 'github\\.com/cli/' })).toBe(false);
    expect(accepts({ certIdentityRegex: '.*github\\.com/cli/' })).toBe(true);
  });

  it('anchors every alternative, not only the first', () => {
    expect(accepts({ certIdentityRegex: 'https://example\\.com/|cli/cli' })).toBe(false);
    expect(accepts({ certIdentityRegex: 'https://example\\.com/|https://github\\.com/' })).toBe(true);
  });

  it('that does not compile is refused, naming the option', () => {
    expect(() => signerPolicyOf({ certIdentityRegex: '(unclosed' })).toThrow(/^--cert-identity-regex: not a valid regular expression/);
  });
});

describe('--signer-workflow', () => {
  it('matches https://<host>/OWNER/REPO/PATH@<any ref>, and nothing longer or shorter', () => {
    expect(accepts({ signerWorkflow: 'cli/cli/.github/workflows/deployment.yml' })).toBe(true);
    expect(accepts({ signerWorkflow: 'cli/cli/.github/workflows/deployment.yml' }, signer(SAN.replace('refs/heads/trunk', 'refs/tags/v2.50.0')))).toBe(true);
    expect(accepts({ signerWorkflow: 'cli/cli/.github/workflows/deploy' })).toBe(false);
    expect(accepts({ signerWorkflow: 'cli/cli/.github/workflows/deployment.yml' }, signer('https://github.com/cli/cli/.github/workflows/deployment.yml'))).toBe(false);
    expect(accepts({ signerWorkflow: 'cli/cli/.github/workflows/deployment.yml' }, signer('http://github.com/cli/cli/.github/workflows/deployment.yml@refs/heads/trunk'))).toBe(false);
    expect(accepts({ signerWorkflow: 'other/cli/.github/workflows/deployment.yml' })).toBe(false);
  });

  it('must be OWNER/REPO/PATH', () => {
    expect(() => signerPolicyOf({ signerWorkflow: 'cli/cli' })).toThrow('--signer-workflow: must be OWNER/REPO/PATH');
  });
});

describe('the options together', () => {
  it('--cert-oidc-issuer is compared as text, with any identity option', () => {
    expect(accepts({ certOidcIssuer: 'https://token.actions.githubusercontent.com' })).toBe(true);
    expect(accepts({ certOidcIssuer: 'https://token.actions.githubusercontent.com', certIdentity: SAN })).toBe(true);
    expect(policyProblem(signerPolicyOf({ certOidcIssuer: 'https://accounts.google.com' }), signer())).toBe(
      'the OIDC issuer is "https://token.actions.githubusercontent.com", not "https://accounts.google.com"',
    );
  });

  it('no identity option accepts any verified signer; two of them are refused', () => {
    expect(accepts({})).toBe(true);
    expect(() => signerPolicyOf({ certIdentity: SAN, signerWorkflow: 'cli/cli/x.yml' })).toThrow('exclude each other');
  });
});
