import { ArgsType, Field, Float, Int, ObjectType } from 'type-graphql';
import { GraphQLJSON } from 'graphql-scalars';
import { ConnectionArgs, PageInfo, type Edge } from '../../../graphql/relay';

// The audit log in GraphQL: the REST record's fields in camelCase, the action's own fields as JSON.

@ObjectType({ simpleResolvers: true, description: 'One security change: what changed, who changed it, with which token and request.' })
export class AuditLogEntry {
  @Field({ description: 'The record\'s unique id (REST `_document_id`).' }) documentId!: string;
  @Field(() => Float, { description: 'When the change was made, in milliseconds since the epoch (REST `@timestamp`).' }) timestamp!: number;
  @Field({ description: 'When the change was made.' }) createdAt!: Date;
  @Field({ description: 'What changed, as `area.verb` (`organization_role.assign_team`, `dependency_alert.dismiss`, …).' }) action!: string;
  @Field({ description: '`create`, `modify`, `remove` or `access`.' }) operationType!: string;
  @Field(() => String, { nullable: true, description: 'Who made the change: a login, `app[bot]`, `dependency-bot[bot]` (the alert engine) or `orgsec-cli (user)` (a command).' }) actor!: string | null;
  @Field(() => Int, { nullable: true, description: 'The actor\'s user id, when a user.' }) actorId!: number | null;
  @Field({ description: 'Whether the actor is an app or the engine.' }) actorIsBot!: boolean;
  @Field(() => String, { nullable: true, description: 'The enterprise the change belongs to.' }) business!: string | null;
  @Field(() => String, { nullable: true, description: 'The organization the change belongs to.' }) org!: string | null;
  @Field(() => String, { nullable: true, description: 'The repository, as owner/name.' }) repo!: string | null;
  @Field(() => String, { nullable: true, description: 'The user the change concerns (not the actor).' }) user!: string | null;
  @Field(() => String, { nullable: true, description: 'The team the change concerns, as org/slug.' }) team!: string | null;
  @Field(() => Int, { nullable: true, description: 'The token the change was made with.' }) tokenId!: number | null;
  @Field(() => String, { nullable: true, description: 'Which kind of token.' }) programmaticAccessType!: string | null;
  @Field(() => String, { nullable: true, description: 'The X-Request-Id of the request that made the change.' }) requestId!: string | null;
  @Field(() => GraphQLJSON, { description: 'The action\'s own fields: what it changed (`changes`, each field before and after) and what it concerns, as REST shows them.' }) data!: Record<string, unknown>;
}

@ObjectType({ simpleResolvers: true, description: 'An edge of an audit log.' })
export class AuditLogEdge implements Edge<AuditLogEntry> {
  @Field({ description: 'A cursor for this edge (the same cursors REST Link headers carry, for the same query).' }) cursor!: string;
  @Field(() => AuditLogEntry, { description: 'The record.' }) node!: AuditLogEntry;
}

/** No totalCount: counting a log of millions of records on every page is what a cursor list avoids. */
@ObjectType({ simpleResolvers: true, description: 'A page of an audit log, newest first.' })
export class AuditLogConnection {
  @Field(() => [AuditLogEdge], { description: 'The edges of this page.' }) edges!: AuditLogEdge[];
  @Field(() => [AuditLogEntry], { description: 'The records of this page.' }) nodes!: AuditLogEntry[];
  @Field(() => PageInfo, { description: 'Where this page sits.' }) pageInfo!: PageInfo;
}

@ArgsType()
export class AuditLogArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'A search phrase, as REST\'s `phrase`: `action:`, `actor:`, `user:`, `team:`, `repo:`, `org:`, `operation:`, `created:`; `-` negates a term.' })
  query?: string;
}
