import { ArgsType, Field, ID, ObjectType } from 'type-graphql';
import { User } from '../../accounts/graphql/account.types';
import { DependencyAlertEventAction } from './alert.enums';
import { DependencyAlert } from './alert.types';

@ObjectType({ simpleResolvers: true, description: 'Something that happened to a dependency alert, with the alert as it left it.' })
export class DependencyAlertEvent {
  @Field(() => ID, { description: 'The event\'s own id (not a node id): unique, and increasing in the order events were committed.' }) id!: string;
  @Field(() => DependencyAlertEventAction, { description: 'What happened.' }) action!: DependencyAlertEventAction;
  @Field(() => Date, { description: 'When it happened.' }) occurredAt!: Date;
  @Field(() => User, { nullable: true, description: 'Who did it; null when orgsec\'s alert engine did (dependency-bot[bot]).' }) sender!: User | null;
  @Field(() => DependencyAlert, { description: 'The alert as the event left it.' }) alert!: DependencyAlert;
}

@ArgsType()
export class DependencyAlertEventArgs {
  @Field(() => String, { nullable: true, description: 'An organization\'s login: the events of its repositories, as its alert list would show them. Give this or repository.' })
  organization?: string;

  @Field(() => String, { nullable: true, description: 'A repository as owner/name: its events. Give this or organization.' })
  repository?: string;

  @Field(() => [DependencyAlertEventAction], { nullable: true, description: 'Only these actions (default: all).' })
  actions?: DependencyAlertEventAction[];
}
