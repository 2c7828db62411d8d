import { Router, type Response } from 'express';
import { jsonBody } from '../../http/body';
import { apiBaseOf, principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { rejectPageParameter, setNextCursorLinks } from '../../http/pagination';
import { sendEmpty, sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  HOOK_INPUT, deliveriesQuery, orgDeliveryPath, orgHookBody, orgHookPatchBody, orgHookPath, orgPath, repoDeliveryPath, repoHookBody, repoHookPatchBody,
  repoHookPath, repoPath,
} from './webhooks.schemas';
import { serializeDelivery, serializeDeliveryDetail, serializeHook } from './webhooks.serializers';
import { HOOK_OPERATIONS, type HookScope } from './webhooks.service';

const webhooksOf = (res: Response) => servicesOf(res).webhooks;

/** What differs between the two levels: how the path names the owner, and the bodies. */
const LEVELS = [
  {
    level: 'org',
    scopeOf: (params: unknown): HookScope => ({ level: 'org', org: parseInput(orgPath, params, HOOK_INPUT).org }),
    hookPath: orgHookPath,
    deliveryPath: orgDeliveryPath,
    createBody: orgHookBody,
    patchBody: orgHookPatchBody,
  },
  {
    level: 'repo',
    scopeOf: (params: unknown): HookScope => {
      const p = parseInput(repoPath, params, HOOK_INPUT);
      return { level: 'repo', owner: p.owner, repo: p.repo };
    },
    hookPath: repoHookPath,
    deliveryPath: repoDeliveryPath,
    createBody: repoHookBody,
    patchBody: repoHookPatchBody,
  },
] as const;

/** Interfaces.md Part 2 "Webhooks", #46–#63: the same nine operations for organization and repository hooks. */
export function webhooksRoutes(): Router {
  const router = Router();
  for (const { level, scopeOf, hookPath, deliveryPath, createBody, patchBody } of LEVELS) {
    const names = HOOK_OPERATIONS[level];
    const hookId = (params: unknown) => parseInput(hookPath, params, HOOK_INPUT).hook_id;

    route(router, names.list, async (req, res) => {
      const hooks = await webhooksOf(res).list(principalOf(res), scopeOf(req.params));
      sendJson(res, 200, hooks.map((h) => serializeHook(apiBaseOf(res), h)));
    });
    route(router, names.create, async (req, res) => {
      const scope = scopeOf(req.params);
      const input = parseInput(createBody, jsonBody(req), HOOK_INPUT);
      sendJson(res, 201, serializeHook(apiBaseOf(res), await webhooksOf(res).create(principalOf(res), scope, input, apiBaseOf(res))));
    });
    route(router, names.get, async (req, res) => {
      const scope = scopeOf(req.params);
      sendJson(res, 200, serializeHook(apiBaseOf(res), await webhooksOf(res).get(principalOf(res), scope, hookId(req.params))));
    });
    route(router, names.update, async (req, res) => {
      const scope = scopeOf(req.params);
      const id = hookId(req.params);
      const patch = parseInput(patchBody, jsonBody(req), HOOK_INPUT);
      sendJson(res, 200, serializeHook(apiBaseOf(res), await webhooksOf(res).update(principalOf(res), scope, id, patch)));
    });
    route(router, names.delete, async (req, res) => {
      const scope = scopeOf(req.params);
      await webhooksOf(res).delete(principalOf(res), scope, hookId(req.params));
      sendEmpty(res, 204);
    });
    route(router, names.ping, async (req, res) => {
      const scope = scopeOf(req.params);
      await webhooksOf(res).ping(principalOf(res), scope, hookId(req.params), apiBaseOf(res));
      sendEmpty(res, 204);
    });
    route(router, names.listDeliveries, async (req, res) => {
      rejectPageParameter(req.query);
      const scope = scopeOf(req.params);
      const id = hookId(req.params);
      const q = parseInput(deliveriesQuery, req.query, { ...HOOK_INPUT, topLevelFields: true });
      const { page } = await webhooksOf(res).deliveries(principalOf(res), scope, id, { perPage: q.per_page, after: q.cursor, status: q.status });
      setNextCursorLinks(req, res, 'cursor', page.next);
      sendJson(res, 200, page.items.map(serializeDelivery));
    });
    route(router, names.getDelivery, async (req, res) => {
      const scope = scopeOf(req.params);
      const p = parseInput(deliveryPath, req.params, HOOK_INPUT);
      sendJson(res, 200, serializeDeliveryDetail(await webhooksOf(res).delivery(principalOf(res), scope, p.hook_id, p.delivery_id)));
    });
    route(router, names.redeliver, async (req, res) => {
      const scope = scopeOf(req.params);
      const p = parseInput(deliveryPath, req.params, HOOK_INPUT);
      await webhooksOf(res).redeliver(principalOf(res), scope, p.hook_id, p.delivery_id);
      sendEmpty(res, 202);
    });
  }
  return router;
}
