import type { Requirement } from '../auth/requirements';
import { deliveryDetailSchema, deliverySchema, hookSchema } from '../modules/webhooks/webhooks.responses';
import {
  MAX_HOOKS, deliveriesQuery, orgDeliveryPath, orgHookBody, orgHookPatchBody, orgHookPath, orgPath, repoDeliveryPath, repoHookBody, repoHookPatchBody,
  repoHookPath, repoPath,
} from '../modules/webhooks/webhooks.schemas';
import type { Operation } from './operation';

// Interfaces.md Part 2, "Webhooks" (#46–#63, after auto-triage's #32–#45), with the original's
// operationIds, so its generated clients (Octokit's orgs.createWebhook, repos.listWebhookDeliveries, …) work.

const TAG = 'webhooks';

/** Organization hooks: an owner; classic admin:org_hook (admin:org does not imply it, as in the original); fine-grained organization_hooks. */
const orgRequirement = (level: 'read' | 'write'): Requirement =>
  ({ target: 'org', scopes: ['admin:org_hook'], permission: ['organization_hooks', level], caller: 'orgAdmin' });
/** Repository hooks: a repository admin; classic admin:repo_hook; fine-grained repository_hooks. */
const repoRequirement = (level: 'read' | 'write'): Requirement =>
  ({ target: 'repo', scopes: ['admin:repo_hook'], permission: ['repository_hooks', level], caller: 'repoAdmin' });

const EVENTS = 'Events: `dependency_bot_alert` (every action of an alert\'s lifecycle), `security_advisory` (`published`, `updated`, `withdrawn`; organization hooks, for advisories affecting their repositories), '
  + '`ping`, and `*` for all; `dependency_bot_alert` when none are given. A `ping` is sent on creation (when active) and on request, whatever the events.';
const CONFIG = '`config.url` must be an http or https URL without credentials; loopback, private, link-local and metadata addresses are refused (422) unless the server allows private targets. '
  + '`content_type` `json` (the default) or `form`; `insecure_ssl` `"0"` (the default) or `"1"`. `secret` signs each delivery (`X-Hub-Signature-256`); it is never shown back, only `"********"`.';
const LIMIT = `At most ${MAX_HOOKS} hooks per organization or repository (422 beyond).`;
const PATCH = 'Changes the keys given; `config` keys merge into the hook\'s (a `secret` of `null` or `""` removes it).';
const DELIVERIES = 'One item per attempt, newest first: automatic retries and redeliveries share their delivery\'s `guid`. Always read fresh, never from a cache.';
const DELIVERY = 'The attempt with the request as sent and the response as received (bodies bounded), each `payload` parsed when it is JSON.';
const REDELIVER = 'Queues the delivery again (a new attempt with the same `guid`, `redelivery: true`).';

type Verb = 'list' | 'create' | 'get' | 'update' | 'delete' | 'ping' | 'listDeliveries' | 'getDelivery' | 'redeliver';

interface Level<N extends Record<Verb, string>> {
  /** The catalogue's names of the nine operations. */
  names: N;
  first: number;
  prefix: string;
  /** The original's operationId prefix. */
  ids: 'orgs' | 'repos';
  /** "an organization" / "a repository". */
  a: string;
  requirement: typeof orgRequirement;
  schemas: {
    path: typeof orgPath | typeof repoPath; hookPath: typeof orgHookPath | typeof repoHookPath; deliveryPath: typeof orgDeliveryPath | typeof repoDeliveryPath;
    createBody: typeof orgHookBody | typeof repoHookBody; patchBody: typeof orgHookPatchBody | typeof repoHookPatchBody;
  };
  createRules: readonly string[];
  patchRules: readonly string[];
}

