import { Directive, Field, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { connectionOf } from '../../../graphql/relay';
import { Node } from '../../accounts/graphql/node';
import { Organization, Team, User } from '../../accounts/graphql/account.types';
import type { OrganizationRecord } from '../../accounts/accounts.types';
import type { RoleRecord } from '../org-roles.types';

export enum RoleAssignment { DIRECT = 'direct', INDIRECT = 'indirect', MIXED = 'mixed' }
registerEnumType(RoleAssignment, {
  name: 'RoleAssignment',
  description: 'How a role is held: assigned itself (DIRECT), through a team (INDIRECT), or both (MIXED).',
});

export enum RoleSource { ORGANIZATION = 'Organization', ENTERPRISE = 'Enterprise', PREDEFINED = 'Predefined' }
export enum BaseRole { READ = 'read', TRIAGE = 'triage', WRITE = 'write', MAINTAIN = 'maintain', ADMIN = 'admin' }
registerEnumType(RoleSource, { name: 'OrganizationRoleSource', description: 'Where a role is defined.' });
registerEnumType(BaseRole, { name: 'RepositoryRole', description: 'A repository role.' });

@Directive('@key(fields: "id")')
@ObjectType({ simpleResolvers: true, implements: Node, description: 'An organization role: predefined, or custom to the organization.' })
export class OrganizationRole extends Node {
  @Field(() => Int, { description: 'The numeric id REST answers use.' }) databaseId!: number;
  @Field({ description: 'The role\'s name.' }) name!: string;
  @Field(() => String, { nullable: true, description: 'What the role is for.' }) description!: string | null;
  @Field(() => [String], { description: 'The permissions it grants.' }) permissions!: string[];
  @Field(() => BaseRole, { nullable: true, description: 'The repository role it grants on every repository, if any.' }) baseRole!: BaseRole | null;
  @Field(() => RoleSource, { description: 'Where the role is defined.' }) source!: RoleSource;
  @Field(() => Date, { description: 'When the role was created.' }) createdAt!: Date;
  @Field(() => Date, { description: 'When the role was last changed.' }) updatedAt!: Date;
  @Field(() => Organization, { description: 'The organization it is a role of.' }) organization!: Organization;
  role!: RoleRecord;
  org!: OrganizationRecord;
}

@ObjectType('OrganizationRoleTeamEdge', { simpleResolvers: true, description: 'A team holding a role.' })
export class RoleTeamEdge {
  @Field({ description: 'A cursor for this edge.' }) cursor!: string;
  @Field(() => Team, { description: 'The team.' }) node!: Team;
  @Field(() => RoleAssignment, { description: 'How the team holds the role.' }) assignment!: RoleAssignment;
}

@ObjectType('OrganizationRoleUserEdge', { simpleResolvers: true, description: 'A user holding a role.' })
export class RoleUserEdge {
  @Field({ description: 'A cursor for this edge.' }) cursor!: string;
  @Field(() => User, { description: 'The user.' }) node!: User;
  @Field(() => RoleAssignment, { description: 'How the user holds the role.' }) assignment!: RoleAssignment;
  @Field(() => [Team], { description: 'The teams the user holds it through.' }) inheritedFrom!: Team[];
}

export const RoleTeamConnection = connectionOf('OrganizationRoleTeam', Team, 'the teams holding a role', RoleTeamEdge);
export const RoleUserConnection = connectionOf('OrganizationRoleUser', User, 'the users holding a role', RoleUserEdge);

@InputType({ description: 'A role and a team of an organization.' })
export class TeamRoleInput {
  @Field({ description: 'The organization\'s login.' }) organization!: string;
  @Field({ description: 'The team\'s slug.' }) team!: string;
  @Field(() => Int, { description: 'The role\'s numeric id.' }) roleId!: number;
}

@InputType({ description: 'A team of an organization.' })
export class TeamInput {
  @Field({ description: 'The organization\'s login.' }) organization!: string;
  @Field({ description: 'The team\'s slug.' }) team!: string;
}

@InputType({ description: 'A role and a member of an organization.' })
export class UserRoleInput {
  @Field({ description: 'The organization\'s login.' }) organization!: string;
  @Field({ description: 'The user\'s login.' }) user!: string;
  @Field(() => Int, { description: 'The role\'s numeric id.' }) roleId!: number;
}

@InputType({ description: 'A member of an organization.' })
export class UserInput {
  @Field({ description: 'The organization\'s login.' }) organization!: string;
  @Field({ description: 'The user\'s login.' }) user!: string;
}

@ObjectType({ simpleResolvers: true, description: 'The result of a role assignment change for a team.' })
export class TeamRolePayload {
  @Field(() => OrganizationRole, { nullable: true, description: 'The role (absent when all roles were revoked).' }) organizationRole!: OrganizationRole | null;
  @Field(() => Team, { description: 'The team.' }) team!: Team;
}

@ObjectType({ simpleResolvers: true, description: 'The result of a role assignment change for a user.' })
export class UserRolePayload {
  @Field(() => OrganizationRole, { nullable: true, description: 'The role (absent when all roles were revoked).' }) organizationRole!: OrganizationRole | null;
  @Field(() => User, { description: 'The user.' }) user!: User;
}
