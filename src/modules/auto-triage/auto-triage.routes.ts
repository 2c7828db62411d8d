import { Router, type Response } from 'express';
import { jsonBody } from '../../http/body';
import { principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { sendEmpty, sendJson } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  PRESET_INPUT, RULE_INPUT, orgPath, orgRuleBody, orgRulePatchBody, orgRulePath, presetsBody, repoPath, repoRuleBody, repoRulePatchBody, repoRulePath,
} from './auto-triage.schemas';
import { serializePresets, serializeRule } from './auto-triage.serializers';
import { TRIAGE_OPERATIONS, type TriageScope } from './auto-triage.service';

const autoTriageOf = (res: Response) => servicesOf(res).autoTriage;

/** What differs between the two levels: how the path names the owner, and the bodies. */
const LEVELS = [
  {
    level: 'org',
    scopeOf: (params: unknown): TriageScope => ({ level: 'org', org: parseInput(orgPath, params, RULE_INPUT).org }),
    rulePath: orgRulePath,
    createBody: orgRuleBody,
    patchBody: orgRulePatchBody,
  },
  {
    level: 'repo',
    scopeOf: (params: unknown): TriageScope => {
      const p = parseInput(repoPath, params, RULE_INPUT);
      return { level: 'repo', owner: p.owner, repo: p.repo };
    },
    rulePath: repoRulePath,
    createBody: repoRuleBody,
    patchBody: repoRulePatchBody,
  },
] as const;

/** Interfaces.md Part 2 "Auto-triage rules", #32–#45: the same seven operations at organization and repository level. */
export function autoTriageRoutes(): Router {
  const router = Router();
  for (const { level, scopeOf, rulePath, createBody, patchBody } of LEVELS) {
    const names = TRIAGE_OPERATIONS[level];
    const ruleId = (params: unknown) => parseInput(rulePath, params, RULE_INPUT).rule_id;

    route(router, names.list, async (req, res) => {
      sendJson(res, 200, (await autoTriageOf(res).listRules(principalOf(res), scopeOf(req.params))).map(serializeRule));
    });
    route(router, names.create, async (req, res) => {
      const scope = scopeOf(req.params);
      const input = parseInput(createBody, jsonBody(req), RULE_INPUT);
      sendJson(res, 201, serializeRule(await autoTriageOf(res).createRule(principalOf(res), scope, input)));
    });
    route(router, names.get, async (req, res) => {
      const scope = scopeOf(req.params);
      sendJson(res, 200, serializeRule(await autoTriageOf(res).getRule(principalOf(res), scope, ruleId(req.params))));
    });
    route(router, names.update, async (req, res) => {
      const scope = scopeOf(req.params);
      const id = ruleId(req.params);
      const patch = parseInput(patchBody, jsonBody(req), RULE_INPUT);
      sendJson(res, 200, serializeRule(await autoTriageOf(res).updateRule(principalOf(res), scope, id, patch)));
    });
    route(router, names.delete, async (req, res) => {
      const scope = scopeOf(req.params);
      await autoTriageOf(res).deleteRule(principalOf(res), scope, ruleId(req.params));
      sendEmpty(res, 204);
    });
    route(router, names.getPresets, async (req, res) => {
      sendJson(res, 200, serializePresets(await autoTriageOf(res).presets(principalOf(res), scopeOf(req.params))));
    });
    route(router, names.setPresets, async (req, res) => {
      const scope = scopeOf(req.params);
      const presets = parseInput(presetsBody, jsonBody(req), PRESET_INPUT);
      sendJson(res, 200, serializePresets(await autoTriageOf(res).setPresets(principalOf(res), scope, presets)));
    });
  }
  return router;
}