/** The nine operations at one level, numbered on from `first`, in the verbs' order. */
function hookOperations<const N extends Record<Verb, string>>(l: Level<N>): Record<N[Verb], Operation> {
  const hooks = `${l.prefix}/hooks`;
  const hook = `${hooks}/{hook_id}`;
  const { schemas: s, requirement, a } = l;
  const read = requirement('read');
  const write = requirement('write');
  const entries: Record<Verb, Omit<Operation, 'number'>> = {
    list: { operationId: `${l.ids}/list-webhooks`, method: 'get', path: hooks, success: 200, request: { params: s.path }, response: { schema: hookSchema, array: true },
      requirement: read, docs: { tag: TAG, summary: `List ${a.replace(/^an? /, '')} webhooks`, rules: ['Oldest first.'] } },
    create: { operationId: `${l.ids}/create-webhook`, method: 'post', path: hooks, success: 201, request: { params: s.path, body: s.createBody }, response: { schema: hookSchema },
      requirement: write, docs: { tag: TAG, summary: `Create ${a} webhook`, rules: [...l.createRules, EVENTS, CONFIG, LIMIT] } },
    get: { operationId: `${l.ids}/get-webhook`, method: 'get', path: hook, success: 200, request: { params: s.hookPath }, response: { schema: hookSchema },
      requirement: read, docs: { tag: TAG, summary: `Get ${a} webhook` } },
    update: { operationId: `${l.ids}/update-webhook`, method: 'patch', path: hook, success: 200, request: { params: s.hookPath, body: s.patchBody }, response: { schema: hookSchema },
      requirement: write, docs: { tag: TAG, summary: `Update ${a} webhook`, rules: [PATCH, ...l.patchRules, EVENTS, CONFIG] } },
    delete: { operationId: `${l.ids}/delete-webhook`, method: 'delete', path: hook, success: 204, request: { params: s.hookPath },
      requirement: write, docs: { tag: TAG, summary: `Delete ${a} webhook`, rules: ['Its queued deliveries and delivery log go with it.'] } },
    ping: { operationId: `${l.ids}/ping-webhook`, method: 'post', path: `${hook}/pings`, success: 204, request: { params: s.hookPath },
      requirement: write, docs: { tag: TAG, summary: `Ping ${a} webhook`, rules: ['Queues a `ping` event, `{zen, hook_id, hook}`, active hook or not.'] } },
    listDeliveries: { operationId: `${l.ids}/list-webhook-deliveries`, method: 'get', path: `${hook}/deliveries`, success: 200, uncached: true,
      request: { params: s.hookPath, query: deliveriesQuery }, response: { schema: deliverySchema, array: true },
      requirement: read, docs: { tag: TAG, summary: `List deliveries for ${a} webhook`, pagination: 'cursor', rules: [DELIVERIES] } },
    getDelivery: { operationId: `${l.ids}/get-webhook-delivery`, method: 'get', path: `${hook}/deliveries/{delivery_id}`, success: 200, uncached: true,
      request: { params: s.deliveryPath }, response: { schema: deliveryDetailSchema },
      requirement: read, docs: { tag: TAG, summary: `Get a delivery for ${a} webhook`, rules: [DELIVERY] } },
    redeliver: { operationId: `${l.ids}/redeliver-webhook-delivery`, method: 'post', path: `${hook}/deliveries/{delivery_id}/attempts`, success: 202,
      request: { params: s.deliveryPath },
      requirement: write, docs: { tag: TAG, summary: `Redeliver a delivery for ${a} webhook`, rules: [REDELIVER] } },
  };
  const verbs = Object.keys(entries) as Verb[];
  return Object.fromEntries(verbs.map((verb, i) => [l.names[verb], { number: l.first + i, ...entries[verb] }])) as Record<N[Verb], Operation>;
}

export const WEBHOOK_OPERATIONS = {
  ...hookOperations({
    names: {
      list: 'listOrgWebhooks', create: 'createOrgWebhook', get: 'getOrgWebhook', update: 'updateOrgWebhook', delete: 'deleteOrgWebhook', ping: 'pingOrgWebhook',
      listDeliveries: 'listOrgWebhookDeliveries', getDelivery: 'getOrgWebhookDelivery', redeliver: 'redeliverOrgWebhookDelivery',
    },
    first: 46, prefix: '/orgs/{org}', ids: 'orgs', a: 'an organization', requirement: orgRequirement,
    schemas: { path: orgPath, hookPath: orgHookPath, deliveryPath: orgDeliveryPath, createBody: orgHookBody, patchBody: orgHookPatchBody },
    createRules: ['`name` must be `"web"`; `config.url` is required; `active` defaults to true.'],
    patchRules: [],
  }),
  ...hookOperations({
    names: {
      list: 'listRepoWebhooks', create: 'createRepoWebhook', get: 'getRepoWebhook', update: 'updateRepoWebhook', delete: 'deleteRepoWebhook', ping: 'pingRepoWebhook',
      listDeliveries: 'listRepoWebhookDeliveries', getDelivery: 'getRepoWebhookDelivery', redeliver: 'redeliverRepoWebhookDelivery',
    },
    first: 55, prefix: '/repos/{owner}/{repo}', ids: 'repos', a: 'a repository', requirement: repoRequirement,
    schemas: { path: repoPath, hookPath: repoHookPath, deliveryPath: repoDeliveryPath, createBody: repoHookBody, patchBody: repoHookPatchBody },
    createRules: ['`name` is optional (`"web"`); `config.url` is required; `active` defaults to true.'],
    patchRules: ['`add_events` and `remove_events` change the list after `events` (if given) replaces it.'],
  }),
};
