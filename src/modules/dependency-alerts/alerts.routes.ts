import { Router, type RequestHandler, type Request, type Response } from 'express';
import type { KeysetPage } from '../../database/keyset';
import { jsonBody } from '../../http/body';
import { apiBaseOf, principalOf } from '../../http/locals';
import { route } from '../../http/operation';
import { rejectPageParameter, setCursorLinks } from '../../http/pagination';
import { sendJsonText } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  ALERT_INPUT, ALERT_QUERY_INPUT, alertPath, enterpriseListRequest, enterprisePath, orgListRequest, orgPath, repoListRequest, repoPath, updateBody,
} from './alerts.schemas';
import { alertPageJson, type AlertJson } from './alerts.serializers';
import type { AlertView, DependencyAlertsService } from './alerts.service';

function pageSender(json: AlertJson) {
  return (req: Request, res: Response, page: KeysetPage<AlertView>, withRepository: boolean): void => {
    setCursorLinks(req, res, page);
    sendJsonText(res, 200, alertPageJson(json, apiBaseOf(res), page.items, { withRepository }));
  };
}

/** Spec §4.4, #23–#27 (#26 is the single-alert read); `json` writes alerts (cached, see composition.ts). */
export function dependencyAlertsRoutes(alerts: DependencyAlertsService, cached: RequestHandler, json: AlertJson): Router {
  const router = Router();
  const sendPage = pageSender(json);

  route(router, 'listEnterpriseDependencyAlerts', cached, async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(enterprisePath, req.params, ALERT_INPUT);
    const q = parseInput(enterpriseListRequest, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alerts.listForEnterprise(principalOf(res), p.enterprise, q), true);
  });

  route(router, 'listOrgDependencyAlerts', cached, async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(orgPath, req.params, ALERT_INPUT);
    const q = parseInput(orgListRequest, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alerts.listForOrg(principalOf(res), p.org, q), true);
  });

  route(router, 'listRepoDependencyAlerts', cached, async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(repoPath, req.params, ALERT_INPUT);
    const q = parseInput(repoListRequest, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alerts.listForRepo(principalOf(res), p.owner, p.repo, q), false);
  });

  route(router, 'getDependencyAlert', cached, async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const view = await alerts.get(principalOf(res), p.owner, p.repo, p.alert_number);
    // Loaded after the versions were read: at least as new as they say.
    sendJsonText(res, 200, json(apiBaseOf(res), view, { withRepository: false }));
  });

  route(router, 'updateDependencyAlert', async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const patch = parseInput(updateBody, jsonBody(req), ALERT_INPUT);
    const view = await alerts.update(principalOf(res), { owner: p.owner, repo: p.repo, number: p.alert_number }, patch);
    // A write reads no cache (http/authenticate.ts): the alert as it now is.
    sendJsonText(res, 200, json(apiBaseOf(res), view, { withRepository: false }));
  });

  return router;
}
