import { ArgsType, Directive, Field, InputType, Int, ObjectType } from 'type-graphql';
import { ConnectionArgs, connectionOf } from '../../../graphql/relay';
import { Node } from '../../accounts/graphql/node';
import { Repository, User } from '../../accounts/graphql/account.types';
import { SortDirection } from '../../../graphql/sort-direction';
import type { AlertRecord } from '../alerts.types';
import { AdvisoryClassification, Ecosystem, Severity } from '../../advisories/graphql/advisory.enums';
import { EpssFilter, Package, SecurityAdvisory, SecurityVulnerability } from '../../advisories/graphql/advisory.types';
import {
  ArtifactRegistry, DependencyAlertSort, DependencyAlertState, DependencyRelationship, DependencyScope, DismissedReason, RequestedAlertState, RuntimeRisk,
} from './alert.enums';

@ObjectType({ simpleResolvers: true, description: 'The vulnerable dependency an alert is about.' })
export class Dependency {
  @Field(() => Package, { description: 'The package.' }) package!: Package;
  @Field({ description: 'The manifest the dependency is declared in.' }) manifestPath!: string;
  @Field(() => DependencyScope, { description: 'Runtime or development.' }) scope!: DependencyScope;
  @Field(() => DependencyRelationship, { description: 'Direct, transitive, or not known.' }) relationship!: DependencyRelationship;
}

@Directive('@key(fields: "id")')
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
  /** The alert as stored: what its field resolvers read (dependencyPaths). */
  record!: AlertRecord;
}

export const DependencyAlertConnection = connectionOf('DependencyAlert', DependencyAlert, 'a list of dependency alerts');

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


