import type { Knex } from 'knex';
import type { Principal } from '../../auth/principal';
import type { KeysetPage } from '../../database/keyset';
import type { Executor } from '../../database/transaction';
import { withTransaction } from '../../database/transaction';
import { NotFoundError, ValidationError } from '../../errors/domain';
import type { OperationName } from '../../operations';
import { nowTimestamp } from '../../shared/time';
import type { AuthorizedLookups } from '../accounts/authorized-lookups';
import { forbiddenUrlReason } from './target-policy';
import { queuePing, queueRedelivery } from './webhook-queue';
import { HOOK_INPUT, MAX_HOOKS } from './webhooks.schemas';
import { serializeHook } from './webhooks.serializers';
import type { DeliveryFilter, WebhooksStore } from './webhooks.store';
import { actorOf } from '../audit-log/audit-actors';
import { changedFields } from '../audit-log/audit-changes';
import type { AuditChange } from '../audit-log/audit-log.types';
import type { AuditRecorder } from '../audit-log/audit-recorder';
import type { DeliveryAttempt, DeliveryAttemptDetail, HookOwner, Webhook, WebhookEvent, WebhookInput, WebhookPatch } from './webhooks.types';

/** Which hooks a request names: an organization's, or a repository's. */
export type HookScope = { level: 'org'; org: string } | { level: 'repo'; owner: string; repo: string };

type HookVerb = 'list' | 'create' | 'get' | 'update' | 'delete' | 'ping' | 'listDeliveries' | 'getDelivery' | 'redeliver';

/** The catalogue operation each verb is at each level: the one authorizing it. */
export const HOOK_OPERATIONS: Record<HookScope['level'], Record<HookVerb, OperationName>> = {
  org: {
    list: 'listOrgWebhooks', create: 'createOrgWebhook', get: 'getOrgWebhook', update: 'updateOrgWebhook', delete: 'deleteOrgWebhook',
    ping: 'pingOrgWebhook', listDeliveries: 'listOrgWebhookDeliveries', getDelivery: 'getOrgWebhookDelivery', redeliver: 'redeliverOrgWebhookDelivery',
  },
  repo: {
    list: 'listRepoWebhooks', create: 'createRepoWebhook', get: 'getRepoWebhook', update: 'updateRepoWebhook', delete: 'deleteRepoWebhook',
    ping: 'pingRepoWebhook', listDeliveries: 'listRepoWebhookDeliveries', getDelivery: 'getRepoWebhookDelivery', redeliver: 'redeliverRepoWebhookDelivery',
  },
};

interface WebhooksDeps {
  db: Knex;
  lookups: AuthorizedLookups;
  store: WebhooksStore;
  /** WEBHOOK_ALLOW_PRIVATE_TARGETS: hooks may point at loopback, private and link-local addresses. */
  allowPrivateTargets: boolean;
  /** Wakes this instance's delivery worker once rows it queued are committed (else its poll finds them). */
  queued: () => void;
  audit: AuditRecorder;
}

/**
 * Interfaces.md Part 2 "Webhooks": organization and repository hooks, their pings, and the
 * log of their deliveries. Pings and redeliveries are queued (webhook-queue.ts) in the
 * transaction that authorizes them; the delivery worker sends them.
 *
 * `apiBase` (create, ping): the base the ping payload's hook URLs start with, as the answer's do.
 */
export class WebhooksService {
  constructor(private readonly deps: WebhooksDeps) {}

  async list(principal: Principal, scope: HookScope): Promise<Webhook[]> {
    const { owner } = await this.ownerOf(this.deps.db, principal, scope, 'list');
    return this.deps.store.list(this.deps.db, owner);
  }

  async get(principal: Principal, scope: HookScope, id: number): Promise<Webhook> {
    const { owner } = await this.ownerOf(this.deps.db, principal, scope, 'get');
    return this.hookOf(this.deps.db, owner, id);
  }

