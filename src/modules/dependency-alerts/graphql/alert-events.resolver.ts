import { Args, Ctx, Resolver, Root, Subscription } from 'type-graphql';
import type { GraphQLContext } from '../../../graphql/context';
import { BadRequestError } from '../../../errors/domain';
import { toUser } from '../../accounts/graphql/account.types';
import type { AlertEventMoment } from '../alert-event-stream';
import type { AlertEventAction } from '../alert-events';
import type { AlertEventScope } from '../alerts.types';
import { DependencyAlertEvent, DependencyAlertEventArgs } from './alert-event.types';
import type { DependencyAlertEventAction } from './alert.enums';
import { toDependencyAlert } from './alert.resolver';

const overHttp = () => new BadRequestError('Subscriptions are served over WebSocket (graphql-ws\'s graphql-transport-ws protocol) at this path, not over HTTP.');

/** The organization or repository the arguments name: exactly one of the two. */
function scopeOf(args: DependencyAlertEventArgs): AlertEventScope {
  const { organization, repository } = args;
  if ((organization === undefined || organization === null) === (repository === undefined || repository === null)) {
    throw new BadRequestError('Give exactly one of organization (a login) and repository (owner/name).');
  }
  if (organization !== undefined && organization !== null) return { kind: 'org', login: organization };
  const [owner, name, ...rest] = repository!.split('/');
  if (!owner || !name || rest.length > 0) throw new BadRequestError(`repository must be owner/name; ${JSON.stringify(repository)} is not.`);
  return { kind: 'repo', owner, name };
}

/** Each event as GraphQL shows it, built once per API base for all the subscribers that get it (an event is one object for all of them). */
const shown = new WeakMap<AlertEventMoment, Map<string, DependencyAlertEvent>>();

function toDependencyAlertEvent(base: string, moment: AlertEventMoment): DependencyAlertEvent {
  let byBase = shown.get(moment);
  if (!byBase) shown.set(moment, (byBase = new Map()));
  let event = byBase.get(base);
  if (!event) byBase.set(base, (event = buildEvent(base, moment)));
  return event;
}

function buildEvent(base: string, moment: AlertEventMoment): DependencyAlertEvent {
  return {
    id: String(moment.id),
    action: moment.action as DependencyAlertEventAction,
    occurredAt: new Date(moment.occurredAt),
    sender: moment.sender === null ? null : toUser(base, moment.sender),
    alert: toDependencyAlert(base, moment.view),
  };
}

@Resolver()
export class DependencyAlertSubscriptions {
  @Subscription(() => DependencyAlertEvent, {
    description: 'Dependency alert events as they happen (created, dismissed, reopened, fixed, reintroduced, auto_dismissed, auto_reopened, '
      + 'assignees_changed), in the order they were committed, for whoever may list the alerts of the organization or repository named '
      + '(as organization.dependencyAlerts or repository.dependencyAlerts), checked again for every event. Over WebSocket only '
      + '(the graphql-transport-ws protocol of graphql-ws), at the GraphQL path.',
    subscribe: async ({ args, context }) => {
      const ctx = context as GraphQLContext;
      if (!ctx.live) throw overHttp();
      const { actions } = args as DependencyAlertEventArgs;
      const subscription = await ctx.live.alertEvents.subscribe(scopeOf(args as DependencyAlertEventArgs), {
        principalAt: ctx.live.principalAt,
        actions: actions && actions.length > 0 ? new Set(actions as unknown as AlertEventAction[]) : undefined,
        maxPending: ctx.live.maxPending,
        onLost: ctx.live.onLost,
      });
      return subscription.events;
    },
  })
  dependencyAlertEvents(@Root() moment: AlertEventMoment | undefined, @Args() _args: DependencyAlertEventArgs, @Ctx() ctx: GraphQLContext): DependencyAlertEvent {
    // Over HTTP, graphql-js executes a subscription as a query: this field resolves once, with no event.
    if (moment === undefined || !ctx.live) throw overHttp();
    return toDependencyAlertEvent(ctx.apiBase, moment);
  }
}

