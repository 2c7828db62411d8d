import type { Executor } from '../../database/transaction';
import { encodeNodeId } from '../../shared/node-id';
import { serializeOrganizationSummary, serializeRepositorySummary, serializeUserSummary } from '../accounts/accounts.serializers';
import type { AccountsStore } from '../accounts/accounts.store';
import type { EnterpriseRecord } from '../accounts/accounts.types';
import type { ClaimedDelivery } from './delivery.store';
import { htmlUrls } from '../../shared/html-urls';

// The body of a delivery, built when it is sent (reference.md Part 2 "Webhook payloads"):
// `{action, <event's object>, repository, organization, enterprise?, sender}`. The event row
// keeps the alert (or advisory) as it was at the change, with URLs as paths; the repository,
// organization and sender are read now and every URL is put under the instance's public API
// base (PUBLIC_URL): a worker answers no request, so it cannot take the base from one. A row
// that carries its own payload (a ping) is sent as written.

/** The engine's sender, as the original's dependabot[bot]. */
const BOT = { id: 49699333, login: 'dependency-bot[bot]' };

export function serializeBotSender(base: string) {
  return {
    ...serializeUserSummary(base, { id: BOT.id, login: BOT.login, type: 'User', siteAdmin: false }),
    html_url: htmlUrls.app(base),
    type: 'Bot',
  };
}

export function serializeEnterpriseSummary(base: string, enterprise: EnterpriseRecord) {
  return {
    id: enterprise.id,
    slug: enterprise.slug,
    name: enterprise.name,
    node_id: encodeNodeId('Enterprise', enterprise.id),
    avatar_url: `${base}/avatars/e/${enterprise.id}`,
    html_url: htmlUrls.enterprise(base, enterprise.slug),
  };
}

/** Puts `base` before every path-valued URL field (`url`, `html_url`, `…_url`) of a stored object. */
export function absoluteUrls(value: unknown, base: string): unknown {
  if (Array.isArray(value)) return value.map((v) => absoluteUrls(v, base));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [
    key,
    typeof v === 'string' && (key === 'url' || key.endsWith('_url')) && v.startsWith('/') ? `${base}${v}` : absoluteUrls(v, base),
  ]));
}

interface EventRecord {
  id: number;
  event: string;
  action: string;
  repoId: number | null;
  orgId: number | null;
  senderId: number | null;
  payload: Record<string, unknown>;
}

export class DeliveryPayloads {
  constructor(private readonly deps: { accounts: AccountsStore }) {}

  /** The JSON body of each delivery, by delivery id; a delivery whose event is gone is absent. */
  async bodies(db: Executor, base: string, deliveries: readonly ClaimedDelivery[]): Promise<Map<number, string>> {
    const bodies = new Map<number, string>();
    const eventIds = deliveries.flatMap((d) => (d.payload === null && d.eventId !== null ? [d.eventId] : []));
    const events = await this.events(db, eventIds);
    const { accounts } = this.deps;
    const repos = await accounts.findRepositoriesByIds(db, [...events.values()].flatMap((e) => (e.repoId === null ? [] : [e.repoId])));
    const orgIds = [...events.values()].flatMap((e) => {
      const repo = e.repoId === null ? undefined : repos.get(e.repoId);
      return e.orgId !== null ? [e.orgId] : repo?.ownerType === 'Organization' ? [repo.ownerId] : [];
    });
    const orgs = new Map((await accounts.findOrganizationsByIds(db, [...new Set(orgIds)])).map((o) => [o.id, o]));
    const enterprises = new Map<number, EnterpriseRecord>();
    for (const enterpriseId of new Set([...orgs.values()].flatMap((o) => (o.enterpriseId === null ? [] : [o.enterpriseId])))) {
      const enterprise = await accounts.findEnterpriseById(db, enterpriseId);
      if (enterprise) enterprises.set(enterpriseId, enterprise);
    }
    const senders = new Map((await accounts.findAccountsByIds(db, [...new Set([...events.values()].flatMap((e) => (e.senderId === null ? [] : [e.senderId])))])).map((u) => [u.id, u]));
    // Every hook gets the same body for one event: built once.
    const byEvent = new Map<number, string>();
    for (const delivery of deliveries) {
      if (delivery.payload !== null) {
        bodies.set(delivery.id, delivery.payload);
        continue;
      }
      const event = delivery.eventId === null ? undefined : events.get(delivery.eventId);
      if (event === undefined) continue;
      const built = byEvent.get(event.id);
      if (built !== undefined) {
        bodies.set(delivery.id, built);
        continue;
      }
      const repo = event.repoId === null ? undefined : repos.get(event.repoId);
      const org = orgs.get(event.orgId ?? (repo?.ownerType === 'Organization' ? repo.ownerId : -1));
      const enterprise = org?.enterpriseId == null ? undefined : enterprises.get(org.enterpriseId);
      const sender = event.senderId === null ? undefined : senders.get(event.senderId);
      const body = {
        action: event.action,
        ...(absoluteUrls(event.payload, base) as Record<string, unknown>),
        ...(repo === undefined ? {} : { repository: serializeRepositorySummary(base, repo) }),
        ...(org === undefined ? {} : { organization: serializeOrganizationSummary(base, org) }),
        ...(enterprise === undefined ? {} : { enterprise: serializeEnterpriseSummary(base, enterprise) }),
        sender: sender === undefined ? serializeBotSender(base) : serializeUserSummary(base, sender),
      };
      const json = JSON.stringify(body);
      byEvent.set(event.id, json);
      bodies.set(delivery.id, json);
    }
    return bodies;
  }

  private async events(db: Executor, ids: readonly number[]): Promise<Map<number, EventRecord>> {
    if (ids.length === 0) return new Map();
    const rows: Array<Record<string, unknown>> = await db('events').whereIn('id', [...new Set(ids)]).select('id', 'event', 'action', 'repo_id', 'org_id', 'sender_id', 'payload');
    return new Map(rows.map((r) => [Number(r.id), {
      id: Number(r.id), event: r.event as string, action: r.action as string,
      repoId: r.repo_id === null ? null : Number(r.repo_id), orgId: r.org_id === null ? null : Number(r.org_id),
      senderId: r.sender_id === null ? null : Number(r.sender_id), payload: JSON.parse(r.payload as string) as Record<string, unknown>,
    }]));
  }
}