  /** Creates a hook and, when it is active, queues its first ping, as the original sends one. */
  async create(principal: Principal, scope: HookScope, input: WebhookInput, apiBase: string): Promise<Webhook> {
    this.assertTarget(input.config.url);
    return withTransaction(this.deps.db, async (trx) => {
      const { owner, target } = await this.ownerOf(trx, principal, scope, 'create');
      if ((await this.deps.store.lockAndCount(trx, owner)) >= MAX_HOOKS) {
        throw new ValidationError(`${scope.level === 'org' ? 'An organization' : 'A repository'} can have at most ${MAX_HOOKS} hooks.`);
      }
      const hook = await this.deps.store.insert(trx, owner, input, nowTimestamp());
      if (hook.active) await this.queuePingOf(trx, hook, apiBase);
      await this.deps.audit.record(trx, actorOf(principal), [{ action: 'hook.create', operation: 'create', ...target, data: { hook_id: hook.id, ...hookFields(hook) } }]);
      return hook;
    }).then((hook) => {
      if (hook.active) this.deps.queued();
      return hook;
    });
  }

  async update(principal: Principal, scope: HookScope, id: number, patch: WebhookPatch): Promise<Webhook> {
    if (patch.config?.url !== undefined) this.assertTarget(patch.config.url);
    return withTransaction(this.deps.db, async (trx) => {
      const { owner, target } = await this.ownerOf(trx, principal, scope, 'update');
      const hook = await this.hookOf(trx, owner, id);
      const { secret, ...config } = patch.config ?? {};
      const next = {
        active: patch.active ?? hook.active,
        events: eventsAfter(hook.events, patch),
        config: {
          url: config.url ?? hook.config.url, contentType: config.contentType ?? hook.config.contentType, insecureSsl: config.insecureSsl ?? hook.config.insecureSsl,
        },
      };
      const updated = await this.deps.store.update(trx, hook, next, secret, nowTimestamp());
      await this.deps.audit.record(trx, actorOf(principal), hookUpdates(hook, updated, secret !== undefined).map((change) => ({ ...change, ...target })));
      return updated;
    });
  }

  async delete(principal: Principal, scope: HookScope, id: number): Promise<void> {
    await withTransaction(this.deps.db, async (trx) => {
      const { owner, target } = await this.ownerOf(trx, principal, scope, 'delete');
      const hook = await this.hookOf(trx, owner, id);
      await this.deps.store.delete(trx, hook.id);
      await this.deps.audit.record(trx, actorOf(principal), [{ action: 'hook.destroy', operation: 'remove', ...target, data: { hook_id: hook.id, ...hookFields(hook) } }]);
    });
  }

  /** Queues a `ping` (active or not: a ping is how one checks a hook before turning it on). */
  async ping(principal: Principal, scope: HookScope, id: number, apiBase: string): Promise<void> {
    await withTransaction(this.deps.db, async (trx) => {
      const { owner, target } = await this.ownerOf(trx, principal, scope, 'ping');
      const hook = await this.hookOf(trx, owner, id);
      await this.queuePingOf(trx, hook, apiBase);
      await this.deps.audit.record(trx, actorOf(principal), [{ action: 'hook.ping', operation: 'create', ...target, data: { hook_id: hook.id } }]);
    });
    this.deps.queued();
  }

  /** One page of a hook's delivery attempts, newest first; with the count when asked (GraphQL's totalCount). */
  async deliveries(principal: Principal, scope: HookScope, id: number, filter: DeliveryFilter, withTotal = false): Promise<{ page: KeysetPage<DeliveryAttempt>; total?: number }> {
    const db = this.deps.db;
    const { owner } = await this.ownerOf(db, principal, scope, 'listDeliveries');
    const hook = await this.hookOf(db, owner, id);
    const page = await this.deps.store.attempts(db, hook.id, filter);
    return withTotal ? { page, total: await this.deps.store.countAttempts(db, hook.id) } : { page };
  }

  async delivery(principal: Principal, scope: HookScope, id: number, deliveryId: number): Promise<DeliveryAttemptDetail> {
    const db = this.deps.db;
    const { owner } = await this.ownerOf(db, principal, scope, 'getDelivery');
    const attempt = await this.deps.store.attempt(db, (await this.hookOf(db, owner, id)).id, deliveryId);
    if (!attempt) throw new NotFoundError();
    return attempt;
  }

