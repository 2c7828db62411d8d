import { Field, InputType, ObjectType, registerEnumType } from 'type-graphql';
import { Enterprise, Organization, Repository } from '../../accounts/graphql/account.types';

export enum InclusionSource { ENTERPRISE = 'enterprise', ORGANIZATION = 'organization' }
registerEnumType(InclusionSource, { name: 'OidcInclusionSource', description: 'Where a property inclusion is set.' });

@ObjectType({ simpleResolvers: true, description: 'A repository custom property included in the OIDC tokens of repository workflows.' })
export class OidcPropertyInclusion {
  @Field({ description: 'The custom property\'s name.' }) customPropertyName!: string;
  @Field(() => InclusionSource, { description: 'Set at enterprise or organization level.' }) source!: InclusionSource;
}

@ObjectType({ simpleResolvers: true, description: 'The template of the OIDC subject claim of an organization.' })
export class OrganizationSubjectClaimTemplate {
  @Field(() => [String], { description: 'The claim keys, in the order the subject is built.' }) includeClaimKeys!: string[];
  @Field({ description: 'Whether the subject uses immutable identifiers.' }) useImmutableSubject!: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'The OIDC subject claim template in effect for a repository.' })
export class RepositorySubjectClaimTemplate {
  @Field({ description: 'Whether the default template is used.' }) useDefault!: boolean;
  @Field(() => [String], { description: 'The claim keys in effect (default, the organization\'s, or the repository\'s own).' }) includeClaimKeys!: string[];
  @Field({ description: 'Whether the subject uses immutable identifiers.' }) useImmutableSubject!: boolean;
  @Field({ description: 'The `repo` part of the subject the repository\'s tokens get: repo:OWNER/REPO, or repo:OWNER@ID/REPO@ID with immutable identifiers.' }) subClaimPrefix!: string;
}

@InputType({ description: 'A custom property inclusion at enterprise level.' })
export class EnterpriseInclusionInput {
  @Field({ description: 'The enterprise\'s slug.' }) enterprise!: string;
  @Field({ description: 'The custom property\'s name.' }) customPropertyName!: string;
}

@InputType({ description: 'A custom property inclusion at organization level.' })
export class OrganizationInclusionInput {
  @Field({ description: 'The organization\'s login.' }) organization!: string;
  @Field({ description: 'The custom property\'s name.' }) customPropertyName!: string;
}

@InputType({ description: 'A new subject claim template for an organization.' })
export class SetOrganizationSubjectClaimTemplateInput {
  @Field({ description: 'The organization\'s login.' }) organization!: string;
  @Field(() => [String], { description: 'Unique claim keys of letters, digits and underscores.' }) includeClaimKeys!: string[];
  @Field({ nullable: true, description: 'Kept as it is when not given.' }) useImmutableSubject?: boolean;
}

@InputType({ description: 'The subject claim template of a repository.' })
export class SetRepositorySubjectClaimTemplateInput {
  @Field({ description: 'The owner\'s login.' }) owner!: string;
  @Field({ description: 'The repository\'s name.' }) repository!: string;
  @Field({ description: 'true: the default template (keys ignored); false: the organization\'s, or the keys given.' }) useDefault!: boolean;
  @Field(() => [String], { nullable: true, description: 'The repository\'s own keys.' }) includeClaimKeys?: string[];
  @Field({ nullable: true, description: 'Kept as it is when not given.' }) useImmutableSubject?: boolean;
}

@ObjectType({ simpleResolvers: true, description: 'The result of an enterprise inclusion change.' })
export class EnterpriseInclusionPayload {
  @Field(() => Enterprise, { description: 'The enterprise.' }) enterprise!: Enterprise;
  @Field(() => [OidcPropertyInclusion], { description: 'Its inclusions now.' }) inclusions!: OidcPropertyInclusion[];
}

@ObjectType({ simpleResolvers: true, description: 'The result of an organization inclusion change.' })
export class OrganizationInclusionPayload {
  @Field(() => Organization, { description: 'The organization.' }) organization!: Organization;
  @Field(() => [OidcPropertyInclusion], { description: 'Its inclusions now.' }) inclusions!: OidcPropertyInclusion[];
}

@ObjectType({ simpleResolvers: true, description: 'The result of setOrganizationOidcSubjectClaimTemplate.' })
export class OrganizationTemplatePayload {
  @Field(() => Organization, { description: 'The organization.' }) organization!: Organization;
  @Field(() => OrganizationSubjectClaimTemplate, { description: 'The template now.' }) template!: OrganizationSubjectClaimTemplate;
}

@ObjectType({ simpleResolvers: true, description: 'The result of setRepositoryOidcSubjectClaimTemplate.' })
export class RepositoryTemplatePayload {
  @Field(() => Repository, { description: 'The repository.' }) repository!: Repository;
  @Field(() => RepositorySubjectClaimTemplate, { description: 'The template in effect now.' }) template!: RepositorySubjectClaimTemplate;
}
