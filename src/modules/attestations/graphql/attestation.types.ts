import { ArgsType, Directive, Field, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { ConnectionArgs, connectionOf } from '../../../graphql/relay';
import { Node } from '../../accounts/graphql/node';
import { Repository } from '../../accounts/graphql/account.types';
import type { AttestationRecord } from '../attestations.types';
import type { SignerIdentity } from '../attestation-trust';

@ObjectType({ simpleResolvers: true, description: 'A subject an attestation is about.' })
export class AttestationSubject {
  @Field({ description: 'sha256:<64 hex>.' }) digest!: string;
  @Field(() => String, { nullable: true, description: 'The subject\'s name, e.g. a file name.' }) name!: string | null;
}

// interfaces.md "Attestation trust" named the signer's fields in snake_case, as the REST side of
// the original writes a certificate summary. The schema is camelCase everywhere else, so the
// camelCase fields are the ones to use; the snake_case ones stay, deprecated, for existing callers.
const useInstead = (field: string) => `Use \`${field}\` (the same value; the schema's fields are camelCase).`;

@ObjectType({ simpleResolvers: true, description: 'Who signed an attestation, as its verified certificate says (Fulcio\'s extensions).' })
export class AttestationSigner implements SignerIdentity {
  @Field(() => String, { nullable: true, description: 'The OIDC issuer the certificate names, e.g. https://token.actions.githubusercontent.com.' }) certificateIssuer!: string | null;
  @Field(() => String, { nullable: true, description: 'The certificate\'s identity, e.g. the URI of the workflow that signed.' }) subjectAlternativeName!: string | null;
  @Field(() => String, { nullable: true, description: 'The repository the workflow ran in.' }) sourceRepositoryUri!: string | null;
  @Field(() => String, { nullable: true, description: 'The owner of that repository.' }) sourceRepositoryOwnerUri!: string | null;
  @Field(() => String, { nullable: true, description: 'github-hosted or self-hosted.' }) runnerEnvironment!: string | null;
  @Field(() => String, { nullable: true, description: 'The git ref the workflow ran on (Fulcio\'s GitHub Workflow Ref), e.g. refs/heads/main.' }) workflowRef!: string | null;

  // Getters, so each old name reads the one value its camelCase field holds.
  @Field(() => String, { nullable: true, description: 'The OIDC issuer the certificate names.', deprecationReason: useInstead('certificateIssuer') })
  get certificate_issuer(): string | null { return this.certificateIssuer; }

  @Field(() => String, { nullable: true, description: 'The certificate\'s identity.', deprecationReason: useInstead('subjectAlternativeName') })
  get subject_alternative_name(): string | null { return this.subjectAlternativeName; }

  @Field(() => String, { nullable: true, description: 'The repository the workflow ran in.', deprecationReason: useInstead('sourceRepositoryUri') })
  get source_repository_uri(): string | null { return this.sourceRepositoryUri; }

  @Field(() => String, { nullable: true, description: 'The owner of that repository.', deprecationReason: useInstead('sourceRepositoryOwnerUri') })
  get source_repository_owner_uri(): string | null { return this.sourceRepositoryOwnerUri; }

  @Field(() => String, { nullable: true, description: 'github-hosted or self-hosted.', deprecationReason: useInstead('runnerEnvironment') })
  get runner_environment(): string | null { return this.runnerEnvironment; }

  @Field(() => String, { nullable: true, description: 'The git ref the workflow ran on.', deprecationReason: useInstead('workflowRef') })
  get workflow_ref(): string | null { return this.workflowRef; }
}

@ObjectType({ simpleResolvers: true, description: 'An attestation\'s verdict against the trusted roots in force.' })
export class AttestationVerification {
  @Field({ description: 'Whether the bundle verifies fully: certificate chain, SCT, transparency log, timestamps, signature.' }) verified!: boolean;
  @Field(() => String, { nullable: true, description: 'The check that failed and why; null when verified.' }) reason!: string | null;
  @Field(() => AttestationSigner, { nullable: true, description: 'The signer, when verified.' }) signer!: AttestationSigner | null;
}

@Directive('@key(fields: "id")')
@ObjectType({ simpleResolvers: true, implements: Node, description: 'A signed attestation (a Sigstore bundle) stored against a repository.' })
export class Attestation extends Node {
  @Field(() => Int, { description: 'The numeric id the REST API gives the attestation.' }) databaseId!: number;
  @Field(() => GraphQLJSON, { description: 'The bundle, as it was sent.' }) bundle!: unknown;
  @Field({ description: 'The in-toto predicate type.' }) predicateType!: string;
  @Field({ description: 'Where the bundle alone can be fetched (REST).' }) bundleUrl!: string;
  @Field(() => String, { nullable: true, description: 'The login that uploaded it, if a user did.' }) initiator!: string | null;
  @Field(() => Repository, { description: 'The repository.' }) repository!: Repository;
  record!: AttestationRecord;
}

export const AttestationConnection = connectionOf('Attestation', Attestation, 'a list of attestations');

@ArgsType()
export class AttestationArgs extends ConnectionArgs {
  @Field({ description: 'sha256:<64 hex> of the subject.' }) subjectDigest!: string;
  @Field(() => String, { nullable: true, description: 'A predicate type URI, or provenance, sbom or release.' }) predicateType?: string;
}

@InputType({ description: 'A bundle to store against a repository.' })
export class CreateAttestationInput {
  @Field({ description: 'The owner\'s login.' }) owner!: string;
  @Field({ description: 'The repository\'s name.' }) repository!: string;
  @Field(() => GraphQLJSON, { description: 'The Sigstore bundle.' }) bundle!: unknown;
}

@ObjectType({ simpleResolvers: true, description: 'The result of createAttestation.' })
export class CreateAttestationPayload {
  @Field(() => Attestation, { description: 'The attestation (the existing one when the same bundle was sent before).' }) attestation!: Attestation;
}
