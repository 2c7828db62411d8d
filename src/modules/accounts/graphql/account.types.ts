import { createUnionType, Directive, Field, Int, ObjectType, registerEnumType } from 'type-graphql';
import { encodeNodeId } from '../../../shared/node-id';
import type { EnterpriseRecord, OrganizationRecord, RepositoryRecord, TeamRecord, UserRecord } from '../accounts.types';
import { Node, objectOf } from './node';

export enum TeamPrivacy { SECRET = 'secret', CLOSED = 'closed' }
export enum TeamNotificationSetting { NOTIFICATIONS_ENABLED = 'notifications_enabled', NOTIFICATIONS_DISABLED = 'notifications_disabled' }
export enum TeamPermission { PULL = 'pull', TRIAGE = 'triage', PUSH = 'push', MAINTAIN = 'maintain', ADMIN = 'admin' }
registerEnumType(TeamPrivacy, { name: 'TeamPrivacy', description: 'Who can see a team.' });
registerEnumType(TeamNotificationSetting, { name: 'TeamNotificationSetting', description: 'Whether team members are notified when the team is mentioned.' });
registerEnumType(TeamPermission, { name: 'TeamPermission', description: 'A team\'s default repository permission.' });

@Directive('@key(fields: "id")')
@Directive('@key(fields: "login")')
@ObjectType({ simpleResolvers: true, implements: Node, description: 'A person with an account.' })
export class User extends Node {
  @Field(() => Int, { description: 'The numeric id REST answers use.' })
  databaseId!: number;

  @Field({ description: 'The user\'s login.' })
  login!: string;

  @Field({ description: 'Whether the user is a site administrator.' })
  siteAdmin!: boolean;

  @Field({ description: 'The REST URL of the user.' })
  url!: string;
}

@Directive('@key(fields: "id")')
@Directive('@key(fields: "login")')
@ObjectType({ simpleResolvers: true, implements: Node, description: 'An organization: members, teams, repositories, roles and security settings.' })
export class Organization extends Node {
  @Field(() => Int, { description: 'The numeric id REST answers use.' })
  databaseId!: number;

  @Field({ description: 'The organization\'s login.' })
  login!: string;

  @Field(() => String, { nullable: true, description: 'The organization\'s description.' })
  description!: string | null;

  @Field({ description: 'Whether custom organization roles can be assigned here.' })
  organizationRolesEnabled!: boolean;

  @Field({ description: 'The REST URL of the organization.' })
  url!: string;

  record!: OrganizationRecord;
}

@Directive('@key(fields: "id")')
@ObjectType({ simpleResolvers: true, implements: Node, description: 'An enterprise account grouping organizations.' })
export class Enterprise extends Node {
  @Field(() => Int, { description: 'The numeric id.' })
  databaseId!: number;

  @Field({ description: 'The enterprise\'s slug.' })
  slug!: string;

  @Field({ description: 'The enterprise\'s name.' })
  name!: string;

  record!: EnterpriseRecord;
}

@Directive('@key(fields: "id")')
@ObjectType({ simpleResolvers: true, implements: Node, description: 'A team of an organization.' })
export class Team extends Node {
  @Field(() => Int, { description: 'The numeric id REST answers use.' })
  databaseId!: number;

  @Field({ description: 'The team\'s slug, unique in its organization.' })
  slug!: string;

  @Field({ description: 'The team\'s name.' })
  name!: string;

  @Field(() => String, { nullable: true, description: 'The team\'s description.' })
  description!: string | null;

  @Field(() => TeamPrivacy, { description: 'Who can see the team.' })
  privacy!: TeamPrivacy;

  @Field(() => TeamNotificationSetting, { description: 'Whether members are notified of mentions.' })
  notificationSetting!: TeamNotificationSetting;

  @Field(() => TeamPermission, { description: 'The team\'s default repository permission.' })
  permission!: TeamPermission;

  record!: TeamRecord;
}

@Directive('@key(fields: "id")')
@Directive('@key(fields: "nameWithOwner")')
@ObjectType({ simpleResolvers: true, implements: Node, description: 'A repository.' })
export class Repository extends Node {
  @Field(() => Int, { description: 'The numeric id REST answers use.' })
  databaseId!: number;

  @Field({ description: 'The repository\'s name.' })
  name!: string;

  @Field({ description: 'owner/name.' })
  nameWithOwner!: string;

  @Field({ description: 'Whether the repository is private.' })
  isPrivate!: boolean;

  @Field({ description: 'Whether the repository is a fork.' })
  isFork!: boolean;

  @Field(() => String, { nullable: true, description: 'The repository\'s description.' })
  description!: string | null;

  @Field({ description: 'The REST URL of the repository.' })
  url!: string;

  record!: RepositoryRecord;
}

export const RepositoryOwner = createUnionType({
  name: 'RepositoryOwner',
  description: 'A user or an organization owning repositories.',
  types: () => [User, Organization] as const,
});

export function toUser(base: string, user: UserRecord): User {
  return objectOf(User, { id: encodeNodeId(user.type, user.id), databaseId: user.id, login: user.login, siteAdmin: user.siteAdmin, url: `${base}/users/${user.login}` });
}

export function toOrganization(base: string, org: OrganizationRecord): Organization {
  return objectOf(Organization, {
    id: encodeNodeId('Organization', org.id), databaseId: org.id, login: org.login, description: org.description,
    organizationRolesEnabled: org.rolesEnabled, url: `${base}/orgs/${org.login}`, record: org,
  });
}

export function toEnterprise(enterprise: EnterpriseRecord): Enterprise {
  return objectOf(Enterprise, { id: encodeNodeId('Enterprise', enterprise.id), databaseId: enterprise.id, slug: enterprise.slug, name: enterprise.name, record: enterprise });
}

export function toTeam(team: TeamRecord): Team {
  return objectOf(Team, {
    id: encodeNodeId('Team', team.id), databaseId: team.id, slug: team.slug, name: team.name, description: team.description,
    privacy: team.privacy as TeamPrivacy, notificationSetting: team.notificationSetting as TeamNotificationSetting,
    permission: team.permission as TeamPermission, record: team,
  });
}

export function toRepository(base: string, repo: RepositoryRecord): Repository {
  const nameWithOwner = `${repo.ownerLogin}/${repo.name}`;
  return objectOf(Repository, {
    id: encodeNodeId('Repository', repo.id), databaseId: repo.id, name: repo.name, nameWithOwner, isPrivate: repo.isPrivate,
    isFork: repo.fork, description: repo.description, url: `${base}/repos/${nameWithOwner}`, record: repo,
  });
}
