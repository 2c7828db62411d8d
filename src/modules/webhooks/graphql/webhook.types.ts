import { GraphQLJSON } from 'graphql-scalars';
import { ArgsType, Field, Float, InputType, Int, ObjectType } from 'type-graphql';
import { ConnectionArgs, connectionOf } from '../../../graphql/relay';
import type { HookScope } from '../webhooks.service';

// GraphQL's webhook types (interfaces.md Part 2 "Webhooks"): the REST shapes in camelCase.

@ObjectType({ simpleResolvers: true, description: 'Where and how a hook delivers.' })
export class WebhookConfig {
  @Field({ description: 'The URL deliveries are POSTed to.' }) url!: string;
  @Field({ description: 'json or form.' }) contentType!: string;
  @Field(() => String, { nullable: true, description: '"********" when the hook has a secret (its value is never shown), else null.' }) secret!: string | null;
  @Field({ description: '"0" verifies TLS certificates; "1" does not.' }) insecureSsl!: string;
}

@ObjectType({ simpleResolvers: true, description: 'One attempt to deliver an event to a hook.' })
export class WebhookDelivery {
  @Field(() => Int, { description: 'The id REST answers use (an attempt\'s).' }) id!: number;
  @Field({ description: 'X-Service-Delivery: the same on every attempt of one delivery.' }) guid!: string;
  @Field({ description: 'When the attempt was made.' }) deliveredAt!: string;
  @Field({ description: 'Whether a person asked for this attempt.' }) redelivery!: boolean;
  @Field(() => Float, { description: 'Seconds the attempt took.' }) duration!: number;
  @Field({ description: 'OK, or what went wrong.' }) status!: string;
  @Field(() => Int, { description: 'The answer\'s HTTP status; 0 when no answer came.' }) statusCode!: number;
  @Field({ description: 'The event.' }) event!: string;
  @Field(() => String, { nullable: true, description: 'The event\'s action.' }) action!: string | null;
  @Field(() => Int, { nullable: true, description: 'The repository the event is about.' }) repositoryId!: number | null;
  @Field({ description: 'Where it was sent.' }) url!: string;
}

@ObjectType({ simpleResolvers: true, description: 'One delivery attempt with the request as sent and the response as received (bounded).' })
export class WebhookDeliveryDetail extends WebhookDelivery {
  @Field(() => GraphQLJSON, { description: '{headers, payload}: the payload parsed when it is JSON.' }) request!: unknown;
  @Field(() => GraphQLJSON, { description: '{headers, payload}: headers null when no answer came.' }) response!: unknown;
}

export const WebhookDeliveryConnection = connectionOf('WebhookDelivery', WebhookDelivery, 'a hook\'s delivery attempts, newest first');

@ObjectType({ simpleResolvers: true, description: 'An organization or repository webhook.' })
export class Webhook {
  @Field(() => Int, { description: 'The id REST answers use.' }) id!: number;
  @Field({ description: 'Organization or Repository.' }) type!: string;
  @Field({ description: 'Always web.' }) name!: string;
  @Field({ description: 'Whether events are delivered.' }) active!: boolean;
  @Field(() => [String], { description: 'The events it receives: dependency_bot_alert, security_advisory, ping, or * for all.' }) events!: string[];
  @Field(() => WebhookConfig, { description: 'Where and how it delivers.' }) config!: WebhookConfig;
  @Field({ description: 'When it was created.' }) createdAt!: string;
  @Field({ description: 'When it was last changed.' }) updatedAt!: string;
  @Field({ description: 'Its REST URL.' }) url!: string;
  @Field({ description: 'Where to POST to ping it.' }) pingUrl!: string;
  @Field({ description: 'Its deliveries\' REST URL.' }) deliveriesUrl!: string;
  /** Whose it is, for its deliveries (not a field). */
  scope!: HookScope;
}

export const WebhookConnection = connectionOf('Webhook', Webhook, 'webhooks, oldest first');

@ArgsType()
export class WebhookDeliveryArgs extends ConnectionArgs {
  @Field(() => String, { nullable: true, description: 'success (answered 2xx) or failure.' }) status?: string | null;
}

const OWNER = 'The organization\'s login, or the repository\'s owner.';
const REPOSITORY = 'The repository\'s name for a repository hook; absent for an organization hook.';

@InputType({ description: 'Where and how a hook delivers.' })
export class WebhookConfigInput {
  @Field(() => String, { nullable: true, description: 'The URL deliveries are POSTed to (required when creating).' }) url?: string | null;
  @Field(() => String, { nullable: true, description: 'json (the default) or form.' }) contentType?: string | null;
  @Field(() => String, { nullable: true, description: 'Signs each delivery (X-Hub-Signature-256); "" removes it.' }) secret?: string | null;
  @Field(() => String, { nullable: true, description: '"0" (the default) or "1".' }) insecureSsl?: string | null;
}

@InputType({ description: 'A hook to create, as POST …/hooks takes it.' })
export class CreateWebhookInput {
  @Field({ description: OWNER }) owner!: string;
  @Field(() => String, { nullable: true, description: REPOSITORY }) repository?: string | null;
  @Field(() => WebhookConfigInput, { description: 'Where and how it delivers.' }) config!: WebhookConfigInput;
  @Field(() => [String], { nullable: true, description: 'The events it receives (default dependency_bot_alert).' }) events?: string[] | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether events are delivered (default true).' }) active?: boolean | null;
}

@InputType({ description: 'Changes to a hook: the fields given; config fields merge into the hook\'s.' })
export class UpdateWebhookInput {
  @Field({ description: OWNER }) owner!: string;
  @Field(() => String, { nullable: true, description: REPOSITORY }) repository?: string | null;
  @Field(() => Int, { description: 'The hook\'s id.' }) hookId!: number;
  @Field(() => WebhookConfigInput, { nullable: true, description: 'Where and how it delivers.' }) config?: WebhookConfigInput | null;
  @Field(() => [String], { nullable: true, description: 'Replaces the events.' }) events?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Events to add (repository hooks).' }) addEvents?: string[] | null;
  @Field(() => [String], { nullable: true, description: 'Events to remove (repository hooks).' }) removeEvents?: string[] | null;
  @Field(() => Boolean, { nullable: true, description: 'Whether events are delivered.' }) active?: boolean | null;
}

@InputType({ description: 'A hook, to delete or ping.' })
export class WebhookRefInput {
  @Field({ description: OWNER }) owner!: string;
  @Field(() => String, { nullable: true, description: REPOSITORY }) repository?: string | null;
  @Field(() => Int, { description: 'The hook\'s id.' }) hookId!: number;
}

@InputType({ description: 'A delivery to send again.' })
export class RedeliverWebhookDeliveryInput extends WebhookRefInput {
  @Field(() => Int, { description: 'The delivery attempt\'s id, as the deliveries list gives it.' }) deliveryId!: number;
}

@ObjectType({ simpleResolvers: true, description: 'The result of creating, updating or pinging a hook.' })
export class WebhookPayload {
  @Field(() => Webhook, { description: 'The hook as it now is.' }) webhook!: Webhook;
}

@ObjectType({ simpleResolvers: true, description: 'The result of deleting a hook.' })
export class DeleteWebhookPayload {
  @Field(() => Int, { description: 'The id of the hook deleted.' }) deletedWebhookId!: number;
}

@ObjectType({ simpleResolvers: true, description: 'The result of asking for a redelivery.' })
export class RedeliverWebhookDeliveryPayload {
  @Field(() => Webhook, { description: 'The hook it will be delivered to.' }) webhook!: Webhook;
}
