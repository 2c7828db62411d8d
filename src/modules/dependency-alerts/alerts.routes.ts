import { Router, type Request, type Response } from 'express';
import type { KeysetPage } from '../../database/keyset';
import { jsonBody } from '../../http/body';
import { apiBaseOf, principalOf, servicesOf } from '../../http/locals';
import { route } from '../../http/operation';
import { rejectPageParameter, setCursorLinks } from '../../http/pagination';
import { sendJsonText } from '../../http/respond';
import { parseInput } from '../../http/validate';
import {
  ALERT_INPUT, ALERT_QUERY_INPUT, alertPath, enterpriseListRequest, enterprisePath, orgListRequest, orgPath, repoListRequest, repoPath, updateBody,
} from './alerts.schemas';
import { alertPageJson } from './alerts.serializers';
import type { AlertView } from './alerts.types';

/** This request's service (bound to its data versions for reads). */
const alertsOf = (res: Response) => servicesOf(res).dependencyAlerts;

function sendPage(req: Request, res: Response, page: KeysetPage<AlertView>, withRepository: boolean): void {
  setCursorLinks(req, res, page);
  sendJsonText(res, 200, alertPageJson(servicesOf(res).alertJson, apiBaseOf(res), page.items, { withRepository }));
}

/** Spec §4.4, #23–#27 (#26 is the single-alert read); the request's `alertJson` writes alerts (cached, see composition.ts). */
export function dependencyAlertsRoutes(): Router {
  const router = Router();

  route(router, 'listEnterpriseDependencyAlerts', async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(enterprisePath, req.params, ALERT_INPUT);
    const q = parseInput(enterpriseListRequest, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alertsOf(res).listForEnterprise(principalOf(res), p.enterprise, q), true);
  });

  route(router, 'listOrgDependencyAlerts', async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(orgPath, req.params, ALERT_INPUT);
    const q = parseInput(orgListRequest, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alertsOf(res).listForOrg(principalOf(res), p.org, q), true);
  });

  route(router, 'listRepoDependencyAlerts', async (req, res) => {
    rejectPageParameter(req.query);
    const p = parseInput(repoPath, req.params, ALERT_INPUT);
    const q = parseInput(repoListRequest, req.query, ALERT_QUERY_INPUT);
    sendPage(req, res, await alertsOf(res).listForRepo(principalOf(res), p.owner, p.repo, q), false);
  });

  route(router, 'getDependencyAlert', async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const view = await alertsOf(res).get(principalOf(res), p.owner, p.repo, p.alert_number);
    // Loaded after the versions were read: at least as new as they say.
    sendJsonText(res, 200, servicesOf(res).alertJson(apiBaseOf(res), view, { withRepository: false }));
  });

  route(router, 'updateDependencyAlert', async (req, res) => {
    const p = parseInput(alertPath, req.params, ALERT_INPUT);
    const patch = parseInput(updateBody, jsonBody(req), ALERT_INPUT);
    const view = await alertsOf(res).update(principalOf(res), { owner: p.owner, repo: p.repo, number: p.alert_number }, patch);
    // A write's services are bound to no versions (http/authenticate.ts): the alert as it now is.
    sendJsonText(res, 200, servicesOf(res).alertJson(apiBaseOf(res), view, { withRepository: false }));
  });

  return router;
}
