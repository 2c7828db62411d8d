import type { ClaimSources, Claims, RunContext } from './oidc-tokens.types';

// The claim builder (reference.md Part 2 "OIDC token claims"): pure, over orgsec's data for a
// repository and the run context. Tested against the original's documented subjects.

/** The default subject template: `repo:OWNER/REPO:<context>`. */
const DEFAULT_KEYS = ['repo', 'context'];

/** A `:` inside a value is written `%3A`, so the subject's separators stay unambiguous. */
const escapeValue = (value: string) => value.replaceAll(':', '%3A');

/** `repo:` plus OWNER/REPO, or OWNER@OWNER_ID/REPO@REPO_ID under use_immutable_subject: also #19's sub_claim_prefix. */
export function subClaimPrefix(owner: { id: number; login: string }, repository: { id: number; name: string }, immutable: boolean): string {
  return immutable ? `repo:${owner.login}@${owner.id}/${repository.name}@${repository.id}` : `repo:${owner.login}/${repository.name}`;
}

/** The default subject's trailing part: the environment, else `pull_request` for that event, else the ref. */
function contextPart(context: RunContext): string {
  if (context.environment !== undefined) return `environment:${escapeValue(context.environment)}`;
  if (context.event_name === 'pull_request') return 'pull_request';
  return `ref:${escapeValue(context.ref)}`;
}

/** What `ref_type` is when the run does not say: from the ref's namespace. */
function refTypeOf(ref: string): string | undefined {
  if (ref.startsWith('refs/heads/')) return 'branch';
  if (ref.startsWith('refs/tags/')) return 'tag';
  return undefined;
}

/**
 * The claims of a run's token but the time-based ones, with `sub`. Every id and number is a
 * string; a claim without a value is left out. Defaults where the run does not say:
 * `ref_type` from the ref, `workflow_sha` the run's sha, `job_workflow_ref`/`_sha` the
 * workflow's (a job not in a reusable workflow), `run_attempt` 1, `runner_environment`
 * self-hosted (orgsec runs no hosted runners).
 */
export function buildClaims(input: { issuer: string; audience: string | string[]; sources: ClaimSources; context: RunContext }): { sub: string; claims: Claims } {
  const { sources, context } = input;
  const { repository, owner, enterprise } = sources;
  const workflowSha = context.workflow_sha ?? context.sha;
  const values: Record<string, string | undefined> = {
    actor: context.actor,
    actor_id: context.actor_id,
    base_ref: context.base_ref,
    enterprise: enterprise?.slug,
    enterprise_id: enterprise ? String(enterprise.id) : undefined,
    environment: context.environment,
    event_name: context.event_name,
    head_ref: context.head_ref,
    job_workflow_ref: context.job_workflow_ref ?? context.workflow_ref,
    job_workflow_sha: context.job_workflow_sha ?? workflowSha,
    ref: context.ref,
    ref_type: context.ref_type ?? refTypeOf(context.ref),
    repository: `${owner.login}/${repository.name}`,
    repository_id: String(repository.id),
    repository_owner: owner.login,
    repository_owner_id: String(owner.id),
    repository_visibility: repository.isPrivate ? 'private' : 'public',
    run_attempt: context.run_attempt ?? '1',
    run_id: context.run_id,
    run_number: context.run_number,
    runner_environment: context.runner_environment ?? 'self-hosted',
    sha: context.sha,
    workflow: context.workflow,
    workflow_ref: context.workflow_ref,
    workflow_sha: workflowSha,
  };
  for (const [name, value] of sources.properties) values[`repo_property_${name}`] = value;
  const present = Object.entries(values).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '');
  const claimOf = (key: string): string => {
    if (key === 'iss') return input.issuer;
    if (key === 'aud') return ([] as string[]).concat(input.audience).join(',');
    return values[key] ?? '';
  };
  // An empty template (#18 accepts one) would give an empty subject: the default applies instead.
  const keys = sources.subject.includeClaimKeys.length > 0 ? sources.subject.includeClaimKeys : DEFAULT_KEYS;
  const sub = keys
    .map((key) => {
      if (key === 'repo') return subClaimPrefix(owner, repository, sources.subject.useImmutableSubject);
      if (key === 'context') return contextPart(context);
      // A key whose claim has no value keeps its place, with an empty value.
      return `${key}:${escapeValue(claimOf(key))}`;
    })
    .join(':');
  return { sub, claims: { iss: input.issuer, sub, aud: input.audience, ...Object.fromEntries(present) } };
}

/** The default audience (interfaces.md): `https://<host of the issuer>/<owner>`. */
export function defaultAudience(audienceBase: string, ownerLogin: string): string {
  return `${audienceBase}/${ownerLogin}`;
}
