import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { ConnectionArgs, connectionOf } from '../../../graphql/relay';
import { Node } from '../../accounts/graphql/node';
import { Repository, User } from '../../accounts/graphql/account.types';
import {
  AdvisoryClassification, AdvisoryType, ArtifactRegistry, DependencyAlertSort, DependencyAlertState, DependencyRelationship, DependencyScope, DismissedReason,
  Ecosystem, RequestedAlertState, RuntimeRisk, Severity, SortDirection,
} from './alert.enums';

@ObjectType({ simpleResolvers: true, description: 'A package in an ecosystem.' })
export class Package {
  @Field(() => Ecosystem, { description: 'The package ecosystem.' }) ecosystem!: Ecosystem;
  @Field({ description: 'The package name.' }) name!: string;
}

@ObjectType({ simpleResolvers: true, description: 'The vulnerable dependency an alert is about.' })
export class Dependency {
  @Field(() => Package, { description: 'The package.' }) package!: Package;
  @Field({ description: 'The manifest the dependency is declared in.' }) manifestPath!: string;
  @Field(() => DependencyScope, { description: 'Runtime or development.' }) scope!: DependencyScope;
  @Field(() => DependencyRelationship, { description: 'Direct, transitive, or not known.' }) relationship!: DependencyRelationship;
}

@ObjectType({ simpleResolvers: true, description: 'A vulnerable version range of a package and its fix.' })
export class SecurityVulnerability {
  @Field(() => Package, { description: 'The package.' }) package!: Package;
  @Field(() => Severity, { description: 'The severity for this package.' }) severity!: Severity;
  @Field({ description: 'A comma-separated comparator expression.' }) vulnerableVersionRange!: string;
  @Field(() => String, { nullable: true, description: 'The first version with the fix, if there is one.' }) firstPatchedVersion!: string | null;
  @Field(() => [String], { description: 'The vulnerable functions the source names.' }) vulnerableFunctions!: string[];
}

@ObjectType({ simpleResolvers: true, description: 'A CVSS vector and score.' })
export class Cvss {
  @Field(() => String, { nullable: true, description: 'The CVSS vector.' }) vectorString!: string | null;
  @Field(() => Float, { description: 'The CVSS score.' }) score!: number;
}

@ObjectType({ simpleResolvers: true, description: 'The exploit prediction scoring system figures.' })
export class Epss {
  @Field(() => Float, { description: 'The probability of exploitation, 0 to 1.' }) percentage!: number;
  @Field(() => String, { nullable: true, description: 'The percentile among all scored vulnerabilities.' }) percentile!: string | null;
}

@ObjectType({ simpleResolvers: true, description: 'A weakness class.' })
export class Cwe {
  @Field({ description: 'The CWE id.' }) cweId!: string;
  @Field({ description: 'The CWE name.' }) name!: string;
}

@ObjectType({ simpleResolvers: true, description: 'An identifier of an advisory.' })
export class AdvisoryIdentifier {
  @Field({ description: 'SVCSA or CVE.' }) type!: string;
  @Field({ description: 'The identifier.' }) value!: string;
}

@ObjectType({ simpleResolvers: true, description: 'Someone the source credits for an advisory.' })
export class AdvisoryCredit {
  @Field({ description: 'The name credited.' }) name!: string;
  @Field(() => String, { nullable: true, description: 'The kind of credit (finder, reporter, analyst, …).' }) type!: string | null;
  @Field(() => [String], { description: 'How to reach them.' }) contact!: string[];
}

