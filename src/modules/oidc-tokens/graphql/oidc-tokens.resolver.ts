import { Arg, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { GraphQLContext } from '../../../graphql/context';
import { givenArgs, parseArgs } from '../../../graphql/arguments';
import { Repository } from '../../accounts/graphql/account.types';
import { TOKEN_INPUT, tokenRequestBody } from '../oidc-tokens.schemas';
import { OidcRunContextInput, OidcTokenPreview } from './oidc-tokens.types';

/** The REST body of the same request: the same schema decides (messages name camelCase fields). */
function restBody(context: OidcRunContextInput, audience: string[] | null | undefined): object {
  const c = givenArgs({ ...context });
  const body = givenArgs({
    event_name: c.eventName, ref: c.ref, sha: c.sha, workflow: c.workflow, actor: c.actor, ref_type: c.refType, environment: c.environment,
    workflow_ref: c.workflowRef, job_workflow_ref: c.jobWorkflowRef, job_workflow_sha: c.jobWorkflowSha, workflow_sha: c.workflowSha,
    head_ref: c.headRef, base_ref: c.baseRef, run_id: c.runId, run_number: c.runNumber, run_attempt: c.runAttempt,
    runner_environment: c.runnerEnvironment, actor_id: c.actorId,
  });
  // GraphQL makes a single string a list of one: that is REST's plain string audience.
  const aud = audience === null || audience === undefined ? undefined : audience.length === 1 ? audience[0] : audience;
  return aud === undefined ? { context: body } : { audience: aud, context: body };
}

/**
 * Minting stays REST-only: it writes nothing, but a signed credential is not a value to read in
 * a query (GraphQL responses are cached and logged as data) and a mutation would only rename the
 * POST; the preview is a query, as the read it is.
 */
@Resolver(() => Repository)
export class RepositoryOidcTokens {
  @FieldResolver(() => OidcTokenPreview, { nullable: true, description: 'The claims a workflow run\'s OIDC token would carry, as POST …/actions/oidc/customization/sub/preview answers.' })
  async oidcPreview(
    @Root() repo: Repository,
    @Arg('context', () => OidcRunContextInput, { description: 'The run.' }) context: OidcRunContextInput,
    @Ctx() ctx: GraphQLContext,
    @Arg('audience', () => [String], { nullable: true, description: 'The aud claim (default https://<host of the issuer>/<owner>); one value gives a string.' }) audience?: string[] | null,
  ): Promise<OidcTokenPreview> {
    const request = parseArgs(tokenRequestBody, restBody(context, audience), TOKEN_INPUT);
    return ctx.services.oidcTokens.preview(ctx.principal, repo.record.ownerLogin, repo.name, request);
  }
}
