import type { Knex } from 'knex';
import { lockForUpdate, toBoolean } from '../../database/dialect';
import { fetchKeysetPage, type KeysetColumn, type KeysetPage } from '../../database/keyset';
import type { Executor } from '../../database/transaction';
import { parseJsonColumn, toJsonColumn } from '../../shared/json';
import type { DeliveryAttempt, DeliveryAttemptDetail, HookOwner, Webhook, WebhookConfigInput, WebhookEvent, WebhookInput } from './webhooks.types';

// Hooks and the log of their delivery attempts (db/migrations/20261127080000). The secret
// column is written here and read by the delivery worker alone: no select of this store
// names it, so no domain object, answer or log line can carry it.

const HOOK_COLUMNS = ['id', 'active', 'events', 'url', 'content_type', 'insecure_ssl', 'created_at', 'updated_at'];
const ATTEMPT_COLUMNS = ['id', 'delivery_id', 'guid', 'redelivery', 'delivered_at', 'duration', 'status', 'status_code', 'event', 'action', 'repo_id', 'url'];
const DETAIL_COLUMNS = [...ATTEMPT_COLUMNS, 'request_headers', 'request_body', 'response_headers', 'response_body'];

/** The deliveries list: newest first (attempt ids only grow; 64-bit, so beyond int32 in time). */
export const DELIVERIES_LIST = 'webhook-deliveries';
const DELIVERY_COLUMNS: readonly KeysetColumn[] = [{ column: 'id', direction: 'desc', type: 'number' }];

type Row = Record<string, any>;

function ownerColumn(owner: HookOwner): { org_id: number } | { repo_id: number } {
  return owner.kind === 'org' ? { org_id: owner.orgId } : { repo_id: owner.repoId };
}