@ObjectType({ simpleResolvers: true, implements: Node, description: 'A security advisory.' })
export class SecurityAdvisory extends Node {
  @Field({ description: 'The advisory identifier.' }) svcsaId!: string;
  @Field(() => AdvisoryType, { description: 'Reviewed, unreviewed or malware.' }) type!: AdvisoryType;
  @Field({ description: 'The REST URL of the advisory.' }) url!: string;
  @Field({ description: 'The web URL of the advisory.' }) htmlUrl!: string;
  @Field(() => String, { nullable: true, description: 'Where the affected source code lives, when known.' }) sourceCodeLocation!: string | null;
  @Field(() => Date, { nullable: true, description: 'When it was reviewed, if it was.' }) reviewedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'When the NVD published it, if it did.' }) nvdPublishedAt!: Date | null;
  @Field(() => [AdvisoryCredit], { description: 'Who the source credits.' }) credits!: AdvisoryCredit[];
  @Field(() => String, { nullable: true, description: 'The CVE identifier, if any.' }) cveId!: string | null;
  @Field({ description: 'A short summary.' }) summary!: string;
  @Field({ description: 'The full description.' }) description!: string;
  @Field(() => Severity, { description: 'The severity.' }) severity!: Severity;
  @Field(() => AdvisoryClassification, { description: 'General or malware.' }) classification!: AdvisoryClassification;
  @Field(() => Cvss, { description: 'The CVSS vector and score.' }) cvss!: Cvss;
  @Field(() => GraphQLJSON, { description: 'CVSS v3 and v4 vectors and scores.' }) cvssSeverities!: unknown;
  @Field(() => Epss, { nullable: true, description: 'EPSS figures, when known.' }) epss!: Epss | null;
  @Field(() => [Cwe], { description: 'Weakness classes.' }) cwes!: Cwe[];
  @Field(() => [AdvisoryIdentifier], { description: 'Identifiers.' }) identifiers!: AdvisoryIdentifier[];
  @Field(() => [String], { description: 'Reference URLs.' }) references!: string[];
  @Field(() => Date, { description: 'When it was published.' }) publishedAt!: Date;
  @Field(() => Date, { description: 'When it was last updated.' }) updatedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When it was withdrawn, if it was.' }) withdrawnAt!: Date | null;
  @Field(() => [SecurityVulnerability], { description: 'The vulnerable packages.' }) vulnerabilities!: SecurityVulnerability[];
}

@ObjectType({ simpleResolvers: true, implements: Node, description: 'An alert about a vulnerable dependency of a repository.' })
export class DependencyAlert extends Node {
  @Field(() => Int, { description: 'The alert\'s number in its repository.' }) number!: number;
  @Field(() => DependencyAlertState, { description: 'The state.' }) state!: DependencyAlertState;
  @Field(() => Dependency, { description: 'The vulnerable dependency.' }) dependency!: Dependency;
  @Field(() => SecurityAdvisory, { description: 'The advisory.' }) securityAdvisory!: SecurityAdvisory;
  @Field(() => SecurityVulnerability, { nullable: true, description: 'The advisory\'s entry for this package.' }) securityVulnerability!: SecurityVulnerability | null;
  @Field({ description: 'The REST URL of the alert.' }) url!: string;
  @Field({ description: 'The web URL of the alert.' }) htmlUrl!: string;
  @Field(() => Date, { description: 'When the alert was created.' }) createdAt!: Date;
  @Field(() => Date, { description: 'When the state last changed.' }) updatedAt!: Date;
  @Field(() => Date, { nullable: true, description: 'When it was dismissed.' }) dismissedAt!: Date | null;
  @Field(() => User, { nullable: true, description: 'Who dismissed it.' }) dismissedBy!: User | null;
  @Field(() => DismissedReason, { nullable: true, description: 'Why it was dismissed.' }) dismissedReason!: DismissedReason | null;
  @Field(() => String, { nullable: true, description: 'The dismissal comment.' }) dismissedComment!: string | null;
  @Field(() => Date, { nullable: true, description: 'When it was fixed.' }) fixedAt!: Date | null;
  @Field(() => Date, { nullable: true, description: 'When it was dismissed automatically.' }) autoDismissedAt!: Date | null;
  @Field(() => [User], { description: 'The users assigned to it.' }) assignees!: User[];
  @Field(() => Repository, { description: 'The repository.' }) repository!: Repository;
}

export const DependencyAlertConnection = connectionOf('DependencyAlert', DependencyAlert, 'a list of dependency alerts');

