// OIDC tokens (interfaces.md Part 2 "OIDC tokens", reference.md Part 2 "OIDC token claims").

/** The run context fields a request must give: each is the claim of that name. */
export const REQUIRED_CONTEXT_FIELDS = ['event_name', 'ref', 'sha', 'workflow', 'actor'] as const;
/** The ones it may give; each is the claim of that name. */
export const OPTIONAL_CONTEXT_FIELDS = [
  'ref_type', 'environment', 'workflow_ref', 'job_workflow_ref', 'job_workflow_sha', 'workflow_sha', 'head_ref', 'base_ref',
  'run_id', 'run_number', 'run_attempt', 'runner_environment', 'actor_id',
] as const;

/** The workflow run a token is for, keyed by claim name (validated: every value a string). */
export type RunContext = Record<(typeof REQUIRED_CONTEXT_FIELDS)[number], string> & Partial<Record<(typeof OPTIONAL_CONTEXT_FIELDS)[number], string>>;

/** A mint or preview request, as both doors give it. */
export interface TokenRequest {
  /** Absent: `https://<host of the issuer>/<owner>`. */
  audience?: string | string[] | undefined;
  context: RunContext;
}

/** The subject template in force for a repository's tokens (#17–#20 resolved). */
export interface EffectiveSubject {
  includeClaimKeys: readonly string[];
  useImmutableSubject: boolean;
}

/** What orgsec's own data gives a repository's tokens: read once per repository and data version. */
export interface ClaimSources {
  repository: { id: number; name: string; isPrivate: boolean };
  owner: { id: number; login: string };
  enterprise: { id: number; slug: string } | null;
  subject: EffectiveSubject;
  /** Included custom properties (#11–#16) the repository has a value for, by name: the claim values. */
  properties: ReadonlyArray<readonly [name: string, value: string]>;
}

/** A claim's value: strings, `aud` perhaps a list, the time claims NumericDates. */
export type ClaimValue = string | number | string[];
export type Claims = Record<string, ClaimValue>;

export interface TokenPreview {
  sub: string;
  /** Every claim but the time-based ones (exp, iat, nbf, jti), which only a mint has. */
  claims: Claims;
}

export interface MintedToken {
  /** The signed JWT. */
  value: string;
  claims: Claims;
}
