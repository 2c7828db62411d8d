import { Arg, Args, Ctx, FieldResolver, Int, Mutation, Resolver, Root, UseMiddleware } from 'type-graphql';
import { callersOf } from '../../../operations';
import { givenArgs, parseArgs } from '../../../graphql/arguments';
import { neverCache } from '../../../graphql/cached-responses';
import type { GraphQLContext } from '../../../graphql/context';
import { clearLoadersAfter } from '../../../graphql/loaders';
import { ConnectionArgs, toConnection, windowOf, type Connection } from '../../../graphql/relay';
import { BadRequestError } from '../../../errors/domain';
import { decodeCursor, encodeCursor, type KeysetColumn } from '../../../database/keyset';
import { Organization, Repository } from '../../accounts/graphql/account.types';
import { DELIVERIES_LIST } from '../webhooks.store';
import { HOOK_INPUT, deliveriesQuery, orgHookBody, orgHookPatchBody, repoHookBody, repoHookPatchBody } from '../webhooks.schemas';
import { serializeDeliveryDetail, serializeHook } from '../webhooks.serializers';
import type { HookScope } from '../webhooks.service';
import type { DeliveryAttempt, Webhook as WebhookRecord } from '../webhooks.types';
import {
  CreateWebhookInput, DeleteWebhookPayload, RedeliverWebhookDeliveryInput, RedeliverWebhookDeliveryPayload, UpdateWebhookInput, Webhook, WebhookConfigInput,
  WebhookConnection, WebhookDelivery, WebhookDeliveryArgs, WebhookDeliveryDetail, WebhookDeliveryConnection, WebhookPayload, WebhookRefInput,
} from './webhook.types';

const HOOKS_LIST = 'webhooks';
const HOOK_COLUMNS: readonly KeysetColumn[] = [{ column: 'id', direction: 'asc', type: 'integer' }];

function toWebhook(apiBase: string, scope: HookScope, hook: WebhookRecord): Webhook {
  const rest = serializeHook(apiBase, hook);
  return {
    id: rest.id, type: rest.type, name: rest.name, active: rest.active, events: rest.events,
    config: { url: rest.config.url, contentType: rest.config.content_type, secret: rest.config.secret ?? null, insecureSsl: rest.config.insecure_ssl },
    createdAt: rest.created_at, updatedAt: rest.updated_at, url: rest.url, pingUrl: rest.ping_url, deliveriesUrl: rest.deliveries_url, scope,
  };
}

const toDelivery = (a: DeliveryAttempt): WebhookDelivery => ({
  id: a.id, guid: a.guid, deliveredAt: a.deliveredAt, redelivery: a.redelivery, duration: a.duration, status: a.status, statusCode: a.statusCode,
  event: a.event, action: a.action, repositoryId: a.repositoryId, url: a.url,
});

function scopeOf(input: { owner: string; repository?: string | null }): HookScope {
  return input.repository ? { level: 'repo', owner: input.owner, repo: input.repository } : { level: 'org', org: input.owner };
}

const hookCursor = (hook: { id: number }) => encodeCursor(HOOKS_LIST, [hook.id]);

/** An owner's hooks (at most MAX_HOOKS, so read whole) as a connection, paged by id in memory. */
async function hookConnection(ctx: GraphQLContext, scope: HookScope, args: ConnectionArgs): Promise<Connection<Webhook>> {
  const window = windowOf(args);
  const hooks = await ctx.services.webhooks.list(ctx.principal, scope);
  const idOf = (cursor: string | undefined) => (cursor === undefined ? undefined : Number(decodeCursor(HOOKS_LIST, cursor, HOOK_COLUMNS)[0]));
  const after = idOf(window.after);
  const before = idOf(window.before);
  const inRange = hooks.filter((h) => (after === undefined || h.id > after) && (before === undefined || h.id < before));
  const items = window.fromEnd ? inRange.slice(Math.max(0, inRange.length - window.perPage)) : inRange.slice(0, window.perPage);
  const first = items[0];
  const last = items[items.length - 1];
  const hasMore = items.length < inRange.length;
  const page = {
    items,
    next: last && (window.fromEnd ? before !== undefined : hasMore) ? hookCursor(last) : undefined,
    prev: first && (window.fromEnd ? hasMore : after !== undefined) ? hookCursor(first) : undefined,
  };
  return toConnection(page, hookCursor, (h) => toWebhook(ctx.apiBase, scope, h), hooks.length);
}

