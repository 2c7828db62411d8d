import { GraphQLJSON } from 'graphql-scalars';
import { Field, InputType, Int, ObjectType } from 'type-graphql';

@InputType({ description: 'An SBOM to record as a snapshot of dependencies, as POST /repos/{owner}/{repo}/dependency-graph/sbom-uploads does.' })
export class UploadSbomInput {
  @Field({ description: 'The owner\'s login.' }) owner!: string;
  @Field({ description: 'The repository\'s name.' }) repository!: string;
  @Field(() => GraphQLJSON, { description: 'The document: a CycloneDX 1.4–1.6 JSON BOM or an SPDX 2.3 JSON document, checked against its specification.' }) document!: unknown;
  @Field(() => String, { nullable: true, description: 'The manifest the packages are recorded under (default: the name of what the document describes, else "sbom").' }) manifest?: string | null;
  @Field(() => String, { nullable: true, description: 'The Git reference the document describes (default: the default branch).' }) ref?: string | null;
  @Field(() => String, { nullable: true, description: 'The commit the document describes.' }) sha?: string | null;
  @Field(() => String, { nullable: true, description: 'Uploads with the same correlator replace each other (default: "sbom-upload <manifest>").' }) correlator?: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A component of an uploaded SBOM that was not recorded.' })
export class SkippedSbomComponent {
  @Field({ description: 'Its name.' }) name!: string;
  @Field({ description: 'Where the document holds it (a JSON pointer).' }) path!: string;
  @Field({ description: 'no_package_url: it has none; subject: it is what the document describes.' }) reason!: string;
}

@ObjectType({ simpleResolvers: true, description: 'The result of uploadSbom.' })
export class UploadSbomPayload {
  @Field(() => Int, { description: 'The snapshot\'s id.' }) id!: number;
  @Field({ description: 'When it was received.' }) createdAt!: string;
  @Field({ description: 'SUCCESS: applied to the default branch\'s dependencies; ACCEPTED: stored, not applied (as the message says).' }) result!: string;
  @Field({ description: 'What happened, in words.' }) message!: string;
  @Field({ description: 'What the document was read as, e.g. "CycloneDX 1.6" or "SPDX 2.3".' }) format!: string;
  @Field({ description: 'The manifest the packages were recorded under.' }) manifest!: string;
  @Field(() => Int, { description: 'Components (SPDX: packages) the document lists.' }) components!: number;
  @Field(() => Int, { description: 'Packages recorded (components with the same package URL count once).' }) recorded!: number;
  @Field(() => Int, { description: 'Recorded packages no advisory can match (no advisory ecosystem, or no version).' }) unmatchable!: number;
  @Field(() => [SkippedSbomComponent], { description: 'The components not recorded, the first 100.' }) skipped!: SkippedSbomComponent[];
}
