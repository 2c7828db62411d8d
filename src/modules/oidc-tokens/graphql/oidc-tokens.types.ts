import { GraphQLJSON } from 'graphql-scalars';
import { Field, InputType, ObjectType } from 'type-graphql';

@InputType({ description: 'The workflow run an OIDC token is for; each field is the claim of that name (event_name, ref, …).' })
export class OidcRunContextInput {
  @Field({ description: 'The event that triggered the run (push, pull_request, …).' }) eventName!: string;
  @Field({ description: 'The git ref (refs/heads/main).' }) ref!: string;
  @Field({ description: 'The commit SHA.' }) sha!: string;
  @Field({ description: 'The workflow\'s name.' }) workflow!: string;
  @Field({ description: 'The login of who started the run.' }) actor!: string;
  @Field({ nullable: true, description: 'branch or tag (default: from the ref).' }) refType?: string;
  @Field({ nullable: true, description: 'The job\'s environment.' }) environment?: string;
  @Field({ nullable: true, description: 'OWNER/REPO/PATH@REF of the workflow.' }) workflowRef?: string;
  @Field({ nullable: true, description: 'The job\'s (reusable) workflow ref (default: workflowRef).' }) jobWorkflowRef?: string;
  @Field({ nullable: true, description: 'The job\'s workflow commit (default: workflowSha).' }) jobWorkflowSha?: string;
  @Field({ nullable: true, description: 'The workflow file\'s commit (default: sha).' }) workflowSha?: string;
  @Field({ nullable: true, description: 'A pull request\'s head ref.' }) headRef?: string;
  @Field({ nullable: true, description: 'A pull request\'s base ref.' }) baseRef?: string;
  @Field({ nullable: true, description: 'The run\'s id (digits).' }) runId?: string;
  @Field({ nullable: true, description: 'The run\'s number (digits).' }) runNumber?: string;
  @Field({ nullable: true, description: 'The attempt (digits; default 1).' }) runAttempt?: string;
  @Field({ nullable: true, description: 'github-hosted or self-hosted (default self-hosted).' }) runnerEnvironment?: string;
  @Field({ nullable: true, description: 'The actor\'s id (digits).' }) actorId?: string;
}

@ObjectType({ simpleResolvers: true, description: 'The claims an OIDC token for a run would carry (nothing signed).' })
export class OidcTokenPreview {
  @Field({ description: 'The subject claim.' }) sub!: string;
  @Field(() => GraphQLJSON, { description: 'Every claim but exp, iat, nbf and jti, as the REST preview answers them.' }) claims!: Record<string, unknown>;
}
