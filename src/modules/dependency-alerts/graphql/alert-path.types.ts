import { Field, ObjectType } from 'type-graphql';

@ObjectType({ simpleResolvers: true, description: 'A package on a dependency path, as its manifest lists it.' })
export class DependencyPathPackage {
  @Field({ description: 'The package URL as submitted.' }) packageUrl!: string;
  @Field(() => String, { nullable: true, description: 'npm, pip, maven, nuget, rubygems, go, rust, composer or pub; null for package URL types no advisory matches.' }) ecosystem!: string | null;
  @Field({ description: 'The name in its ecosystem\'s form (maven group:artifact, npm @scope/name).' }) name!: string;
  @Field(() => String, { nullable: true, description: 'The resolved version; null when the package URL has none.' }) version!: string | null;
  @Field({ description: 'direct, indirect or unknown, as the snapshot or SBOM gave it.' }) relationship!: string;
  @Field({ description: 'runtime or development.' }) scope!: string;
}

@ObjectType({ simpleResolvers: true, description: 'How a manifest reaches a vulnerable package: from a direct dependency, through what each package depends on.' })
export class DependencyPath {
  @Field({ description: 'The manifest the path runs through.' }) manifestPath!: string;
  @Field(() => [DependencyPathPackage], { description: 'The packages in order: a direct dependency first, the vulnerable package last.' }) packages!: DependencyPathPackage[];
}