@Resolver(() => Organization)
export class OrganizationWebhooks {
  @FieldResolver(() => WebhookConnection, { nullable: true, description: `The organization's webhooks, oldest first (${callersOf('listOrgWebhooks')}).` })
  async webhooks(@Root() org: Organization, @Args() args: ConnectionArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<Webhook>> {
    return hookConnection(ctx, { level: 'org', org: org.login }, args);
  }

  @FieldResolver(() => Webhook, { nullable: true, description: 'One of the organization\'s webhooks, by id.' })
  async webhook(@Root() org: Organization, @Arg('id', () => Int, { description: 'The hook\'s id.' }) id: number, @Ctx() ctx: GraphQLContext): Promise<Webhook> {
    const scope: HookScope = { level: 'org', org: org.login };
    return toWebhook(ctx.apiBase, scope, await ctx.services.webhooks.get(ctx.principal, scope, id));
  }
}

@Resolver(() => Repository)
export class RepositoryWebhooks {
  @FieldResolver(() => WebhookConnection, { nullable: true, description: `The repository's webhooks, oldest first (${callersOf('listRepoWebhooks')}).` })
  async webhooks(@Root() repo: Repository, @Args() args: ConnectionArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<Webhook>> {
    return hookConnection(ctx, { level: 'repo', owner: repo.record.ownerLogin, repo: repo.name }, args);
  }

  @FieldResolver(() => Webhook, { nullable: true, description: 'One of the repository\'s webhooks, by id.' })
  async webhook(@Root() repo: Repository, @Arg('id', () => Int, { description: 'The hook\'s id.' }) id: number, @Ctx() ctx: GraphQLContext): Promise<Webhook> {
    const scope: HookScope = { level: 'repo', owner: repo.record.ownerLogin, repo: repo.name };
    return toWebhook(ctx.apiBase, scope, await ctx.services.webhooks.get(ctx.principal, scope, id));
  }
}

@Resolver(() => Webhook)
export class WebhookDeliveries {
  @FieldResolver(() => WebhookDeliveryConnection, { nullable: true, description: 'The hook\'s delivery attempts, newest first; always read fresh (a query asking for them is never answered from a cache).' })
  async deliveries(@Root() hook: Webhook, @Args() args: WebhookDeliveryArgs, @Ctx() ctx: GraphQLContext): Promise<Connection<WebhookDelivery>> {
    neverCache(ctx);
    const window = windowOf(args);
    if (window.fromEnd || window.before !== undefined) throw new BadRequestError('Deliveries page forward only: use `first` and `after`.');
    const q = parseArgs(deliveriesQuery, givenArgs({ per_page: String(Math.max(window.perPage, 1)), cursor: window.after, status: args.status }), HOOK_INPUT);
    const { page, total } = await ctx.services.webhooks.deliveries(ctx.principal, hook.scope, hook.id, { perPage: q.per_page, after: q.cursor, status: q.status }, true);
    const items = window.perPage === 0 ? [] : page.items;
    return toConnection({ ...page, items }, (a) => encodeCursor(DELIVERIES_LIST, [a.id]), toDelivery, total ?? items.length);
  }
}

@Resolver(() => Webhook)
export class WebhookDeliveryDetails {
  @FieldResolver(() => WebhookDeliveryDetail, { nullable: true, description: 'One delivery attempt, by id, with its request and response; always read fresh.' })
  async delivery(@Root() hook: Webhook, @Arg('id', () => Int, { description: 'The attempt\'s id.' }) id: number, @Ctx() ctx: GraphQLContext): Promise<WebhookDeliveryDetail> {
    neverCache(ctx);
    const detail = await ctx.services.webhooks.delivery(ctx.principal, hook.scope, hook.id, id);
    const rest = serializeDeliveryDetail(detail);
    return { ...toDelivery(detail), request: rest.request, response: rest.response };
  }
}

/** A config input as REST's body writes it, so the REST schema checks it (and names the fields in camelCase). */
function configJson(c: WebhookConfigInput): Record<string, unknown> {
  return givenArgs({ url: c.url, content_type: c.contentType, secret: c.secret, insecure_ssl: c.insecureSsl });
}

@Resolver()
@UseMiddleware(clearLoadersAfter)
export class WebhookMutations {
  @Mutation(() => WebhookPayload, { nullable: true, description: 'Creates a webhook, as POST /orgs/{org}/hooks or /repos/{owner}/{repo}/hooks does (a ping is queued when it is active).' })
  async createWebhook(@Arg('input', { description: 'The owner and the hook.' }) input: CreateWebhookInput, @Ctx() ctx: GraphQLContext): Promise<WebhookPayload> {
    const scope = scopeOf(input);
    const body = { ...(scope.level === 'org' ? { name: 'web' } : {}), config: configJson(input.config), ...givenArgs({ events: input.events, active: input.active }) };
    const hook = parseArgs(scope.level === 'org' ? orgHookBody : repoHookBody, body, HOOK_INPUT);
    return { webhook: toWebhook(ctx.apiBase, scope, await ctx.services.webhooks.create(ctx.principal, scope, hook, ctx.apiBase)) };
  }

