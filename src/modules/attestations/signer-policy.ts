import type { SignerIdentity } from './attestation-trust';

// The identity policy of `orgsec attestations verify` (interfaces.md "Attestation trust"),
// checked by orgsec on the verified signer. It is never handed to @sigstore/verify's
// VerificationPolicy: that matches a subjectAlternativeName as an unanchored regular
// expression, so a plain identity would match any SAN that contains it (or its dots as any
// character).

export type IdentityRule =
  | { kind: 'any' }
  /** --cert-identity: the SAN, compared as text. */
  | { kind: 'exact'; san: string }
  /** --cert-identity-regex: anchored at the start (an implicit ^), as gh's --signer-workflow is. */
  | { kind: 'regex'; source: string; pattern: RegExp }
  /** --signer-workflow OWNER/REPO/PATH: https://<host>/OWNER/REPO/PATH@<any ref>. */
  | { kind: 'workflow'; workflow: string };

export interface SignerPolicy {
  identity: IdentityRule;
  /** --cert-oidc-issuer: the OIDC issuer the certificate names, compared as text. */
  oidcIssuer: string | undefined;
}

export interface SignerPolicyOptions {
  signerWorkflow?: string | undefined;
  certIdentity?: string | undefined;
  certIdentityRegex?: string | undefined;
  certOidcIssuer?: string | undefined;
}

const WORKFLOW = /^[^/\s@]+\/[^/\s@]+\/[^\s@]+$/;

/** The policy the options ask for; throws, naming the option, when they are not usable. */
export function signerPolicyOf(options: SignerPolicyOptions): SignerPolicy {
  const given = (['signerWorkflow', 'certIdentity', 'certIdentityRegex'] as const).filter((k) => options[k] !== undefined);
  if (given.length > 1) throw new Error('--signer-workflow, --cert-identity and --cert-identity-regex exclude each other: give one');
  const oidcIssuer = options.certOidcIssuer;
  if (oidcIssuer === '') throw new Error('--cert-oidc-issuer: must not be empty');
  if (options.certIdentity !== undefined) {
    if (options.certIdentity === '') throw new Error('--cert-identity: must not be empty');
    return { identity: { kind: 'exact', san: options.certIdentity }, oidcIssuer };
  }
  if (options.certIdentityRegex !== undefined) {
    let pattern: RegExp;
    try {
      pattern = new RegExp(`^(?:${options.certIdentityRegex})`, 'u');
    } catch (error) {
      throw new Error(`--cert-identity-regex: not a valid regular expression (${error instanceof Error ? error.message : String(error)})`);
    }
    return { identity: { kind: 'regex', source: options.certIdentityRegex, pattern }, oidcIssuer };
  }
  if (options.signerWorkflow !== undefined) {
    if (!WORKFLOW.test(options.signerWorkflow)) throw new Error('--signer-workflow: must be OWNER/REPO/PATH, e.g. cli/cli/.github/workflows/deployment.yml');
    return { identity: { kind: 'workflow', workflow: options.signerWorkflow }, oidcIssuer };
  }
  return { identity: { kind: 'any' }, oidcIssuer };
}

/** Whether a SAN is https://<host>/<workflow>@<ref> with a non-empty host and ref. */
function isWorkflowRun(san: string, workflow: string): boolean {
  if (!san.startsWith('https://')) return false;
  const afterScheme = san.slice('https://'.length);
  const slash = afterScheme.indexOf('/');
  if (slash <= 0) return false;
  const path = afterScheme.slice(slash + 1);
  return path.startsWith(`${workflow}@`) && path.length > workflow.length + 1;
}

/** Why a verified signer does not meet the policy, or undefined when it does. */
export function policyProblem(policy: SignerPolicy, signer: SignerIdentity): string | undefined {
  const san = signer.subjectAlternativeName ?? '';
  if (policy.oidcIssuer !== undefined && signer.certificateIssuer !== policy.oidcIssuer) {
    return `the OIDC issuer is ${JSON.stringify(signer.certificateIssuer)}, not ${JSON.stringify(policy.oidcIssuer)}`;
  }
  const rule = policy.identity;
  switch (rule.kind) {
    case 'any':
      return undefined;
    case 'exact':
      return san === rule.san ? undefined : `the identity is ${JSON.stringify(san)}, not ${JSON.stringify(rule.san)}`;
    case 'regex':
      return rule.pattern.test(san) ? undefined : `the identity ${JSON.stringify(san)} does not match ^${rule.source}`;
    case 'workflow':
      return isWorkflowRun(san, rule.workflow) ? undefined : `the identity ${JSON.stringify(san)} is not a run of the workflow ${rule.workflow}`;
  }
}