function hookOfRow(owner: HookOwner, row: Row, hasSecret: boolean): Webhook {
  return {
    id: Number(row.id),
    owner,
    active: toBoolean(row.active),
    events: parseJsonColumn<WebhookEvent[]>(row.events, []),
    config: { url: row.url, contentType: row.content_type, hasSecret, insecureSsl: row.insecure_ssl },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** Whether the secret is set, asked of the database without reading it. */
const HAS_SECRET = 'CASE WHEN secret IS NULL THEN 0 ELSE 1 END AS has_secret';

function attemptOfRow(row: Row): DeliveryAttempt {
  return {
    id: Number(row.id),
    deliveryId: Number(row.delivery_id),
    guid: row.guid,
    deliveredAt: row.delivered_at,
    redelivery: toBoolean(row.redelivery),
    duration: Number(row.duration),
    status: row.status,
    statusCode: Number(row.status_code),
    event: row.event,
    action: row.action ?? null,
    repositoryId: row.repo_id === null || row.repo_id === undefined ? null : Number(row.repo_id),
    url: row.url,
  };
}

export interface DeliveryFilter {
  perPage: number;
  after?: string | undefined;
  status?: 'success' | 'failure' | undefined;
}

export class WebhooksStore {
  async list(db: Executor, owner: HookOwner): Promise<Webhook[]> {
    const rows = await db('webhooks').where(ownerColumn(owner)).orderBy('id').select([...HOOK_COLUMNS, db.raw(HAS_SECRET)]);
    return rows.map((row) => hookOfRow(owner, row, Number(row.has_secret) === 1));
  }

  /** A hook of this owner; another owner's answers as a missing one. */
  async find(db: Executor, owner: HookOwner, id: number): Promise<Webhook | undefined> {
    const row = await db('webhooks').where({ ...ownerColumn(owner), id }).first([...HOOK_COLUMNS, db.raw(HAS_SECRET)]);
    return row ? hookOfRow(owner, row, Number(row.has_secret) === 1) : undefined;
  }

  /**
   * Locks the owner's row until the transaction ends and counts its hooks: two creates at once
   * (two instances on PostgreSQL) count one after the other, so the limit holds.
   */
  async lockAndCount(trx: Knex.Transaction, owner: HookOwner): Promise<number> {
    const ownerRow = owner.kind === 'org'
      ? trx('organizations').where('account_id', owner.orgId).select('account_id')
      : trx('repositories').where('id', owner.repoId).select('id');
    await lockForUpdate(ownerRow);
    const row = await trx('webhooks').where(ownerColumn(owner)).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  async insert(trx: Knex.Transaction, owner: HookOwner, input: WebhookInput, now: string): Promise<Webhook> {
    const [row] = await trx('webhooks')
      .insert({
        ...ownerColumn(owner), name: 'web', active: input.active, events: toJsonColumn(input.events), url: input.config.url,
        content_type: input.config.contentType, secret: input.config.secret, insecure_ssl: input.config.insecureSsl, created_at: now, updated_at: now,
      })
      .returning(HOOK_COLUMNS);
    return hookOfRow(owner, row, input.config.secret !== null);
  }

  /** Writes a hook's new state; the secret only when `secret` is given (null removes it). */
  async update(trx: Knex.Transaction, hook: Webhook, next: { active: boolean; events: WebhookEvent[]; config: Omit<WebhookConfigInput, 'secret'> }, secret: string | null | undefined, now: string): Promise<Webhook> {
    await trx('webhooks').where('id', hook.id).update({
      active: next.active, events: toJsonColumn(next.events), url: next.config.url, content_type: next.config.contentType, insecure_ssl: next.config.insecureSsl,
      ...(secret !== undefined ? { secret } : {}), updated_at: now,
    });
    return {
      ...hook, active: next.active, events: next.events, updatedAt: now,
      config: { ...next.config, hasSecret: secret === undefined ? hook.config.hasSecret : secret !== null },
    };
  }

  /** Whether a hook's secret is this one (null: none), asked of the database without reading it out. */
  async hasSecret(db: Executor, id: number, secret: string | null): Promise<boolean> {
    const query = db('webhooks').where('id', id);
    if (secret === null) query.whereNull('secret');
    else query.where('secret', secret);
    return (await query.first('id')) !== undefined;
  }

  /** Deletes a hook; its queued deliveries and their attempts go with it (ON DELETE CASCADE). */
  async delete(trx: Knex.Transaction, id: number): Promise<void> {
    await trx('webhooks').where('id', id).delete();
  }

  /** One page of a hook's delivery attempts, newest first. */
  async attempts(db: Executor, hookId: number, filter: DeliveryFilter): Promise<KeysetPage<DeliveryAttempt>> {
    const query = db('webhook_delivery_attempts').where('hook_id', hookId).select(ATTEMPT_COLUMNS);
    if (filter.status === 'success') query.whereBetween('status_code', [200, 299]);
    if (filter.status === 'failure') query.where((q) => q.where('status_code', '<', 200).orWhere('status_code', '>', 299));
    const page = await fetchKeysetPage<Row>(query, {
      list: DELIVERIES_LIST, columns: DELIVERY_COLUMNS, valuesOf: (row) => [Number(row.id)], perPage: filter.perPage, after: filter.after,
    });
    return { ...page, items: page.items.map(attemptOfRow) };
  }

  async countAttempts(db: Executor, hookId: number): Promise<number> {
    const row = await db('webhook_delivery_attempts').where('hook_id', hookId).count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  /** One attempt of this hook, with its request and response; another hook's answers as a missing one. */
  async attempt(db: Executor, hookId: number, id: number): Promise<DeliveryAttemptDetail | undefined> {
    const row = await db('webhook_delivery_attempts').where({ hook_id: hookId, id }).first(DETAIL_COLUMNS);
    if (!row) return undefined;
    return {
      ...attemptOfRow(row),
      request: { headers: parseJsonColumn<Record<string, string>>(row.request_headers, {}), body: row.request_body },
      response: {
        headers: row.response_headers === null ? null : parseJsonColumn<Record<string, string>>(row.response_headers, {}),
        body: row.response_body ?? null,
      },
    };
  }
}
