import type { Knex } from 'knex';

// A world for the webhook tests: an organization with a private and a public repository, a
// user-owned one, and callers the access rules tell apart (interfaces.md Part 2 "Webhooks").
export const ORG = 'wh-org';
export const PRIVATE = `${ORG}/wh-private`;
export const PUBLIC = `${ORG}/wh-public`;
export const SOLO = 'wh-solo/wh-own';
/** A secret the tests look for in every answer and log line: it must never appear. */
export const SECRET = 'wh-7Qm2-secret-v9Lx';

export const T = {
  owner: 'wh_owner',
  ownerAdminOrg: 'wh_owner_admin_org',
  ownerRepoHook: 'wh_owner_repo_hook',
  member: 'wh_member',
  repoAdmin: 'wh_repo_admin',
  writer: 'wh_writer',
  outsider: 'wh_outsider',
  solo: 'wh_solo_token',
  fineRead: 'wh_fine_read',
  fineWrite: 'wh_fine_write',
  fineRepoWrite: 'wh_fine_repo_write',
  installation: 'wh_installation',
} as const;

export function webhooksWorld() {
  return {
    users: ['wh-owner', 'wh-member', 'wh-admin', 'wh-writer', 'wh-outsider', 'wh-solo'].map((login) => ({ login })),
    organizations: [{ login: ORG, owners: ['wh-owner'], members: ['wh-member'] }, { login: 'wh-elsewhere', owners: ['wh-outsider'] }],
    repositories: [
      { owner: ORG, name: 'wh-private', private: true, collaborators: [{ login: 'wh-admin', permission: 'admin' }, { login: 'wh-writer', permission: 'write' }] },
      { owner: ORG, name: 'wh-public', private: false },
      { owner: 'wh-solo', name: 'wh-own', private: true },
    ],
    tokens: [
      { token: T.owner, type: 'classic', user: 'wh-owner', scopes: ['admin:org_hook', 'admin:repo_hook'] },
      { token: T.ownerAdminOrg, type: 'classic', user: 'wh-owner', scopes: ['admin:org', 'repo'] },
      { token: T.ownerRepoHook, type: 'classic', user: 'wh-owner', scopes: ['admin:repo_hook'] },
      { token: T.member, type: 'classic', user: 'wh-member', scopes: ['admin:org_hook', 'admin:repo_hook'] },
      { token: T.repoAdmin, type: 'classic', user: 'wh-admin', scopes: ['admin:repo_hook'] },
      { token: T.writer, type: 'classic', user: 'wh-writer', scopes: ['admin:repo_hook'] },
      { token: T.outsider, type: 'classic', user: 'wh-outsider', scopes: ['admin:org_hook', 'admin:repo_hook'] },
      { token: T.solo, type: 'classic', user: 'wh-solo', scopes: ['admin:repo_hook'] },
      { token: T.fineRead, type: 'fine_grained', user: 'wh-owner', resource_owner: ORG, permissions: { organization_hooks: 'read', repository_hooks: 'read' } },
      { token: T.fineWrite, type: 'fine_grained', user: 'wh-owner', resource_owner: ORG, permissions: { organization_hooks: 'write' } },
      { token: T.fineRepoWrite, type: 'fine_grained', user: 'wh-owner', resource_owner: ORG, permissions: { repository_hooks: 'write' } },
      { token: T.installation, type: 'installation', app: 'wh-bot', resource_owner: ORG, permissions: { organization_hooks: 'write', repository_hooks: 'write' } },
    ],
  };
}

let attemptGuid = 0;

/**
 * What the delivery worker writes for one attempt of a queued delivery (its own module does
 * this for real): the attempt row, with the request as sent and the response as received.
 */
export async function recordAttempt(knex: Knex, deliveryId: number, options: { statusCode?: number; responseBody?: string | null; redelivery?: boolean } = {}): Promise<number> {
  const delivery = await knex('webhook_deliveries').where('id', deliveryId).first();
  const hook = await knex('webhooks').where('id', delivery.hook_id).first('url');
  const guid = delivery.guid ?? `6f1c2a4e-8d3b-4f7a-9c2e-${String(++attemptGuid).padStart(12, '0')}`;
  await knex('webhook_deliveries').where('id', deliveryId).update({ guid, attempts: Number(delivery.attempts) + 1 });
  const statusCode = options.statusCode ?? 200;
  const [row] = await knex('webhook_delivery_attempts').insert({
    delivery_id: deliveryId, hook_id: delivery.hook_id, guid, redelivery: options.redelivery ?? false, delivered_at: '2026-11-27T10:00:00Z', duration: 0.25,
    status: statusCode === 200 ? 'OK' : `Invalid HTTP Response: ${statusCode}`, status_code: statusCode, event: delivery.event, action: delivery.action,
    repo_id: delivery.repo_id, url: hook.url,
    request_headers: JSON.stringify({ 'Content-Type': 'application/json', 'X-Service-Event': delivery.event, 'X-Service-Delivery': guid }),
    request_body: delivery.payload ?? '{}',
    response_headers: JSON.stringify({ 'content-type': 'text/plain' }),
    response_body: options.responseBody === undefined ? 'received' : options.responseBody,
  }).returning('id');
  return Number(typeof row === 'object' ? row.id : row);
}