  /** Queues the delivery an attempt belongs to again, as a redelivery with the same guid. */
  async redeliver(principal: Principal, scope: HookScope, id: number, deliveryId: number): Promise<void> {
    await withTransaction(this.deps.db, async (trx) => {
      const { owner, target } = await this.ownerOf(trx, principal, scope, 'redeliver');
      const hook = await this.hookOf(trx, owner, id);
      await queueRedelivery(trx, hook.id, deliveryId);
      await this.deps.audit.record(trx, actorOf(principal), [{ action: 'hook.redeliver', operation: 'create', ...target, data: { hook_id: hook.id, delivery_id: deliveryId } }]);
    });
    this.deps.queued();
  }

  private async queuePingOf(trx: Knex.Transaction, hook: Webhook, apiBase: string): Promise<void> {
    await queuePing(trx, { hookId: hook.id, repoId: hook.owner.kind === 'repo' ? hook.owner.repoId : null, hookJson: serializeHook(apiBase, hook) });
  }

  /** Where a hook may send (target-policy.ts), before anything is written: a 422 naming config.url. */
  private assertTarget(url: string): void {
    const target = new URL(url);
    const reason = forbiddenUrlReason(target, this.deps.allowPrivateTargets);
    if (reason === null) return;
    // Refused only for where it points: name the setting that allows it (an operator's, for local tries).
    const bySetting = forbiddenUrlReason(target, true) === null ? ' The server allows such targets only when started with WEBHOOK_ALLOW_PRIVATE_TARGETS=on.' : '';
    const message = `"config.url" ${reason}.${bySetting}`;
    throw new ValidationError(message, [{ resource: HOOK_INPUT.resource, field: 'config.url', code: 'invalid', message }]);
  }

  /** The hooks' owner, and what the audit log names it by. */
  private async ownerOf(db: Executor, principal: Principal, scope: HookScope, verb: HookVerb): Promise<{ owner: HookOwner; target: Pick<AuditChange, 'org' | 'repo'> }> {
    const operation = HOOK_OPERATIONS[scope.level][verb];
    if (scope.level === 'org') {
      const org = await this.deps.lookups.org(db, principal, operation, scope.org);
      return { owner: { kind: 'org', orgId: org.id, login: org.login }, target: { org } };
    }
    const repo = await this.deps.lookups.repo(db, principal, operation, scope.owner, scope.repo);
    return { owner: { kind: 'repo', repoId: repo.id, owner: repo.ownerLogin, name: repo.name }, target: { repo } };
  }

  /** A hook of this owner; another organization's or repository's answers as a missing one. */
  private async hookOf(db: Executor, owner: HookOwner, id: number): Promise<Webhook> {
    const hook = await this.deps.store.find(db, owner, id);
    if (!hook) throw new NotFoundError();
    return hook;
  }
}

/** `events` replaces the list; then `add_events` and `remove_events` change it (the original's order). */
function eventsAfter(current: readonly WebhookEvent[], patch: WebhookPatch): WebhookEvent[] {
  const events = new Set(patch.events ?? current);
  for (const event of patch.addEvents ?? []) events.add(event);
  for (const event of patch.removeEvents ?? []) events.delete(event);
  return [...events];
}

/** A hook's config as the API names it; of its secret, only whether it has one. */
function configFields({ config }: Webhook): Record<string, unknown> {
  return { url: config.url, content_type: config.contentType, insecure_ssl: config.insecureSsl, secret_set: config.hasSecret };
}

/** A hook's settings as the API names them. */
function hookFields(hook: Webhook): Record<string, unknown> {
  return { active: hook.active, events: hook.events, config: configFields(hook) };
}

/** A PATCH's records, one per aspect it changed, as the original records them: config (the secret being replaced counts), events, active. */
function hookUpdates(before: Webhook, after: Webhook, secretGiven: boolean): AuditChange[] {
  const records: AuditChange[] = [];
  const config = changedFields(configFields(before), configFields(after));
  if (config !== undefined || secretGiven) {
    records.push({ action: 'hook.config_update', operation: 'modify', data: { hook_id: after.id, changes: config ?? {}, secret_replaced: secretGiven } });
  }
  const events = changedFields({ events: [...before.events].sort() }, { events: [...after.events].sort() });
  if (events !== undefined) records.push({ action: 'hook.events_update', operation: 'modify', data: { hook_id: after.id, changes: events } });
  const active = changedFields({ active: before.active }, { active: after.active });
  if (active !== undefined) records.push({ action: 'hook.active_update', operation: 'modify', data: { hook_id: after.id, changes: active } });
  return records;
}
