import { Field, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { connectionOf } from '../../../graphql/relay';

@ObjectType('DependencyPackage', { simpleResolvers: true, description: 'A package as its package URL names it.' })
export class DependencyPackageObject {
  @Field(() => String, { nullable: true, description: 'npm, pip, maven, nuget, rubygems, go, rust, composer or pub; null for package URL types no advisory matches.' })
  ecosystem!: string | null;

  @Field({ description: 'The name in its ecosystem\'s form (maven group:artifact, npm @scope/name).' })
  name!: string;
}

@ObjectType({ simpleResolvers: true, description: 'A package in one manifest of the repository\'s current dependencies.' })
export class RepositoryDependency {
  @Field(() => DependencyPackageObject, { description: 'The package.' }) package!: DependencyPackageObject;
  @Field(() => String, { nullable: true, description: 'The resolved version; null when the package URL has none.' }) version!: string | null;
  @Field({ description: 'The package URL as submitted.' }) packageUrl!: string;
  @Field({ description: 'The manifest\'s file.source_location, else its name.' }) manifestPath!: string;
  @Field({ description: 'runtime or development.' }) scope!: string;
  @Field({ description: 'direct, indirect or unknown.' }) relationship!: string;
}

export const RepositoryDependencyConnection = connectionOf('RepositoryDependency', RepositoryDependency, 'a repository\'s current dependencies');

@InputType({ description: 'A dependency snapshot to submit for a repository.' })
export class SubmitDependencySnapshotInput {
  @Field({ description: 'The owner\'s login.' }) owner!: string;
  @Field({ description: 'The repository\'s name.' }) repository!: string;
  @Field(() => GraphQLJSON, { description: 'The snapshot: the body of POST /repos/{owner}/{repo}/dependency-graph/snapshots, checked the same way.' }) snapshot!: unknown;
}

@ObjectType({ simpleResolvers: true, description: 'The result of submitDependencySnapshot.' })
export class SubmitDependencySnapshotPayload {
  @Field(() => Int, { description: 'The snapshot\'s id.' }) id!: number;
  @Field({ description: 'When it was received.' }) createdAt!: string;
  @Field({ description: 'SUCCESS: applied to the default branch\'s dependencies; ACCEPTED: stored, not applied (another ref, a later scan is current, or queued: applied shortly, as the message says).' }) result!: string;
  @Field({ description: 'What happened, in words.' }) message!: string;
}
