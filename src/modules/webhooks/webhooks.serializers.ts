import type { z } from 'zod';
import type { deliveryDetailSchema, deliverySchema, hookSchema } from './webhooks.responses';
import { SECRET_MASK, type DeliveryAttempt, type DeliveryAttemptDetail, type HookOwner, type Webhook } from './webhooks.types';

// Domain → the REST shapes of webhooks.responses.ts. The ping payload shows a hook this way too.

type HookJson = z.output<typeof hookSchema>;

/** A hook's API URL: `{base}/orgs/{org}/hooks/{id}` or `{base}/repos/{owner}/{repo}/hooks/{id}`. */
function hookApiUrl(apiBase: string, owner: HookOwner, id: number): string {
  const at = owner.kind === 'org' ? `orgs/${encodeURIComponent(owner.login)}` : `repos/${encodeURIComponent(owner.owner)}/${encodeURIComponent(owner.name)}`;
  return `${apiBase}/${at}/hooks/${id}`;
}

export function serializeHook(apiBase: string, hook: Webhook): HookJson {
  const url = hookApiUrl(apiBase, hook.owner, hook.id);
  return {
    id: hook.id,
    type: hook.owner.kind === 'org' ? 'Organization' : 'Repository',
    name: 'web',
    active: hook.active,
    events: hook.events,
    config: {
      url: hook.config.url,
      content_type: hook.config.contentType,
      ...(hook.config.hasSecret ? { secret: SECRET_MASK } : {}),
      insecure_ssl: hook.config.insecureSsl,
    },
    created_at: hook.createdAt,
    updated_at: hook.updatedAt,
    url,
    ping_url: `${url}/pings`,
    deliveries_url: `${url}/deliveries`,
  };
}

export function serializeDelivery(a: DeliveryAttempt): z.output<typeof deliverySchema> {
  return {
    id: a.id, guid: a.guid, delivered_at: a.deliveredAt, redelivery: a.redelivery, duration: a.duration, status: a.status, status_code: a.statusCode,
    event: a.event, action: a.action, installation_id: null, repository_id: a.repositoryId, url: a.url, throttled_at: null,
  };
}

/** A body as shown: parsed when it is JSON, else the text (a form body, an HTML error page). */
function payloadOf(body: string | null): unknown {
  if (body === null) return null;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

export function serializeDeliveryDetail(a: DeliveryAttemptDetail): z.output<typeof deliveryDetailSchema> {
  return {
    ...serializeDelivery(a),
    request: { headers: a.request.headers, payload: payloadOf(a.request.body) },
    response: { headers: a.response.headers, payload: payloadOf(a.response.body) },
  };
}