  @Mutation(() => WebhookPayload, { nullable: true, description: 'Changes a webhook, as PATCH …/hooks/{hook_id} does.' })
  async updateWebhook(@Arg('input', { description: 'The hook and its changes.' }) input: UpdateWebhookInput, @Ctx() ctx: GraphQLContext): Promise<WebhookPayload> {
    const scope = scopeOf(input);
    const body = {
      ...(input.config ? { config: configJson(input.config) } : {}),
      ...givenArgs({ events: input.events, add_events: input.addEvents, remove_events: input.removeEvents, active: input.active }),
    };
    const patch = parseArgs(scope.level === 'org' ? orgHookPatchBody : repoHookPatchBody, body, HOOK_INPUT);
    return { webhook: toWebhook(ctx.apiBase, scope, await ctx.services.webhooks.update(ctx.principal, scope, input.hookId, patch)) };
  }

  @Mutation(() => DeleteWebhookPayload, { nullable: true, description: 'Deletes a webhook, as DELETE …/hooks/{hook_id} does.' })
  async deleteWebhook(@Arg('input', { description: 'The hook.' }) input: WebhookRefInput, @Ctx() ctx: GraphQLContext): Promise<DeleteWebhookPayload> {
    await ctx.services.webhooks.delete(ctx.principal, scopeOf(input), input.hookId);
    return { deletedWebhookId: input.hookId };
  }

  @Mutation(() => WebhookPayload, { nullable: true, description: 'Queues a ping, as POST …/hooks/{hook_id}/pings does.' })
  async pingWebhook(@Arg('input', { description: 'The hook.' }) input: WebhookRefInput, @Ctx() ctx: GraphQLContext): Promise<WebhookPayload> {
    const scope = scopeOf(input);
    await ctx.services.webhooks.ping(ctx.principal, scope, input.hookId, ctx.apiBase);
    return { webhook: toWebhook(ctx.apiBase, scope, await ctx.services.webhooks.get(ctx.principal, scope, input.hookId)) };
  }

  @Mutation(() => RedeliverWebhookDeliveryPayload, { nullable: true, description: 'Queues a delivery again, as POST …/deliveries/{delivery_id}/attempts does.' })
  async redeliverWebhookDelivery(@Arg('input', { description: 'The hook and the delivery attempt.' }) input: RedeliverWebhookDeliveryInput, @Ctx() ctx: GraphQLContext): Promise<RedeliverWebhookDeliveryPayload> {
    const scope = scopeOf(input);
    await ctx.services.webhooks.redeliver(ctx.principal, scope, input.hookId, input.deliveryId);
    return { webhook: toWebhook(ctx.apiBase, scope, await ctx.services.webhooks.get(ctx.principal, scope, input.hookId)) };
  }
}