@InputType({ description: 'A condition on the EPSS percentage; give one comparison, or atLeast and atMost for a range.' })
export class EpssFilter {
  @Field(() => Float, { nullable: true, description: 'Exactly this value.' }) equals?: number;
  @Field(() => Float, { nullable: true, description: 'Greater than this value.' }) greaterThan?: number;
  @Field(() => Float, { nullable: true, description: 'Less than this value.' }) lessThan?: number;
  @Field(() => Float, { nullable: true, description: 'At least this value.' }) atLeast?: number;
  @Field(() => Float, { nullable: true, description: 'At most this value.' }) atMost?: number;
}

@ArgsType()
export class DependencyAlertArgs extends ConnectionArgs {
  @Field(() => [DependencyAlertState], { nullable: true, description: 'Any of these states.' }) states?: DependencyAlertState[];
  @Field(() => [Severity], { nullable: true, description: 'Any of these severities.' }) severities?: Severity[];
  @Field(() => [AdvisoryClassification], { nullable: true, description: 'Any of these classifications.' }) classifications?: AdvisoryClassification[];
  @Field(() => [Ecosystem], { nullable: true, description: 'Any of these ecosystems.' }) ecosystems?: Ecosystem[];
  @Field(() => [String], { nullable: true, description: 'Any of these package names.' }) packages?: string[];
  @Field(() => [DependencyRelationship], { nullable: true, description: 'Any of these relationships.' }) relationships?: DependencyRelationship[];
  @Field(() => EpssFilter, { nullable: true, description: 'A condition on the EPSS percentage.' }) epssPercentage?: EpssFilter;
  @Field({ nullable: true, description: 'Only alerts whose package has a patched version.' }) hasPatch?: boolean;
  @Field(() => [String], { nullable: true, description: 'Alerts assigned to any of these logins.' }) assignees?: string[];
  @Field({ nullable: true, description: 'true: at least one assignee; false: none.' }) hasAssignee?: boolean;
  @Field(() => DependencyScope, { nullable: true, description: 'Runtime or development.' }) scope?: DependencyScope;
  @Field(() => DependencyAlertSort, { defaultValue: DependencyAlertSort.CREATED, description: 'The order.' }) sort!: DependencyAlertSort;
  @Field(() => SortDirection, { defaultValue: SortDirection.DESC, description: 'The direction.' }) direction!: SortDirection;
}

@ArgsType()
export class OrganizationDependencyAlertArgs extends DependencyAlertArgs {
  @Field({ nullable: true, description: 'Only alerts of repositories with deployment records.' }) hasDeployment?: boolean;
  @Field(() => [String], { nullable: true, description: 'Repositories with storage records at any of these URLs.' }) artifactRegistryUrls?: string[];
  @Field(() => [ArtifactRegistry], { nullable: true, description: 'Repositories with storage records in any of these registries.' }) artifactRegistries?: ArtifactRegistry[];
  @Field(() => [RuntimeRisk], { nullable: true, description: 'Repositories whose deployments carry any of these risks.' }) runtimeRisks?: RuntimeRisk[];
}

@ArgsType()
export class RepositoryDependencyAlertArgs extends DependencyAlertArgs {
  @Field(() => [String], { nullable: true, description: 'Any of these manifest paths.' }) manifests?: string[];
}

@InputType({ description: 'Changes to a dependency alert: its state, its assignees, or both.' })
export class UpdateDependencyAlertInput {
  @Field({ description: 'The repository owner\'s login.' }) owner!: string;
  @Field({ description: 'The repository name.' }) repository!: string;
  @Field(() => Int, { description: 'The alert number.' }) number!: number;
  @Field(() => RequestedAlertState, { nullable: true, description: 'DISMISSED (with a reason) or OPEN.' }) state?: RequestedAlertState;
  @Field(() => DismissedReason, { nullable: true, description: 'Required when dismissing.' }) dismissedReason?: DismissedReason;
  @Field(() => String, { nullable: true, description: 'A comment for the dismissal (at most 280 characters).' }) dismissedComment?: string;
  @Field(() => [String], { nullable: true, description: 'Replaces the assignees; [] clears them.' }) assignees?: string[];
}

@ObjectType({ simpleResolvers: true, description: 'The result of updateDependencyAlert.' })
export class UpdateDependencyAlertPayload {
  @Field(() => DependencyAlert, { description: 'The alert as it is now.' }) dependencyAlert!: DependencyAlert;
}


